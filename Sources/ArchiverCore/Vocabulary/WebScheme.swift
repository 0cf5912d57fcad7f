// podarchive fetches over http and https only: feeds, episodes, and every redirect on the way. This is the one
// place that says which schemes those are and reads a scheme out of a URL as written.
import Foundation

/// The schemes podarchive fetches, and the scheme a URL string starts with.
enum WebScheme {
    /// The scheme `text` starts with, lowercased (`https` for `HTTPS://x`); nil when there is none (a relative
    /// reference, a path).
    static func of(_ text: String) -> String? {
        schemeLength(text).map { String(decoding: text.utf8.prefix($0), as: UTF8.self).lowercased() }
    }

    /// True when `text` starts with `scheme:`. Allocates nothing: feed readers ask it of every enclosure.
    static func hasScheme(_ text: String) -> Bool { schemeLength(text) != nil }

    /// The length of the scheme `text` starts with: letters, digits, `+`, `-` and `.` after a letter, then `:`.
    static func schemeLength(_ text: String) -> Int? {
        func isLetter(_ byte: UInt8) -> Bool {
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
        }
        var position = 0
        for byte in text.utf8 {
            if byte == UInt8(ascii: ":") { return position > 0 ? position : nil }
            let allowed =
                isLetter(byte)
                || (position > 0
                    && ((UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "+")
                        || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")))
            guard allowed else { return nil }
            position += 1
        }
        return nil
    }

    /// Whether `scheme` (any case) is http or https.
    static func isWeb(_ scheme: String?) -> Bool {
        guard let scheme = scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    /// Whether `url` is an http or https URL.
    static func isWeb(_ url: URL?) -> Bool { isWeb(url?.scheme) }
}
