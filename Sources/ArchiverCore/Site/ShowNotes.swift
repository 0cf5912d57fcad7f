// Show notes are hostile input: a publisher's HTML, copied into pages a browser opens from the archive. They go
// through an allow-list: a few text tags are kept (their attributes dropped, links only to http(s) and mailto),
// script-like elements are dropped with everything inside them, every other tag is dropped and its text kept,
// and the tags kept are balanced, so no note can close the page's own elements. Remote images are never
// loaded: each becomes a link. Every text is escaped.
import Foundation

/// Escapes text for HTML and XML.
public enum HTMLText {
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

/// Turns show notes (HTML or plain text) into HTML that is safe to put in a page.
public enum ShowNotes {
    /// Tags kept (with no attributes, but for a link's `href`); headings become `h4`, inside an episode's `h3`.
    static let kept: Set<String> = [
        "p", "br", "a", "em", "strong", "b", "i", "u", "s", "ul", "ol", "li", "blockquote", "code", "pre", "hr",
        "h1", "h2", "h3", "h4", "h5", "h6", "sup", "sub", "small", "dl", "dt", "dd",
    ]
    /// Elements dropped with everything inside them.
    static let droppedWhole: Set<String> = [
        "script", "style", "iframe", "object", "embed", "noscript", "template", "svg", "math", "select",
        "textarea", "button", "form", "title", "head", "frameset", "frame", "applet", "audio", "video", "canvas",
    ]
    static let void: Set<String> = ["br", "hr", "img", "wbr", "input", "meta", "link", "source", "area", "col"]

    /// Safe HTML for `notes`: plain text becomes paragraphs; HTML goes through the allow-list.
    public static func html(_ notes: String) -> String {
        let trimmed = notes.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return "" }
        guard looksLikeHTML(trimmed) else {
            return trimmed.components(separatedBy: "\n\n").map { paragraph in
                "<p>" + HTMLText.escape(paragraph).replacingOccurrences(of: "\n", with: "<br>") + "</p>"
            }.joined()
        }
        return sanitize(trimmed)
    }

    /// True when `text` has a tag in it (`<p>`, `</a>`, `<br/>`), not merely a `<`.
    static func looksLikeHTML(_ text: String) -> Bool {
        var previous: Character?
        for character in text {
            if previous == "<", character.isLetter || character == "/" || character == "!" { return true }
            previous = character
        }
        return false
    }

    private static func sanitize(_ html: String) -> String {
        var out = ""
        var open: [String] = []
        var skipping: String?
        var rest = Substring(html)
        while !rest.isEmpty {
            guard let lt = rest.firstIndex(of: "<") else {
                if skipping == nil { out += HTMLText.escape(HTMLText.decodeEntities(rest)) }
                break
            }
            if skipping == nil { out += HTMLText.escape(HTMLText.decodeEntities(rest[..<lt])) }
            let tag = rest[lt...]
            if tag.hasPrefix("<!--") {
                rest = tag.range(of: "-->").map { tag[$0.upperBound...] } ?? ""
                continue
            }
            guard let parsed = Tag(tag) else {
                if skipping == nil { out += "&lt;" }
                rest = tag.dropFirst()
                continue
            }
            rest = tag[parsed.end...]
            if let name = skipping {
                if parsed.closing, parsed.name == name { skipping = nil }
                continue
            }
            if droppedWhole.contains(parsed.name) {
                if !parsed.closing, !parsed.selfClosing { skipping = parsed.name }
                continue
            }
            out += render(parsed, open: &open)
        }
        for name in open.reversed() { out += "</\(name)>" }
        return out
    }

    /// The kept form of one tag, keeping `open` balanced.
    private static func render(_ tag: Tag, open: inout [String]) -> String {
        if tag.name == "img" {
            guard !tag.closing, let source = safeURL(tag.attributes["src"]), !source.hasPrefix("mailto:") else {
                return ""
            }
            let alt = tag.attributes["alt"].map { $0.isEmpty ? "image" : "image: \($0)" } ?? "image"
            return
                "<a href=\"\(HTMLText.escape(source))\" rel=\"noopener noreferrer nofollow\">[\(HTMLText.escape(alt))]</a>"
        }
        guard kept.contains(tag.name) else { return "" }
        let name = tag.name.count == 2 && tag.name.hasPrefix("h") && tag.name != "hr" ? "h4" : tag.name
        if tag.closing {
            guard let position = open.lastIndex(of: name) else { return "" }
            let closed = open[position...].reversed().map { "</\($0)>" }.joined()
            open.removeSubrange(position...)
            return closed
        }
        if void.contains(name) { return "<\(name)>" }
        // A link in a link is not allowed: the outer one ends first.
        var prefix = ""
        if name == "a", let position = open.lastIndex(of: "a") {
            prefix = open[position...].reversed().map { "</\($0)>" }.joined()
            open.removeSubrange(position...)
        }
        open.append(name)
        if name == "a" {
            guard let href = safeURL(tag.attributes["href"]) else { return prefix + "<a>" }
            return prefix + "<a href=\"\(HTMLText.escape(href))\" rel=\"noopener noreferrer nofollow\">"
        }
        return prefix + "<\(name)>"
    }

    /// `url` when it is an absolute http(s) or mailto URL (judged with white space and control characters
    /// removed, as browsers read `java\tscript:`); nil otherwise.
    static func safeURL(_ url: String?) -> String? {
        guard let url else { return nil }
        let compact = String(url.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F })
        let lower = compact.lowercased()
        guard lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("mailto:") else {
            return nil
        }
        return compact
    }
}

/// One tag as written: `<name attr="v" attr=v attr>`, `</name>`, `<name/>`.
private struct Tag {
    var name: String
    var closing: Bool
    var selfClosing = false
    var attributes: [String: String] = [:]
    /// Just past the tag's `>`.
    var end: Substring.Index

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
