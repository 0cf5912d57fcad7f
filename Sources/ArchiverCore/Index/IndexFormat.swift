// The index on disk as bytes: written by hand (one episode a line), read by hand (`IndexReader`) with JSONDecoder
// judging what that reader does not expect, and the limits that refuse a damaged or hostile index before it is
// read. The model is `ArchiveIndex`; where the file lives, `ArchiveLayout`; reading it with its journal applied,
// `IndexStore`.
import Foundation

/// How an index is written to and read from its file.
public enum IndexFormat {
    /// The index as JSON, one episode a line. Written by hand: it is written whole at every fold of the journal,
    /// and JSONEncoder took milliseconds per save at 1,000 entries.
    public static func encode(_ index: ArchiveIndex) -> Data {
        let (episodes, failures) = (index.episodes, index.failures)
        var out = JSONWriter()
        out.raw("{\"version\": \(index.writtenVersion), \"feed\": ")
        out.string(index.feed)
        out.raw(", \"title\": ")
        out.string(index.title)
        out.raw(",\n\"episodes\": [")
        for (position, entry) in episodes.enumerated() {
            out.raw(position == 0 ? "\n  {\"key\": " : ",\n  {\"key\": ")
            out.string(entry.key)
            out.raw(", \"guid\": ")
            out.string(entry.guid)
            out.raw(", \"title\": ")
            out.string(entry.title)
            out.raw(", \"url\": ")
            out.string(entry.url)
            out.raw(", \"file\": ")
            out.string(entry.file)
            out.raw(", \"size\": ")
            out.number(entry.size)
            out.raw(", \"sha256\": ")
            out.string(entry.sha256)
            out.raw(", \"published\": ")
            out.string(entry.published)
            out.raw(", \"archived\": ")
            out.string(entry.archived)
            if let replacedBy = entry.replacedBy {
                out.raw(", \"replacedBy\": ")
                out.string(replacedBy)
            }
            if let companions = entry.companions, !companions.isEmpty {
                out.raw(", \"companions\": [")
                for (number, companion) in companions.enumerated() {
                    out.raw(number == 0 ? "{\"kind\": " : ", {\"kind\": ")
                    out.string(companion.kind)
                    out.raw(", \"file\": ")
                    out.string(companion.file)
                    out.raw(", \"url\": ")
                    out.string(companion.url)
                    out.raw(", \"type\": ")
                    out.string(companion.type)
                    out.raw(", \"language\": ")
                    out.string(companion.language)
                    out.raw(", \"size\": ")
                    out.number(companion.size)
                    out.raw(", \"sha256\": ")
                    out.string(companion.sha256)
                    out.raw("}")
                }
                out.raw("]")
            }
            if let removed = entry.removedUpstream {
                out.raw(", \"removedUpstream\": ")
                out.string(removed)
                out.raw(", \"lastSeen\": ")
                out.string(entry.lastSeen)
            }
            out.raw("}")
        }
        out.raw(episodes.isEmpty ? "],\n\"failures\": [" : "\n],\n\"failures\": [")
        for (position, failure) in failures.enumerated() {
            out.raw(position == 0 ? "\n  {\"key\": " : ",\n  {\"key\": ")
            out.string(failure.key)
            out.raw(", \"guid\": ")
            out.string(failure.guid)
            out.raw(", \"title\": ")
            out.string(failure.title)
            out.raw(", \"url\": ")
            out.string(failure.url)
            out.raw(", \"type\": ")
            out.string(failure.type)
            out.raw(", \"published\": ")
            out.string(failure.published)
            out.raw(", \"reason\": ")
            out.string(failure.reason)
            out.raw(", \"failed\": ")
            out.string(failure.failed)
            out.raw(", \"status\": ")
            out.number(failure.status.map(Int64.init))
            out.raw(", \"missingSince\": ")
            out.string(failure.missingSince)
            out.raw(", \"missingRuns\": ")
            out.number(failure.missingRuns.map(Int64.init))
            out.raw(", \"gone\": ")
            out.string(failure.gone)
            out.raw("}")
        }
        out.raw(failures.isEmpty ? "]}\n" : "\n]}\n")
        return Data(out.bytes)
    }

    /// The deepest nesting an index may have: podarchive writes 5 levels (the index, its episodes, an entry, its
    /// companions, a companion); the rest is room for what a newer version or a hand edit adds.
    static let maximumDepth = 64
    /// The largest index (or journal) read: 512 MB, several times one of 100,000 episodes with companions.
    /// Anything larger is damage, refused before it is read into memory.
    static let maximumBytes: Int64 = 512 << 20

    /// An index past `maximumDepth` or `maximumBytes`: refused before any reader recurses into it or holds it.
    struct LimitExceeded: Error {
        /// Why, in words for the user ("nested deeper than any index").
        var reason: String
    }

    /// Reads an index of any version up to `ArchiveIndex.currentVersion` (version 1 indexes lack `failures` and `sha256`).
    /// - Throws: `LimitExceeded` for an index nested deeper or larger than any index; a `DecodingError` for
    ///   anything else that is not an index.
    public static func decode(_ data: Data) throws -> ArchiveIndex {
        guard data.count <= maximumBytes else { throw LimitExceeded(reason: tooLarge(Int64(data.count))) }
        // The hand-written reader takes what podarchive writes (and gives up past `maximumDepth`, before it
        // recurses); JSONDecoder judges anything else, unless it is nested deeper than any index.
        if let index = IndexReader.read(data, maximumDepth: maximumDepth) { return index }
        guard JSONDepth.maximum(of: data, limit: maximumDepth) <= maximumDepth else {
            throw LimitExceeded(reason: "nested deeper than any index: more than \(maximumDepth) levels")
        }
        return try JSONDecoder().decode(ArchiveIndex.self, from: data)
    }

    /// Why a file of `size` bytes is refused as an index or a journal.
    static func tooLarge(_ size: Int64) -> String {
        "\(size) bytes, larger than any index (\(maximumBytes >> 20) MB at most)"
    }
}
