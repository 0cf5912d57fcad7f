// Show notes are hostile input: a publisher's HTML, copied into pages a browser opens from the archive. They go
// through an allow-list: a few text tags are kept (their attributes dropped, links only to http(s) and mailto),
// script-like elements are dropped with everything inside them, every other tag is dropped and its text kept,
// and the tags kept are balanced, so no note can close the page's own elements. Remote images are never
// loaded: each becomes a link. Every text is escaped.
import Foundation

/// Turns show notes (HTML or plain text) into HTML that is safe to put in a page.
enum ShowNotes {
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
    /// Kept tags open at once: real notes nest a few deep; past this, an opening tag is dropped (its text kept),
    /// so neither the page nor the search of a closing tag's match grows with what a hostile note nests.
    static let maximumOpen = 64

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
            guard let parsed = HTMLTag(tag) else {
                // A tag left open runs to the end: shown as text, read once (not again from each later `<`).
                let unterminated = HTMLTag.startsTag(tag)
                if skipping == nil { out += unterminated ? HTMLText.escape(HTMLText.decodeEntities(tag)) : "&lt;" }
                rest = unterminated ? "" : tag.dropFirst()
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
    private static func render(_ tag: HTMLTag, open: inout [String]) -> String {
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
        guard open.count < maximumOpen else { return "" }
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
