// JSON written by hand into one byte buffer: used where JSONEncoder is too slow for the size (the index and its
// journal lines; `list --json` prints 20,000 episodes).

/// Appends JSON tokens to a byte buffer; strings are escaped as JSON requires.
public struct JSONWriter: Sendable {
    /// The UTF-8 bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty writer.
    public init() {}

    /// The JSON written so far.
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// Appends `literal` as it is (punctuation, keys known to need no escaping, numbers).
    public mutating func raw(_ literal: String) {
        bytes.append(contentsOf: literal.utf8)
    }

    /// Appends a JSON string, or `null` for nil.
    public mutating func string(_ text: String?) {
        guard var value = text else { return raw("null") }
        bytes.append(UInt8(ascii: "\""))
        // Most strings need no escaping: copy them whole from their contiguous UTF-8. The lead bytes 0xC2, 0xD8 and
        // 0xE2 start C1 controls and bidi formatting characters (and other text, which the loop below copies).
        let copied = value.withUTF8 { utf8 -> Bool in
            guard
                !utf8.contains(where: {
                    $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 == 0x7F || $0 == 0xC2
                        || $0 == 0xD8 || $0 == 0xE2
                })
            else { return false }
            bytes.append(contentsOf: utf8)
            return true
        }
        if copied {
            bytes.append(UInt8(ascii: "\""))
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: raw("\\\"")
            case 0x5C: raw("\\\\")
            case 0x0A: raw("\\n")
            case 0x0D: raw("\\r")
            case 0x09: raw("\\t")
            // Controls (which JSON requires escaped) and, escaped too so that JSON printed to a terminal cannot
            // drive it or reorder a line, DEL, C1 controls and bidi formatting characters: the same text, inert.
            case _ where UnprintableText.contains(scalar):
                let hex = String(scalar.value, radix: 16)
                raw("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    /// Appends the start of an object member, `key`'s name: `{"name": ` for the object's first, else `, "name": `.
    mutating func member(_ key: some CodingKey, first: Bool = false) {
        bytes.append(contentsOf: first ? [UInt8(ascii: "{"), UInt8(ascii: "\"")] : [UInt8(ascii: ","), 0x20, 0x22])
        bytes.append(contentsOf: key.stringValue.utf8)
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":"), 0x20])
    }

    /// Appends a number, or `null` for nil.
    public mutating func number(_ value: Int64?) {
        raw(value.map { String($0) } ?? "null")
    }
}

/// The characters that drive a terminal or show a line in another order than its bytes: C0 controls but newline
/// and tab, DEL, C1 controls, and bidirectional formatting characters (U+061C, U+200E, U+200F, U+202A-U+202E,
/// U+2066-U+2069). What podarchive prints leaves them out; its JSON escapes them.
public enum UnprintableText {
    /// Whether `scalar` is one of them.
    public static func contains(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00...0x1F, 0x7F...0x9F, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}
