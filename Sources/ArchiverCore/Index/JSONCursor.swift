// The JSON steps of `IndexReader`: whitespace, punctuation, strings with every escape, numbers, and skipping a
// value the index does not know. Each throws `Unexpected` on anything JSONDecoder would judge differently.
import Foundation

/// A place in JSON bytes, read one value at a time; gives up (`Unexpected`) on anything JSONDecoder would judge
/// differently, and past `maximumDepth` before it recurses any deeper.
struct JSONCursor {
    struct Unexpected: Error {}

    /// The bytes, and where the cursor is in them.
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    /// How many objects and arrays the cursor is inside: past `maximumDepth` it gives up before it recurses any
    /// deeper (150,000 levels under an unknown key overflowed the stack).
    var depth = 0
    let maximumDepth: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
        self.bytes = bytes
        self.maximumDepth = maximumDepth
    }

    /// Whether only whitespace is left.
    mutating func atEnd() -> Bool {
        skipSpace()
        return position == bytes.count
    }

    mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x09, 0x0A, 0x0D: position += 1
            default: return
            }
        }
    }

    mutating func expect(_ byte: UInt8) throws {
        skipSpace()
        guard position < bytes.count, bytes[position] == byte else { throw Unexpected() }
        position += 1
    }

    mutating func peek() -> UInt8? {
        skipSpace()
        return position < bytes.count ? bytes[position] : nil
    }

    /// Enters an object or an array: one level deeper, refused past the index's limit (before any recursion).
    private mutating func enter(_ bracket: UInt8) throws {
        try expect(bracket)
        guard depth < maximumDepth else { throw Unexpected() }
        depth += 1
    }

    /// Calls `member` for each key of an object, with the reader at the key's value.
    mutating func object(_ member: (inout JSONCursor, String) throws -> Void) throws {
        try enter(UInt8(ascii: "{"))
        defer { depth -= 1 }
        if peek() == UInt8(ascii: "}") {
            position += 1
            return
        }
        // A key given twice is valid JSON whose meaning readers disagree on (the first, or the last?): this reader
        // gives up and JSONDecoder's verdict stands. An object of the index has a dozen keys at most.
        var keys: [String] = []
        while true {
            let key = try string()
            guard !keys.contains(key) else { throw Unexpected() }
            keys.append(key)
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

    mutating func array<Element>(_ element: (inout JSONCursor) throws -> Element) throws -> [Element] {
        try enter(UInt8(ascii: "["))
        defer { depth -= 1 }
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

    mutating func nullOr<Value>(_ value: (inout JSONCursor) throws -> Value) throws -> Value? {
        if peek() == UInt8(ascii: "n") {
            try literal("null")
            return nil
        }
        return try value(&self)
    }

    mutating func optionalString() throws -> String? {
        try nullOr { try $0.string() }
    }

    mutating func literal(_ word: StaticString) throws {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw Unexpected() }
        for offset in 0..<count where bytes[position + offset] != word.utf8Start[offset] { throw Unexpected() }
        position += count
    }

    /// A whole number without fraction or exponent (which is all the index holds); anything else gives up.
    mutating func integer() throws -> Int64? {
        if peek() == UInt8(ascii: "n") {
            try literal("null")
            return nil
        }
        var negative = false
        // The document may end here (a truncated index): `peek` stopped at its end.
        guard position < bytes.count else { throw Unexpected() }
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

    mutating func string() throws -> String {
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

    func text(_ range: Range<Int>) throws -> String {
        try Self.validated(UnsafeBufferPointer(rebasing: bytes[range]))
    }

    /// The string the bytes spell, if they are valid UTF-8 (JSONDecoder refuses anything else too).
    static func validated(_ utf8: UnsafeBufferPointer<UInt8>) throws -> String {
        // ASCII (most of an index) is valid as it is; the validating initialiser is generic and, unspecialised,
        // looks up its type's metadata on every call.
        if utf8.allSatisfy({ $0 < 0x80 }) { return String(decoding: utf8, as: UTF8.self) }
        if #available(macOS 15, *) {
            guard let string = String(validating: utf8, as: UTF8.self) else { throw Unexpected() }
            return string
        }
        guard let string = String(bytes: utf8, encoding: .utf8) else { throw Unexpected() }
        return string
    }

    mutating func hex4() throws -> UInt32 {
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
    /// The next value's bytes, as they are: for a member the index reads with JSONDecoder.
    mutating func rawValue() throws -> Data {
        skipSpace()
        let start = position
        try skipValue()
        return Data(bytes[start..<position])
    }

    mutating func skipValue() throws {
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
