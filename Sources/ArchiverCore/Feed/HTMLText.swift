// HTML as text: escaping what podarchive writes into pages and feeds, decoding what publishers write (entities,
// tags with their attributes). Used by the show notes' allow-list and by feed discovery on a show's web page.
import Foundation

/// Escapes text for HTML and XML.
enum HTMLText {
    /// `text` safe inside an element or a double-quoted attribute: `& < > " '` escaped, control characters
    /// (other than tab and line breaks) dropped; with `attribute`, tab and line breaks written as character
    /// references, which an attribute value keeps (an XML reader turns them into spaces otherwise).
    public static func escape(_ text: String, attribute: Bool = false) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "\t", "\n", "\r":
                if attribute { out += "&#\(scalar.value);" } else { out.unicodeScalars.append(scalar) }
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar.value == 0xFFFE
                    || scalar.value == 0xFFFF
                {
                    continue
                }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// `&amp;`, `&eacute;`, `&#233;`, `&#xE9;` decoded; anything else left as written.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var out = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semicolon = after.prefix(32).firstIndex(of: ";") else {
                out += "&"
                rest = after
                continue
            }
            let name = after[..<semicolon]
            var scalar: Unicode.Scalar?
            if name.hasPrefix("#x") || name.hasPrefix("#X") {
                scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
            } else if name.hasPrefix("#") {
                scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
            } else {
                scalar = HTMLEntities.codePoints[String(name)].flatMap(Unicode.Scalar.init)
            }
            if let scalar, scalar.value != 0 {
                out.unicodeScalars.append(scalar)
                rest = after[after.index(after: semicolon)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }
}

/// One tag as written: `<name attr="v" attr=v attr>`, `</name>`, `<name/>`.
struct HTMLTag {
    var name: String
    var closing: Bool
    var selfClosing = false
    var attributes: [String: String] = [:]
    /// Just past the tag's `>`.
    var end: Substring.Index

    /// Whether `text` starts like a tag (`<` and a letter, or `</` and a letter): when such a text is no
    /// `HTMLTag`, its `>` or a quote is missing, and the tag runs to the end of the text (as browsers read it).
    /// Readers stop there: trying again at each later `<` would read the rest once per `<`.
    static func startsTag(_ text: Substring) -> Bool {
        var characters = text.dropFirst().prefix(2).makeIterator()
        guard var next = characters.next() else { return false }
        if next == "/", let after = characters.next() { next = after }
        return next.isLetter
    }

    init?(_ text: Substring) {
        var position = text.index(after: text.startIndex)
        closing = position < text.endIndex && text[position] == "/"
        if closing { position = text.index(after: position) }
        let nameStart = position
        while position < text.endIndex, text[position].isLetter || text[position].isNumber {
            position = text.index(after: position)
        }
        guard position > nameStart, text[nameStart].isLetter else { return nil }
        name = text[nameStart..<position].lowercased()
        // Attributes, up to the `>` that is outside quotes.
        while position < text.endIndex {
            let character = text[position]
            if character == ">" {
                end = text.index(after: position)
                return
            }
            if character == "/" {
                selfClosing = true
                position = text.index(after: position)
                continue
            }
            if character.isWhitespace {
                position = text.index(after: position)
                continue
            }
            let attributeStart = position
            while position < text.endIndex, !text[position].isWhitespace, !"=>/".contains(text[position]) {
                position = text.index(after: position)
            }
            let attribute = text[attributeStart..<position].lowercased()
            var value = ""
            if position < text.endIndex, text[position] == "=" {
                position = text.index(after: position)
                if position < text.endIndex, text[position] == "\"" || text[position] == "'" {
                    let quote = text[position]
                    let valueStart = text.index(after: position)
                    guard let close = text[valueStart...].firstIndex(of: quote) else { return nil }
                    value = String(text[valueStart..<close])
                    position = text.index(after: close)
                } else {
                    let valueStart = position
                    while position < text.endIndex, !text[position].isWhitespace, text[position] != ">" {
                        position = text.index(after: position)
                    }
                    value = String(text[valueStart..<position])
                }
            }
            if !attribute.isEmpty, attributes[attribute] == nil {
                attributes[attribute] = HTMLText.decodeEntities(Substring(value))
            }
            selfClosing = false
        }
        return nil
    }
}
