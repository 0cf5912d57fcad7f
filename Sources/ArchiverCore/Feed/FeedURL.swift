// Enclosure URLs as feeds write them: trimmed, sometimes relative, sometimes with spaces.
import Foundation

enum FeedURL {
    /// Resolves `raw` against `base` (the feed's URL or an `xml:base`). Absolute URLs are returned unchanged.
    static func resolve(_ raw: String, against base: URL?) -> String {
        if hasScheme(raw) { return raw }
        guard let base else { return raw }
        if let url = URL(string: raw, relativeTo: base) { return url.absoluteString }
        let escaped = raw.addingPercentEncoding(withAllowedCharacters: .urlFragmentAllowed.union(["#", "%"])) ?? raw
        return URL(string: escaped, relativeTo: base)?.absoluteString ?? raw
    }

    /// True when `text` starts with `scheme:` (letters, digits, `+`, `-`, `.` after a letter).
    static func hasScheme(_ text: String) -> Bool {
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else { return false }
        let scheme = text[..<colon]
        guard let first = scheme.first, first.isASCII, first.isLetter else { return false }
        return scheme.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }
    }
}
