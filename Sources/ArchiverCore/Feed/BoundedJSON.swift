// A JSON document a feed supplies is read with its limits applied while it is read, a chunk at a time: no tree of
// Foundation objects is built, so a 19 MB chapters document of a million entries costs a few kilobytes instead
// of gigabytes, and a million `[` cost a counter instead of a recursive parser's stack. Grammar, UTF-8, size,
// entries, depth and string length are all checked in one pass; a consumer sees the values as events.
import Foundation

/// The limits a document is read within.
struct JSONLimits: Sendable, Equatable {
    /// Bytes in the whole document.
    var bytes: Int
    /// Values (objects, arrays, strings, numbers, literals) in the whole document.
    var entries: Int
    /// Objects and arrays open at once.
    var depth: Int
    /// Bytes in one string or number, as written.
    var stringBytes: Int
    /// Objects opened at the first two levels: the items of a feed (a JSON array's elements, or a JSON Feed's
    /// `items`), each of which becomes an episode held in memory.
    var items = Int.max

    /// What a chapters document may hold: 20 MB, 200,000 values, 32 levels, 64 KB strings.
    static let chapters = JSONLimits(bytes: 20 << 20, entries: 200_000, depth: 32, stringBytes: 64 << 10)
    /// What a JSON feed may hold, checked before it is decoded: its size is the download's cap (`FeedLimits`),
    /// 5,000,000 values (a 20,000-episode feed holds about 600,000), 64 levels, 16 MB strings (show notes).
    /// At most 100,000 items, as an XML feed (`XMLLimits.feed`): 2.4 million `{"url"}` objects were under the other
    /// limits and took 2.8 GB to plan.
    static let feed = JSONLimits(bytes: .max, entries: 5_000_000, depth: 64, stringBytes: 16 << 20, items: 100_000)
}

/// One thing a `BoundedJSON` reader found, in document order.
enum JSONEvent: Equatable {
    case beginObject, endObject, beginArray, endArray
    /// An object's member name.
    case key(String)
    case string(String)
    /// A number as written (validated against JSON's grammar).
    case number(String)
    case bool(Bool)
    case null
}

/// Why a document was refused: one line, naming the limit or the fault.
struct JSONRefusal: Error, Equatable, CustomStringConvertible {
    var description: String
}

/// A streaming JSON reader: `read(_:)` each chunk as it comes, then `finish()`. The first fault or limit passed
/// throws a `JSONRefusal` and the reader stays refused.
struct BoundedJSON {
    private enum Container { case object, array }
    private enum Expect { case value, valueOrEnd, keyOrEnd, key, colon, commaOrEnd, nothing }
    private enum Token {
        case none, number
        case string(isKey: Bool)
        case literal(expected: [UInt8], index: Int)
    }

    let limits: JSONLimits
    private var stack: [Container] = []
    private var expect = Expect.value
    private var token = Token.none
    private var buffer: [UInt8] = []
    private var bytesRead = 0
    private var entries = 0
    private var items = 0
    private var escape = 0  // 0: none; 1: after `\`; 2...5: reading \u hex digits
    private var utf8Left = 0
    private var utf8Low: UInt8 = 0x80
    private var utf8High: UInt8 = 0xBF
    private var pendingHigh: UInt16?
    private var hex: UInt16 = 0
    private var byteOrderMark = 0

    init(limits: JSONLimits) { self.limits = limits }

    /// Reads the next chunk, passing each complete value to `event`.
    mutating func read(_ chunk: some Sequence<UInt8>, _ event: (JSONEvent) throws -> Void) throws {
        for byte in chunk {
            bytesRead += 1
            guard bytesRead <= limits.bytes else { throw refusal("it is larger than \(limits.bytes) bytes") }
            // A UTF-8 byte-order mark before the document is skipped, as JSONDecoder skips it.
            if bytesRead <= 3, byteOrderMark == bytesRead - 1, byte == [0xEF, 0xBB, 0xBF][byteOrderMark] {
                byteOrderMark += 1
                continue
            }
            try step(byte, event)
        }
    }

    /// Why `data` is past `limits` or no JSON document, or nil: read in one pass, nothing built.
    static func refusal(of data: Data, limits: JSONLimits) -> String? {
        var reader = BoundedJSON(limits: limits)
        do {
            try reader.read(data) { _ in }
            try reader.finish { _ in }
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// The document has ended: refused unless it was one whole value.
    mutating func finish(_ event: (JSONEvent) throws -> Void) throws {
        if case .number = token { try endNumber(event) }
        guard case .none = token, expect == .nothing else {
            throw refusal("it is not a whole JSON document (truncated?)")
        }
    }

    private func refusal(_ text: String) -> JSONRefusal { JSONRefusal(description: text) }

    private mutating func step(_ byte: UInt8, _ event: (JSONEvent) throws -> Void) throws {
        switch token {
        case .string(let isKey): return try stringByte(byte, isKey: isKey, event)
        case .literal(let expected, let index):
            guard byte == expected[index] else { throw refusal("it is not valid JSON (at byte \(bytesRead))") }
            if index + 1 < expected.count {
                token = .literal(expected: expected, index: index + 1)
            } else {
                token = .none
                try event(expected[0] == UInt8(ascii: "n") ? .null : .bool(expected[0] == UInt8(ascii: "t")))
                valueEnded()
            }
            return
        case .number:
            if Self.isNumberByte(byte) {
                return try append(byte)
            }
            try endNumber(event)
        case .none: break
        }
        try structural(byte, event)
    }

    private mutating func structural(_ byte: UInt8, _ event: (JSONEvent) throws -> Void) throws {
        switch byte {
        case 0x20, 0x09, 0x0A, 0x0D: return
        case UInt8(ascii: "\""):
            if expect == .key || expect == .keyOrEnd {
                token = .string(isKey: true)
                return
            }
            try beginValue()
            token = .string(isKey: false)
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            try beginValue()
            guard stack.count < limits.depth else { throw refusal("it nests deeper than \(limits.depth) levels") }
            let object = byte == UInt8(ascii: "{")
            if object, stack.count == 1 || stack.count == 2 {
                items += 1
                guard items <= limits.items else { throw refusal("it holds more than \(limits.items) items") }
            }
            stack.append(object ? .object : .array)
            expect = object ? .keyOrEnd : .valueOrEnd
            try event(object ? .beginObject : .beginArray)
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            let object = byte == UInt8(ascii: "}")
            guard stack.last == (object ? .object : .array),
                expect == .commaOrEnd || expect == (object ? .keyOrEnd : .valueOrEnd)
            else { throw invalid() }
            stack.removeLast()
            try event(object ? .endObject : .endArray)
            valueEnded()
        case UInt8(ascii: ":"):
            guard expect == .colon else { throw invalid() }
            expect = .value
        case UInt8(ascii: ","):
            guard expect == .commaOrEnd, let last = stack.last else { throw invalid() }
            expect = last == .object ? .key : .value
        case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
            try beginValue()
            let word = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
            token = .literal(expected: Array(word.utf8), index: 1)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            try beginValue()
            token = .number
            try append(byte)
        default: throw invalid()
        }
    }

    private func invalid() -> JSONRefusal { refusal("it is not valid JSON (at byte \(bytesRead))") }

    /// A value starts where one may: counted against the entries limit.
    private mutating func beginValue() throws {
        guard expect == .value || expect == .valueOrEnd else { throw invalid() }
        entries += 1
        guard entries <= limits.entries else { throw refusal("it holds more than \(limits.entries) entries") }
    }

    /// A value is complete: what may follow depends on what holds it.
    private mutating func valueEnded() {
        expect = stack.isEmpty ? .nothing : .commaOrEnd
    }

    private mutating func append(_ byte: UInt8) throws {
        guard buffer.count < limits.stringBytes else {
            throw refusal("it has a string or number longer than \(limits.stringBytes) bytes")
        }
        buffer.append(byte)
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            return true
        default: return false
        }
    }

    private mutating func endNumber(_ event: (JSONEvent) throws -> Void) throws {
        let text = String(decoding: buffer, as: UTF8.self)
        buffer.removeAll(keepingCapacity: true)
        token = .none
        guard Self.isJSONNumber(text) else { throw refusal("it has an invalid number (\(text.prefix(40)))") }
        try event(.number(text))
        valueEnded()
    }

    /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        if bytes.first == UInt8(ascii: "0") {
            bytes = bytes.dropFirst()
        } else if digits() == 0 {
            return false
        }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}

// MARK: - Strings

extension BoundedJSON {
    /// One byte inside a string: escapes undone, UTF-8 checked, control characters refused.
    private mutating func stringByte(_ byte: UInt8, isKey: Bool, _ event: (JSONEvent) throws -> Void) throws {
        if utf8Left > 0 {
            guard byte >= utf8Low, byte <= utf8High else { throw badUTF8() }
            (utf8Low, utf8High) = (0x80, 0xBF)
            utf8Left -= 1
            return try append(byte)
        }
        if escape > 0 { return try escaped(byte) }
        if pendingHigh != nil, byte != UInt8(ascii: "\\") { try appendScalar(0xFFFD) }
        switch byte {
        case UInt8(ascii: "\""):
            let text = String(decoding: buffer, as: UTF8.self)
            buffer.removeAll(keepingCapacity: true)
            token = .none
            if isKey {
                expect = .colon
                try event(.key(text))
            } else {
                try event(.string(text))
                valueEnded()
            }
        case UInt8(ascii: "\\"): escape = 1
        case 0x00..<0x20: throw refusal("it has a control character in a string (at byte \(bytesRead))")
        case 0x20..<0x80: try append(byte)
        case 0xC2...0xDF: try lead(byte, following: 1)
        case 0xE0: try lead(byte, following: 2, low: 0xA0)
        case 0xED: try lead(byte, following: 2, high: 0x9F)
        case 0xE1...0xEF: try lead(byte, following: 2)
        case 0xF0: try lead(byte, following: 3, low: 0x90)
        case 0xF4: try lead(byte, following: 3, high: 0x8F)
        case 0xF1...0xF3: try lead(byte, following: 3)
        default: throw badUTF8()
        }
    }

    private func badUTF8() -> JSONRefusal { refusal("it is not valid UTF-8 (at byte \(bytesRead))") }

    /// A multi-byte sequence begins; `low`...`high` bound its second byte (no overlong forms, no surrogates).
    private mutating func lead(_ byte: UInt8, following: Int, low: UInt8 = 0x80, high: UInt8 = 0xBF) throws {
        try append(byte)
        utf8Left = following
        (utf8Low, utf8High) = (low, high)
    }

    /// A byte after `\`, or one of the four hex digits of `\u`.
    private mutating func escaped(_ byte: UInt8) throws {
        if escape >= 2 {
            guard let digit = Self.hexValue(byte) else { throw invalid() }
            hex = hex << 4 | UInt16(digit)
            escape += 1
            guard escape == 6 else { return }
            escape = 0
            return try unit(hex)
        }
        escape = 0
        let plain: UInt8
        switch byte {
        case UInt8(ascii: "u"):
            (escape, hex) = (2, 0)
            return
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): plain = byte
        case UInt8(ascii: "b"): plain = 0x08
        case UInt8(ascii: "f"): plain = 0x0C
        case UInt8(ascii: "n"): plain = 0x0A
        case UInt8(ascii: "r"): plain = 0x0D
        case UInt8(ascii: "t"): plain = 0x09
        default: throw invalid()
        }
        if pendingHigh != nil { try appendScalar(0xFFFD) }
        try append(plain)
    }

    /// One UTF-16 unit from `\uXXXX`: a surrogate pair joined, a lone surrogate replaced by U+FFFD.
    private mutating func unit(_ value: UInt16) throws {
        if let high = pendingHigh {
            pendingHigh = nil
            if (0xDC00...0xDFFF).contains(value) {
                return try appendScalar(0x10000 + (UInt32(high - 0xD800) << 10) + UInt32(value - 0xDC00))
            }
            try appendScalar(0xFFFD)
        }
        switch value {
        case 0xD800...0xDBFF: pendingHigh = value
        case 0xDC00...0xDFFF: try appendScalar(0xFFFD)
        default: try appendScalar(UInt32(value))
        }
    }

    private mutating func appendScalar(_ value: UInt32) throws {
        pendingHigh = nil
        for byte in String(Character(Unicode.Scalar(value) ?? "\u{FFFD}")).utf8 { try append(byte) }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
