// The ASCII bytes the XML tokenizer, the feed readers and the index reader look for.

/// The ASCII bytes the tokenizer and the readers look for.
enum Ascii {
    static let lessThan = UInt8(ascii: "<")
    static let greaterThan = UInt8(ascii: ">")
    static let slash = UInt8(ascii: "/")
    static let question = UInt8(ascii: "?")
    static let bang = UInt8(ascii: "!")
    static let doubleQuote = UInt8(ascii: "\"")
    static let singleQuote = UInt8(ascii: "'")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let ampersand = UInt8(ascii: "&")
    static let semicolon = UInt8(ascii: ";")
    static let equals = UInt8(ascii: "=")
    static let colon = UInt8(ascii: ":")
    static let hash = UInt8(ascii: "#")
    static let piEnd = Array("?>".utf8)
    static let commentStart = Array("<!--".utf8)
    static let commentEnd = Array("-->".utf8)
    static let cdataStart = Array("<![CDATA[".utf8)
    static let cdataEnd = Array("]]>".utf8)

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    static func isNameStart(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F || byte == Ascii.colon
            || byte >= 0x80
    }

    static func endsName(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == greaterThan || byte == slash
    }
}
