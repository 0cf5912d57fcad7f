// The index read by hand: JSONDecoder took about 48,000 instructions an entry (generic metadata lookups, a
// container per object), a third of a nightly run over a 10,000-episode archive. This reads the JSON the index
// is (any valid JSON: whitespace, key order, escapes, unknown keys) straight from the bytes. Anything it does not
// expect makes it give up, and `ArchiveIndex.decode` then asks JSONDecoder, whose verdict stands.
import Foundation

struct IndexReader {
    struct Unexpected: Error {}

    private let bytes: UnsafeBufferPointer<UInt8>
    private var position = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The index in `data`, or nil when it is not exactly what podarchive writes (JSONDecoder decides then).
    static func read(_ data: Data) -> ArchiveIndex? {
        data.withUnsafeBytes { raw in
            var reader = IndexReader(raw.bindMemory(to: UInt8.self))
            return try? reader.index()
        }
    }

    // MARK: - The index's shape

    private mutating func index() throws -> ArchiveIndex {
        var version: Int?
        var feed: String?
        var title: String?
        var episodes: [ArchiveIndex.Entry]?
        var failures: [ArchiveIndex.Failure] = []
        try object { reader, key in
            switch key {
            case "version": version = try reader.integer().flatMap { Int(exactly: $0) }
            case "feed": feed = try reader.string()
            case "title": title = try reader.optionalString()
            case "episodes": episodes = try reader.array { try $0.entry() }
            case "failures": failures = try reader.nullOr { try $0.array { try $0.failure() } } ?? []
            default: try reader.skipValue()
            }
        }
        skipSpace()
        guard position == bytes.count, let version, let feed, let episodes else { throw Unexpected() }
        var index = ArchiveIndex(
            feed: feed, title: title,
            episodes: episodes.map { entry in
                // Version 1 recorded the GUID only as the key.
                var entry = entry
                if entry.guid == nil, entry.key != entry.url { entry.guid = entry.key }
                return entry
            }, failures: failures)
        index.version = version
        return index
    }

    private mutating func entry() throws -> ArchiveIndex.Entry {
        var key: String?
        var guid: String?
        var title: String?
        var url: String?
        var file: String?
        var size: Int64?
        var sha256: String?
        var published: String?
        var archived: String?
        var replacedBy: String?
        try object { reader, name in
            switch name {
            case "key": key = try reader.string()
            case "guid": guid = try reader.optionalString()
            case "title": title = try reader.optionalString()
            case "url": url = try reader.string()
            case "file": file = try reader.string()
            case "size": size = try reader.integer()
            case "sha256": sha256 = try reader.optionalString()
            case "published": published = try reader.optionalString()
            case "archived": archived = try reader.string()
            case "replacedBy": replacedBy = try reader.optionalString()
            default: try reader.skipValue()
            }
        }
        guard let key, let url, let file, let size, let archived else { throw Unexpected() }
        var entry = ArchiveIndex.Entry(
            key: key, guid: guid, title: title, url: url, file: file, size: size, sha256: sha256, published: published,
            archived: archived)
        entry.replacedBy = replacedBy
        return entry
    }

    private mutating func failure() throws -> ArchiveIndex.Failure {
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
        try object { reader, name in
            switch name {
            case "key": key = try reader.string()
            case "guid": guid = try reader.optionalString()
            case "title": title = try reader.optionalString()
            case "url": url = try reader.string()
            case "type": type = try reader.optionalString()
            case "published": published = try reader.optionalString()
            case "reason": reason = try reader.string()
            case "failed": failed = try reader.string()
            case "status": status = try reader.integer()
            case "missingSince": missingSince = try reader.optionalString()
            case "missingRuns": missingRuns = try reader.integer()
            case "gone": gone = try reader.optionalString()
            default: try reader.skipValue()
            }
        }
        guard let key, let url, let reason, let failed else { throw Unexpected() }
        var failure = ArchiveIndex.Failure(
            episode: Episode(title: title, guid: guid, url: url), reason: reason, failed: failed)
        failure.key = key
        failure.type = type
        failure.published = published
        guard let status = Self.int(status), let missingRuns = Self.int(missingRuns) else { throw Unexpected() }
        failure.status = status
        failure.missingSince = missingSince
        failure.missingRuns = missingRuns
        failure.gone = gone
        return failure
    }

    /// An Int from a JSON integer (nil stays nil); .none when it does not fit, so the caller gives up.
    private static func int(_ value: Int64?) -> Int?? {
        guard let value else { return .some(nil) }
        guard let fitting = Int(exactly: value) else { return .none }
        return .some(fitting)
    }

    // MARK: - JSON

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    private mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else { throw Unexpected() }
        position += 1
    }

    private mutating func peek() -> UInt8? {
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Calls `member` for each key of an object, with the reader at the key's value.
    private mutating func object(_ member: (inout IndexReader, String) throws -> Void) throws {
        try expect(UInt8(ascii: "{"))
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            let key = try string()
            try expect(UInt8(ascii: ":"))
            try member(&self, key)
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default: throw Unexpected()
            }
        }
    }

    private mutating func array<Element>(_ element: (inout IndexReader) throws -> Element) throws -> [Element] {
        try expect(UInt8(ascii: "["))
        var elements: [Element] = []
        if peek() == UInt8(ascii: "]") {
            position += 1
            return elements
        }
        while true {
            elements.append(try element(&self))
            switch peek() {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return elements
            default: throw Unexpected()
            }
        }
    }

    private mutating func nullOr<Value>(_ value: (inout IndexReader) throws -> Value) throws -> Value? {
        if peek() == UInt8(ascii: "n") {
            try literal("null")
            return nil
        }
        return try value(&self)
    }

    private mutating func optionalString() throws -> String? {
        try nullOr { try $0.string() }
    }

    private mutating func literal(_ word: StaticString) throws {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw Unexpected() }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { throw Unexpected() }
        position += count
    }

    /// A whole number without fraction or exponent (which is all the index holds); anything else gives up.
    private mutating func integer() throws -> Int64? {
        if peek() == UInt8(ascii: "n") {
            try literal("null")
            return nil
        }
        var negative = false
        if bytes[position] == UInt8(ascii: "-") {
            negative = true
            position += 1
        }
        var value: Int64 = 0
        var digits = 0
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) {
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(Int64(bytes[position] - 0x30))
            guard !overflow1, !overflow2 else { throw Unexpected() }
            value = sum
            digits += 1
            position += 1
        }
        guard digits > 0 else { throw Unexpected() }
        if position < bytes.count, [UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(bytes[position]) {
            throw Unexpected()
        }
        return negative ? -value : value
    }

    private mutating func string() throws -> String {
        try expect(UInt8(ascii: "\""))
        let start = position
        // Most strings have no escapes: take their bytes whole.
        while position < bytes.count {
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                defer { position += 1 }
                return try text(start..<position)
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw Unexpected() }
            position += 1
        }
        var scalars = Array(bytes[start..<position])
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "\""):
                return try scalars.withUnsafeBufferPointer { try Self.validated($0) }
            case UInt8(ascii: "\\"):
                guard position < bytes.count else { throw Unexpected() }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): scalars.append(escape)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800..<0xDC00).contains(code) {
                        try literal("\\u")
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw Unexpected() }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw Unexpected() }
                    scalars.append(contentsOf: Array(String(scalar).utf8))
                default: throw Unexpected()
                }
            default:
                guard byte >= 0x20 else { throw Unexpected() }
                scalars.append(byte)
            }
        }
        throw Unexpected()
    }

    private func text(_ range: Range<Int>) throws -> String {
        try Self.validated(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// The string the bytes spell, if they are valid UTF-8 (JSONDecoder refuses anything else too).
    private static func validated(_ utf8: UnsafeBufferPointer<UInt8>) throws -> String {
        if #available(macOS 15, *) {
            guard let string = String(validating: utf8, as: UTF8.self) else { throw Unexpected() }
            return string
        }
        guard let string = String(bytes: utf8, encoding: .utf8) else { throw Unexpected() }
        return string
    }

    private mutating func hex4() throws -> UInt32 {
        guard position + 4 <= bytes.count else { throw Unexpected() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            position += 1
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = value << 4 | UInt32(byte - 0x30)
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = value << 4 | UInt32(byte - 0x57)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value = value << 4 | UInt32(byte - 0x37)
            default: throw Unexpected()
            }
        }
        return value
    }

    /// Skips a value of a key the index does not know (a newer podarchive's, or a hand edit).
    private mutating func skipValue() throws {
        switch peek() {
        case UInt8(ascii: "{"): try object { reader, _ in try reader.skipValue() }
        case UInt8(ascii: "["): _ = try array { try $0.skipValue() }
        case UInt8(ascii: "\""): _ = try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        default:
            // A number of any form.
            let start = position
            while position < bytes.count,
                "+-.0123456789eE".utf8.contains(bytes[position])
            {
                position += 1
            }
            guard position > start else { throw Unexpected() }
        }
    }
}
