// The feed's own history: each revision of the fetched document, gzip-compressed, in
// `<show>/.podarchive/history/<UTC time>.<xml|json>.gz`, and the newest as `history/current.<xml|json>`. A
// revision is a change in what the feed says of its episodes (the set, or any episode's data, show notes
// included), not in `lastBuildDate` or the order of items; so show notes of a deleted episode can always be
// found again.
import Foundation

/// What a feed says of its episodes, as one digest: equal for documents that differ only in volatile parts
/// (build dates, item order, whitespace, markup of the same values).
enum FeedRevision {
    static func digest(of feed: Feed) -> String {
        var hasher = SHA256()
        func add(_ text: String?) {
            hasher.update(Array((text ?? "\u{1}").utf8))
            hasher.update([0])
        }
        // URLs as they are kept: a token that changes on every fetch is no new revision (see `SecretForms`).
        func add(url text: String?) { add(text.map(URLSecrets.redacted)) }
        add(feed.title)
        add(url: feed.imageURL)
        for episode in feed.episodes.sorted(by: { $0.identity < $1.identity }) {
            add(url: episode.identity)
            add(episode.title)
            add(url: episode.guid)
            add(url: episode.url)
            add(episode.mimeType)
            add(episode.length.map(String.init))
            add(episode.published.map(FeedDate.iso8601))
            add(episode.description)
            add(url: episode.link)
            add(episode.duration.map { String($0) })
            add(url: episode.imageURL)
            add(episode.episodeNumber.map(String.init))
            add(episode.seasonNumber.map(String.init))
            hasher.update([0x0A])
        }
        return hasher.hexDigest()
    }

    /// The extension the document is kept under.
    static func fileExtension(of feed: Feed) -> String {
        switch feed.format {
        case .rss, .atom: return "xml"
        default: return "json"
        }
    }
}

extension FeedFolders {
    /// The history folder of a show.
    static func historyFolder(of show: FeedFolder) -> URL {
        show.stateFolder.appendingPathComponent("history", isDirectory: true)
    }

    /// Keeps `feed`'s document as a new revision when what it says differs from `previous` (a digest), and as
    /// the current document; returns the new digest. History is a record, not the archive: a failure to write
    /// it is reported by the caller and costs no episode.
    func keepRevision(of feed: Feed, previous: String?, in show: FeedFolder, at now: Date) throws -> String {
        let digest = FeedRevision.digest(of: feed)
        guard digest != previous, let document = feed.document else { return previous ?? digest }
        let folder = Self.historyFolder(of: show)
        try createFolder(folder)
        let ext = FeedRevision.fileExtension(of: feed)
        // 2025-01-31T18-00-00Z: a time that sorts as text and is a valid file name everywhere.
        let stamp = FeedDate.iso8601(now).replacingOccurrences(of: ":", with: "-")
        // Kept as anyone the archive is served to may read it: every URL in it redacted.
        let kept = URLSecrets.redactingURLs(in: document)
        for (name, data) in [("\(stamp).\(ext).gz", Gzip.compress(kept)), ("current.\(ext)", kept)] {
            let url = folder.appendingPathComponent(name)
            do {
                try writer.writeAtomically(data, to: url, durable: false)
            } catch {
                throw ArchiveError.storage(error, path: url.path)
            }
        }
        return digest
    }

    /// The revisions of `show`'s history that do not read back, with why.
    func damagedRevisions(in show: FeedFolder) -> [(file: String, reason: String)] {
        let folder = Self.historyFolder(of: show)
        let names = ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasSuffix(".gz") }
        return names.sorted().compactMap { name in
            guard let data = files.contents(atPath: folder.appendingPathComponent(name).path) else {
                return (name, "it cannot be read")
            }
            do {
                _ = try Gzip.decompress(data)
                return nil
            } catch let damaged as Gzip.Damaged {
                return (name, damaged.reason)
            } catch {
                return (name, "\(error)")
            }
        }
    }
}
