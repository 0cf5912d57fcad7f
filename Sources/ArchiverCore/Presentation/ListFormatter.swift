// How `list` reads: the episode table, and the JSON of `list --json`.
import Foundation

/// What `list` prints: a feed's episodes as a table or JSON, and `list --archived`'s.
public enum ListFormatter {
    /// The object `list --json` prints (see `podarchive help list`), built in one byte buffer: a 20,000-episode
    /// feed must not cost more to print than to read.
    public static func json(_ feed: Feed) -> [UInt8] {
        var out = JSONWriter()
        out.raw("{\"title\": ")
        out.string(feed.title)
        out.raw(", \"episodes\": [")
        for (position, episode) in feed.episodes.enumerated() {
            out.raw(position == 0 ? "\n  {\"title\": " : ",\n  {\"title\": ")
            out.string(episode.title)
            out.raw(", \"guid\": ")
            out.string(episode.guid)
            out.raw(", \"url\": ")
            out.string(episode.url)
            out.raw(", \"type\": ")
            out.string(episode.mimeType)
            out.raw(", \"length\": ")
            out.raw(episode.length.map { String($0) } ?? "null")
            out.raw(", \"published\": ")
            out.string(episode.published.map(FeedDate.iso8601))
            if !episode.alternates.isEmpty { alternates(episode.alternates, into: &out) }
            out.raw("}")
        }
        out.raw(feed.episodes.isEmpty ? "]}\n" : "\n]}\n")
        return out.bytes
    }

    /// `"alternates": [...]`: each alternate enclosure as the feed gives it (only where an episode has some).
    private static func alternates(_ list: [AlternateEnclosure], into out: inout JSONWriter) {
        out.raw(", \"alternates\": [")
        for (position, alternate) in list.enumerated() {
            out.raw(position == 0 ? "{\"type\": " : ", {\"type\": ")
            out.string(alternate.type)
            out.raw(", \"length\": ")
            out.raw(alternate.length.map { String($0) } ?? "null")
            out.raw(", \"bitrate\": ")
            out.raw(alternate.bitrate.map { String(format: "%.0f", $0) } ?? "null")
            out.raw(", \"height\": ")
            out.raw(alternate.height.map { String($0) } ?? "null")
            for (key, value) in [
                ("title", alternate.title), ("lang", alternate.language), ("codecs", alternate.codecs),
                ("integrity", alternate.integrity), ("rel", alternate.rel),
            ] {
                out.raw(", \"\(key)\": ")
                out.string(value)
            }
            out.raw(", \"pgpSignature\": \(alternate.pgpSignature == nil ? "false" : "true")")
            out.raw(", \"default\": \(alternate.isDefault)")
            out.raw(", \"sources\": [")
            for (index, source) in alternate.sources.enumerated() {
                if index > 0 { out.raw(", ") }
                out.string(source)
            }
            out.raw("]}")
        }
        out.raw("]")
    }

    /// A readable table: date, size and title of each episode.
    public static func table(_ feed: Feed) -> String {
        let count = feed.episodes.count
        var text = "\(feed.title ?? "(untitled feed)"): \(count) episode\(count == 1 ? "" : "s")\n"
        for episode in feed.episodes {
            let date = episode.published.map(FeedDate.day) ?? "----------"
            let size = episode.length.map(SyncFormatter.size) ?? ""
            let padded = String(repeating: " ", count: max(0, 9 - size.count)) + size
            text += "\(date)  \(padded)  \(SyncFormatter.oneLine(episode.title ?? "(untitled)"))\n"
            if !episode.alternates.isEmpty {
                let described = episode.alternates.map { alternate in
                    var details: [String] = []
                    if let codecs = alternate.codecs { details.append(codecs) }
                    if let bitrate = alternate.bitrate { details.append("\(Int(bitrate / 1000)) kb/s") }
                    if let length = alternate.length { details.append(SyncFormatter.size(length)) }
                    if alternate.integrity.flatMap(SubresourceIntegrity.init) != nil { details.append("hash given") }
                    let type = SyncFormatter.oneLine(alternate.type)
                    return details.isEmpty
                        ? type : "\(type) (\(details.map(SyncFormatter.oneLine).joined(separator: ", ")))"
                }
                text += "                       also as: \(described.joined(separator: "; "))\n"
            }
        }
        return text
    }
}
