// What an item publishes besides its enclosure: the enclosure itself, transcripts, chapters (by URL, or Podlove
// Simple Chapters inline) and a Media RSS thumbnail as the episode's artwork when it has no other.
import Foundation

extension XMLFeedReader {
    mutating func takeEnclosure(_ attributes: [XMLAttributeRange], urlAttribute: StaticString) {
        guard let raw = value(of: urlAttribute, in: attributes),
            !raw.isEmpty
        else { return }
        let url = resolver.resolve(raw)
        item?.url = url
        let type = value(of: "type", in: attributes)
        item?.mimeType = type?.isEmpty == false ? type : nil
        if let length = value(of: "length", in: attributes).flatMap({ Int64($0) }),
            length > 0
        {
            item?.length = length
        }
    }

    /// Takes a transcript, a chapters document, one inline chapter, or a thumbnail of the item being read.
    mutating func takeCompanion(_ kind: Kind, _ attributes: [XMLAttributeRange]) {
        func attribute(_ name: StaticString) -> String? {
            value(of: name, in: attributes).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard var built = item else { return }
        switch kind {
        case .podcastTranscript, .podcastChapters:
            guard let raw = attribute("url") else { return }
            let url = resolver.resolve(raw)
            guard !built.companions.contains(where: { $0.url == url }) else { return }
            let transcript = kind == .podcastTranscript
            built.companions.append(
                Companion(
                    kind: transcript ? .transcript : .chapters, url: url, type: attribute("type"),
                    language: transcript ? attribute("language") : nil, rel: transcript ? attribute("rel") : nil))
        case .pscChapter:
            guard let start = attribute("start") else { return }
            let href = attribute("href").map { resolver.resolve($0) }
            let image = attribute("image").map { resolver.resolve($0) }
            built.psc.append((start, attribute("title"), href, image))
        case .mediaThumbnail:
            guard built.thumbnail == nil, let raw = attribute("url") else { return }
            built.thumbnail = resolver.resolve(raw)
        case .podcastImages:
            // srcset: "url 1500w, url 600w": the widest.
            guard built.podcastImage == nil, let srcset = attribute("srcset") else { return }
            let candidates = srcset.split(separator: ",").compactMap { candidate -> (String, Int)? in
                let parts = candidate.split(separator: " ", omittingEmptySubsequences: true)
                guard let url = parts.first else { return nil }
                let width = parts.dropFirst().first.flatMap { Int($0.dropLast()) } ?? 0
                return (String(url), width)
            }
            if let widest = candidates.max(by: { $0.1 < $1.1 }) { built.podcastImage = resolver.resolve(widest.0) }
        default:
            return
        }
        item = built
    }

    /// Starts an alternate enclosure of the item being read (up to `AlternateEnclosure.limit`).
    mutating func takeAlternate(_ attributes: [XMLAttributeRange]) {
        func attribute(_ name: StaticString) -> String? {
            value(of: name, in: attributes).flatMap { $0.isEmpty ? nil : $0 }
        }
        item?.keptAlternate = false
        guard var built = item, built.alternates.count < AlternateEnclosure.limit,
            let type = attribute("type")
        else { return }
        built.keptAlternate = true
        built.alternates.append(
            AlternateEnclosure(
                type: type, length: attribute("length").flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil },
                bitrate: attribute("bitrate").flatMap { Double($0) }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil },
                height: attribute("height").flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil },
                language: attribute("lang"),
                title: attribute("title"), codecs: attribute("codecs"),
                isDefault: attribute("default")?.lowercased() == "true"))
        if let rel = attribute("rel"), rel.lowercased() != "default" {
            built.alternates[built.alternates.count - 1].rel = String(rel.prefix(256))
        }
        item = built
    }

    /// A `podcast:source` or `podcast:integrity` of the alternate enclosure being read.
    mutating func takeAlternatePart(_ kind: Kind, _ attributes: [XMLAttributeRange]) {
        func attribute(_ name: StaticString) -> String? {
            value(of: name, in: attributes).flatMap { $0.isEmpty ? nil : $0 }
        }
        guard var built = item, built.keptAlternate, var alternate = built.alternates.popLast() else { return }
        if kind == .podcastSource, let uri = attribute("uri").map({ resolver.resolve($0) }) {
            // A torrent or a playlist is a way to the file, not the file (`AlternateEnclosure.delivers`).
            if alternate.delivers(contentType: attribute("contentType"), uri: uri) {
                if alternate.sources.count < AlternateEnclosure.limit { alternate.sources.append(uri) }
            } else if (alternate.indirectSources?.count ?? 0) < AlternateEnclosure.limit {
                alternate.indirectSources = (alternate.indirectSources ?? []) + [uri]
            }
        } else if kind == .podcastIntegrity, let value = attribute("value") {
            switch attribute("type")?.lowercased() {
            case "sri": alternate.integrity = alternate.integrity ?? String(value.prefix(4096))
            case "pgp-signature": alternate.pgpSignature = alternate.pgpSignature ?? String(value.prefix(16384))
            default: break
            }
        }
        built.alternates.append(alternate)
        item = built
    }
}
