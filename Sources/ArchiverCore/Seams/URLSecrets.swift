// Where a URL carries secrets, and how it is stored and shown without them. A URL's userinfo (`user:pw@`) is a
// credential: it is split off where the URL enters (FeedSource, the feed readers) and never stored or sent as
// part of a URL. A token in a query string (`?auth=...`) belongs to the URL (a private feed's address is its
// secret): it stays in requests and in the index, which needs it for identity, and is shown as REDACTED.
import Foundation

/// Reads and removes the secrets URLs carry.
public enum URLSecrets {
    /// Query parameters whose values are shown as `REDACTED` (compared without case).
    public static let tokenParameters: Set<String> = [
        "auth", "token", "key", "apikey", "api_key", "access_token", "sig", "signature", "secret", "password",
    ]

    /// What a redacted value is shown as.
    public static let redaction = "REDACTED"

    /// The user and password of `text`'s userinfo, percent-decoded; nil when it has none.
    public static func userinfo(of text: String) -> (user: String, password: String?)? {
        guard let (start, end) = userinfoRange(text) else { return nil }
        let userinfo = text.utf8[start..<end]
        let colon = userinfo.firstIndex(of: UInt8(ascii: ":"))
        let user = String(decoding: userinfo[userinfo.startIndex..<(colon ?? userinfo.endIndex)], as: UTF8.self)
        let password = colon.map { String(decoding: userinfo[userinfo.index(after: $0)...], as: UTF8.self) }
        return (user.removingPercentEncoding ?? user, password.map { $0.removingPercentEncoding ?? $0 })
    }

    /// `text` without its userinfo: `https://user:pw@host/feed` is `https://host/feed`. Unchanged when it has none.
    public static func withoutUserinfo(_ text: String) -> String {
        guard let (start, end) = userinfoRange(text) else { return text }
        let utf8 = text.utf8
        return String(decoding: utf8[utf8.startIndex..<start], as: UTF8.self)
            + String(decoding: utf8[utf8.index(after: end)...], as: UTF8.self)
    }

    /// How a URL is shown and written where people read it: without userinfo, and with the values of token
    /// parameters (see `tokenParameters`) replaced by `REDACTED`.
    public static func redacted(_ text: String) -> String {
        let bare = withoutUserinfo(text)
        guard let question = bare.firstIndex(of: "?") else { return bare }
        let fragment = bare[question...].firstIndex(of: "#")
        let query = bare[bare.index(after: question)..<(fragment ?? bare.endIndex)]
        var changed = false
        let parts = query.split(separator: "&", omittingEmptySubsequences: false).map { part -> Substring in
            guard let equals = part.firstIndex(of: "="), part.index(after: equals) < part.endIndex else { return part }
            let name = part[..<equals]
            let decoded = String(name).removingPercentEncoding ?? String(name)
            guard tokenParameters.contains(decoded.lowercased()) else { return part }
            changed = true
            return name + "=" + Substring(redaction)
        }
        guard changed else { return bare }
        return bare[...question] + parts.joined(separator: "&") + (fragment.map { bare[$0...] } ?? "")
    }

    /// `message` with every http(s) URL in it redacted: the last guard on what podarchive prints. Reads bytes,
    /// so a `list --json` of 20,000 episodes costs milliseconds; a URL with neither `@` nor `?` is copied as is.
    public static func redactingURLs(in message: String) -> String {
        let bytes = Array(message.utf8)
        var result: [UInt8] = []
        var copied = 0
        var position = 0
        while position + 2 < bytes.count {
            guard bytes[position] == UInt8(ascii: ":"), bytes[position + 1] == UInt8(ascii: "/"),
                bytes[position + 2] == UInt8(ascii: "/"), let start = schemeStart(bytes, colon: position)
            else {
                position += 1
                continue
            }
            var end = position + 3
            while end < bytes.count, !endsURL(bytes[end]) { end += 1 }
            let url = bytes[start..<end]
            if url.contains(UInt8(ascii: "@")) || url.contains(UInt8(ascii: "?")) {
                let shown = redacted(String(decoding: url, as: UTF8.self))
                if shown.utf8.count != url.count || !shown.utf8.elementsEqual(url) {
                    result += bytes[copied..<start]
                    result += shown.utf8
                    copied = end
                }
            }
            position = end
        }
        guard copied > 0 else { return message }
        result += bytes[copied...]
        return String(decoding: result, as: UTF8.self)
    }

    /// Where `http` or `https` (any case) starts right before the colon at `colon`, when one does and no letter
    /// runs into it.
    private static func schemeStart(_ bytes: [UInt8], colon: Int) -> Int? {
        for length in [5, 4] where colon >= length {
            let start = colon - length
            let word = bytes[start..<colon].map { $0 | 0x20 }
            guard word.elementsEqual(length == 5 ? Array("https".utf8) : Array("http".utf8)) else { continue }
            if start > 0, (bytes[start - 1] | 0x20) >= UInt8(ascii: "a"), (bytes[start - 1] | 0x20) <= UInt8(ascii: "z")
            {
                return nil
            }
            return start
        }
        return nil
    }

    /// Bytes that end a URL inside a message or a JSON string: white space, quotes, angle brackets, a backslash.
    private static func endsURL(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "\\")
    }

    /// The UTF-8 range of the userinfo in `text` (from the character after `//` to the last `@` of the
    /// authority, exclusive of the `@`), when there is one.
    private static func userinfoRange(_ text: String) -> (String.UTF8View.Index, String.UTF8View.Index)? {
        let utf8 = text.utf8
        // Most URLs have no `@` at all: one scan says so (the feed readers and the index ask of every URL).
        guard utf8.contains(UInt8(ascii: "@")), WebScheme.hasScheme(text),
            let colon = utf8.firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        let afterColon = utf8.index(after: colon)
        guard utf8[afterColon...].starts(with: "//".utf8) else { return nil }
        let authorityStart = utf8.index(afterColon, offsetBy: 2)
        let authorityEnd =
            utf8[authorityStart...].firstIndex(where: {
                $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#")
            }) ?? utf8.endIndex
        guard let at = utf8[authorityStart..<authorityEnd].lastIndex(of: UInt8(ascii: "@")) else { return nil }
        return (authorityStart, at)
    }
}
