// The index on disk as bytes: written by hand (one episode a line), read by hand (`IndexReader`) with JSONDecoder
// judging what that reader does not expect, the limits that refuse a damaged or hostile index before it is read,
// and the check that refuses one whose files are not names inside the show's folder. The model is `ArchiveIndex`; where the file lives, `ArchiveLayout`; reading it with its journal applied,
// `IndexStore`.
import Foundation

/// How an index is written to and read from its file.
public enum IndexFormat {
    /// The index as JSON, one episode a line. Written by hand: it is written whole at every fold of the journal,
    /// and JSONEncoder took milliseconds per save at 1,000 entries.
    public static func encode(_ index: ArchiveIndex) -> Data {
        typealias Key = ArchiveIndex.CodingKeys
        var out = JSONWriter()
        out.member(Key.version, first: true)
        out.raw(String(index.writtenVersion))
        out.member(Key.feed)
        out.string(index.feed)
        out.member(Key.title)
        out.string(index.title)
        if let author = index.author {
            out.member(Key.author)
            out.string(author)
        }
        if index.keptApart {
            out.member(Key.keptApart)
            out.raw("true")
        }
        out.raw(",\n\"\(Key.episodes.stringValue)\": [")
        for (position, entry) in index.episodes.enumerated() {
            out.raw(position == 0 ? "\n  " : ",\n  ")
            write(entry, to: &out)
        }
        out.raw(index.episodes.isEmpty ? "],\n" : "\n],\n")
        out.raw("\"\(Key.failures.stringValue)\": [")
        for (position, failure) in index.failures.enumerated() {
            out.raw(position == 0 ? "\n  " : ",\n  ")
            write(failure, to: &out)
        }
        out.raw(index.failures.isEmpty ? "]}\n" : "\n]}\n")
        return Data(out.bytes)
    }

    /// One entry as an object on one line. Its keys are `ArchiveIndex.Entry.CodingKeys`; a key whose value is
    /// absent is left out only where an older index had no such key (`replacedBy`, `companions`, `removedUpstream`
    /// and `lastSeen`).
    private static func write(_ entry: ArchiveIndex.Entry, to out: inout JSONWriter) {
        typealias Key = ArchiveIndex.Entry.CodingKeys
        out.member(Key.key, first: true)
        out.string(entry.key)
        out.member(Key.guid)
        out.string(entry.guid)
        out.member(Key.title)
        out.string(entry.title)
        out.member(Key.url)
        out.string(entry.url)
        out.member(Key.file)
        out.string(entry.file)
        out.member(Key.size)
        out.number(entry.size)
        out.member(Key.sha256)
        out.string(entry.sha256)
        out.member(Key.published)
        out.string(entry.published)
        out.member(Key.archived)
        out.string(entry.archived)
        if let replacedBy = entry.replacedBy {
            out.member(Key.replacedBy)
            out.string(replacedBy)
        }
        if let companions = entry.companions, !companions.isEmpty {
            out.member(Key.companions)
            out.raw("[")
            for (number, companion) in companions.enumerated() {
                if number > 0 { out.raw(", ") }
                write(companion, to: &out)
            }
            out.raw("]")
        }
        if let removed = entry.removedUpstream {
            out.member(Key.removedUpstream)
            out.string(removed)
            out.member(Key.lastSeen)
            out.string(entry.lastSeen)
        }
        writePublisher(entry.publisher, to: &out)
        if let type = entry.contentType {
            out.member(Key.contentType)
            out.string(type)
        }
        if let away = entry.away {
            out.member(Key.away)
            out.raw(away.json)
        }
        out.raw("}")
    }

    /// The publisher's record, left out when there is none (an older index had no such key).
    private static func writePublisher(_ record: PublisherRecord?, to out: inout JSONWriter) {
        guard let record, !record.isEmpty else { return }
        out.member(ArchiveIndex.Entry.CodingKeys.publisher)
        out.raw(record.json)
    }

    private static func write(_ companion: CompanionFile, to out: inout JSONWriter) {
        typealias Key = CompanionFile.CodingKeys
        out.member(Key.kind, first: true)
        out.string(companion.kind)
        out.member(Key.file)
        out.string(companion.file)
        out.member(Key.url)
        out.string(companion.url)
        out.member(Key.type)
        out.string(companion.type)
        out.member(Key.language)
        out.string(companion.language)
        out.member(Key.size)
        out.number(companion.size)
        out.member(Key.sha256)
        out.string(companion.sha256)
        if let type = companion.contentType {
            out.member(Key.contentType)
            out.string(type)
        }
        out.raw("}")
    }

    private static func write(_ failure: ArchiveIndex.Failure, to out: inout JSONWriter) {
        typealias Key = ArchiveIndex.Failure.CodingKeys
        out.member(Key.key, first: true)
        out.string(failure.key)
        out.member(Key.guid)
        out.string(failure.guid)
        out.member(Key.title)
        out.string(failure.title)
        out.member(Key.url)
        out.string(failure.url)
        out.member(Key.type)
        out.string(failure.type)
        out.member(Key.published)
        out.string(failure.published)
        out.member(Key.reason)
        out.string(failure.reason)
        out.member(Key.failed)
        out.string(failure.failed)
        out.member(Key.status)
        out.number(failure.status.map(Int64.init))
        out.member(Key.missingSince)
        out.string(failure.missingSince)
        out.member(Key.missingRuns)
        out.number(failure.missingRuns.map(Int64.init))
        out.member(Key.gone)
        out.string(failure.gone)
        writePublisher(failure.publisher, to: &out)
        // Said only where there is something to say: most failures have neither.
        if let shortBody = failure.shortBody {
            out.member(Key.shortBody)
            out.number(shortBody)
        }
        if let notMedia = failure.notMedia {
            out.member(Key.notMedia)
            out.string(notMedia)
        }
        out.raw("}")
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

    /// Why an entry's file could not be used as it is: a path that is empty, absolute, climbs out (`..`) or names
    /// the state folder (see `isInside`). Nil
    /// when every file is fine. Such an index was not written by podarchive (names written by older versions,
    /// under other naming rules, stay valid: only what could leave the folder is refused).
    public static func unsafeFile(in index: ArchiveIndex) -> String? {
        for entry in index.episodes where !isInside(entry.file) {
            return "the file \"\(entry.file)\" of \"\(entry.title ?? entry.key)\" is not a name inside the folder"
        }
        for entry in index.episodes {
            for companion in entry.companions ?? [] where !isInside(companion.file) {
                return "the file \"\(companion.file)\" kept with \"\(entry.title ?? entry.key)\" is not a name inside "
                    + "the folder"
            }
        }
        return nil
    }

    /// A relative path of non-empty parts, none `.` or `..`, no NUL, and not in the show's state folder
    /// (`.podarchive/`, where the index, its journal, the history and the lock are: no episode is kept there, and
    /// a name there would let a forget or a repair delete them): read a byte at a time (it runs for every entry of
    /// every index read, 10,000 of them for a long show).
    static func isInside(_ path: String) -> Bool {
        let state = ArchiveLayout.stateFolderName.utf8
        if path.utf8.starts(with: state) {
            let rest = path.utf8.dropFirst(state.count)
            if rest.isEmpty || rest.first == UInt8(ascii: "/") { return false }
        }
        var part = 0  // bytes in the current part
        var dots = 0  // of which dots, while only dots
        for byte in path.utf8 {
            switch byte {
            case 0: return false
            case UInt8(ascii: "/"):
                if part == 0 || (part == dots && dots <= 2) { return false }
                part = 0
                dots = 0
            case UInt8(ascii: "."):
                if part == dots { dots += 1 }
                part += 1
            default:
                part += 1
            }
        }
        return part > 0 && !(part == dots && dots <= 2)
    }
}
