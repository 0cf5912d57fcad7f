// The index read by hand: JSONDecoder took about 48,000 instructions an entry (generic metadata lookups, a
// container per object), a third of a nightly run over a 10,000-episode archive. This reads the JSON the index
// is (any valid JSON: whitespace, key order, escapes, unknown keys) straight from the bytes. Anything it does not
// expect makes it give up, and `IndexFormat.decode` then asks JSONDecoder, whose verdict stands.
import Foundation

/// The index's shape (its objects and their keys) read through a `JSONCursor`.
enum IndexReader {
    /// The index in `data`, or nil when it is not exactly what podarchive writes (JSONDecoder decides then), or
    /// nests deeper than `maximumDepth`.
    static func read(_ data: Data, maximumDepth: Int) -> ArchiveIndex? {
        data.withUnsafeBytes { raw in
            var reader = JSONCursor(raw.bindMemory(to: UInt8.self), maximumDepth: maximumDepth)
            return try? index(&reader)
        }
    }

    // MARK: - The index's shape

    private static func index(_ reader: inout JSONCursor) throws -> ArchiveIndex {
        var version: Int?
        var feed: String?
        var title: String?
        var author: String?
        var episodes: [ArchiveIndex.Entry]?
        var failures: [ArchiveIndex.Failure] = []
        var keptApart = false
        try reader.object { reader, key in
            switch ArchiveIndex.CodingKeys(rawValue: key) {
            case .version?: version = try reader.integer().flatMap { Int(exactly: $0) }
            case .feed?: feed = try reader.string()
            case .title?: title = try reader.optionalString()
            case .author?: author = try reader.optionalString()
            case .keptApart?:
                keptApart = reader.peek() == UInt8(ascii: "t")
                try reader.literal(keptApart ? "true" : "false")
            case .episodes?: episodes = try reader.array { try entry(&$0) }
            case .failures?: failures = try reader.nullOr { try $0.array { try failure(&$0) } } ?? []
            case nil: try reader.skipValue()
            }
        }
        guard reader.atEnd(), let version, let feed, let episodes else { throw JSONCursor.Unexpected() }
        var index = ArchiveIndex(
            feed: feed, title: title,
            episodes: episodes.map { entry in
                // Version 1 recorded the GUID only as the key.
                var entry = entry
                if entry.guid == nil, entry.key != entry.url, !ArchiveIdentity.isKeyedHash(entry.key) {
                    entry.guid = entry.key
                }
                return entry
            }, failures: failures)
        index.version = version
        index.author = author
        index.keptApart = keptApart
        return index
    }

    private static func entry(_ reader: inout JSONCursor) throws -> ArchiveIndex.Entry {
        // The optional members go straight into the entry; the required ones are checked once read.
        var entry = ArchiveIndex.Entry(key: "", title: nil, url: "", file: "", size: 0, published: nil, archived: "")
        var key: String?
        var url: String?
        var file: String?
        var size: Int64?
        var archived: String?
        try reader.object { reader, name in
            switch ArchiveIndex.Entry.CodingKeys(rawValue: name) {
            case .key?: key = try reader.string()
            case .guid?: entry.guid = try reader.optionalString()
            case .title?: entry.title = try reader.optionalString()
            case .url?: url = try reader.string()
            case .file?: file = try reader.string()
            case .size?: size = try reader.integer()
            case .sha256?: entry.sha256 = try reader.optionalString()
            case .published?: entry.published = try reader.optionalString()
            case .archived?: archived = try reader.string()
            case .replacedBy?: entry.replacedBy = try reader.optionalString()
            case .removedUpstream?: entry.removedUpstream = try reader.optionalString()
            case .lastSeen?: entry.lastSeen = try reader.optionalString()
            case .companions?: entry.companions = try reader.nullOr { try $0.array { try companion(&$0) } }
            case .publisher?: entry.publisher = try PublisherRecord.decode(reader.rawValue())
            case .contentType?: entry.contentType = try reader.optionalString()
            case .away?: entry.away = try AwayRecord.decode(reader.rawValue())
            case nil: try reader.skipValue()
            }
        }
        guard let key, let url, let file, let size, let archived else { throw JSONCursor.Unexpected() }
        (entry.key, entry.url, entry.file, entry.size, entry.archived) = (key, url, file, size, archived)
        return entry
    }

    private static func companion(_ reader: inout JSONCursor) throws -> CompanionFile {
        var kind: String?
        var file: String?
        var url: String?
        var type: String?
        var language: String?
        var size: Int64?
        var sha256: String?
        var contentType: String?
        try reader.object { reader, name in
            switch CompanionFile.CodingKeys(rawValue: name) {
            case .kind?: kind = try reader.string()
            case .file?: file = try reader.string()
            case .url?: url = try reader.optionalString()
            case .type?: type = try reader.optionalString()
            case .language?: language = try reader.optionalString()
            case .size?: size = try reader.integer()
            case .sha256?: sha256 = try reader.string()
            case .contentType?: contentType = try reader.optionalString()
            case nil: try reader.skipValue()
            }
        }
        guard let kind, let file, let size, let sha256 else { throw JSONCursor.Unexpected() }
        return CompanionFile(
            kind: kind, file: file, url: url, type: type, language: language, size: size, sha256: sha256,
            contentType: contentType)
    }

    private static func failure(_ reader: inout JSONCursor) throws -> ArchiveIndex.Failure {
        var key: String?
        var guid: String?
        var title: String?
        var url: String?
        var type: String?
        var published: String?
        var reason: String?
        var failed: String?
        var status: Int64?
        var missingSince: String?
        var missingRuns: Int64?
        var gone: String?
        var publisher: PublisherRecord?
        var shortBody: Int64?
        var notMedia: String?
        try reader.object { reader, name in
            switch ArchiveIndex.Failure.CodingKeys(rawValue: name) {
            case .key?: key = try reader.string()
            case .guid?: guid = try reader.optionalString()
            case .title?: title = try reader.optionalString()
            case .url?: url = try reader.string()
            case .type?: type = try reader.optionalString()
            case .published?: published = try reader.optionalString()
            case .reason?: reason = try reader.string()
            case .failed?: failed = try reader.string()
            case .status?: status = try reader.integer()
            case .missingSince?: missingSince = try reader.optionalString()
            case .missingRuns?: missingRuns = try reader.integer()
            case .gone?: gone = try reader.optionalString()
            case .publisher?: publisher = try PublisherRecord.decode(reader.rawValue())
            case .shortBody?: shortBody = try reader.integer()
            case .notMedia?: notMedia = try reader.optionalString()
            case nil: try reader.skipValue()
            }
        }
        guard let key, let url, let reason, let failed else { throw JSONCursor.Unexpected() }
        var failure = ArchiveIndex.Failure(
            episode: Episode(title: title, guid: guid, url: url), reason: reason, failed: failed)
        failure.key = key
        failure.type = type
        failure.published = published
        guard let status = Self.int(status), let missingRuns = Self.int(missingRuns) else {
            throw JSONCursor.Unexpected()
        }
        failure.status = status
        failure.missingSince = missingSince
        failure.missingRuns = missingRuns
        failure.gone = gone
        failure.publisher = publisher
        failure.shortBody = shortBody
        failure.notMedia = notMedia
        return failure
    }

    /// An Int from a JSON integer (nil stays nil); .none when it does not fit, so the caller gives up.
    private static func int(_ value: Int64?) -> Int?? {
        guard let value else { return .some(nil) }
        guard let fitting = Int(exactly: value) else { return .none }
        return .some(fitting)
    }
}
