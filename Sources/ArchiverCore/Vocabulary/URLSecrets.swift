// Where a URL carries secrets, and the one rule that shows and stores it without them. A URL's userinfo
// (`user:pw@`) is a credential: it is split off where the URL enters (FeedSource, the feed readers) and never
// stored or sent as part of a URL. A parameter whose name looks secret (`?token=`, `;jsessionid=`,
// `#access_token=`, `X-Amz-Signature=`...) keeps its value in the requests podarchive makes, and nowhere else:
// messages, `--json`, the index, sidecars, the history and the site show it as `REDACTED`.
import Foundation

/// Reads and removes the secrets URLs carry.
public enum URLSecrets {
    /// Words that make a parameter's name secret wherever they stand in it (`access_token`, `tokenHash`,
    /// `api-key`), compared without case, the name split at `-`, `_`, `.` and lower-to-upper case changes.
    public static let secretWords: Set<String> = [
        "token", "key", "apikey", "auth", "authorization", "oauth", "sig", "signature", "session", "sessionid",
        "jsessionid", "phpsessid", "jwt", "password", "passwd", "pwd", "pass", "secret", "code", "credential",
        "credentials", "hmac", "hdnts", "hdnea",
    ]

    /// Fragments that make a name secret wherever they stand in it, compound spellings included (`authtoken`,
    /// `APITOKEN`, `token1`, `clientsecret`): none of them is part of an ordinary word.
    public static let secretFragments = [
        "token", "secret", "password", "passwd", "hmac", "signature", "apikey", "credential", "sessionid",
        "sessid", "oauth", "jwt",
    ]

    /// Words that, followed by one of `secretWords`, make a compound secret name (`accesskey`, `authcode`,
    /// `apisig`), while `author` or `design` stay ordinary.
    public static let compoundPrefixes = ["access", "auth", "api", "client", "private", "secret", "session", "sign"]

    /// Name prefixes that make a parameter secret: cloud storage's signed URLs.
    public static let secretPrefixes = ["x-amz-", "x-goog-"]

    /// What a redacted value is shown as. A URL carrying it is never fetched (`carriesRedaction`).
    public static let redaction = SecretValues.marker

    /// Whether a parameter called `name` (percent-encoded or not) holds a secret.
    /// Names are few and come back in every URL (`utm_source`, `id`): each is judged once and remembered.
    public static func isSecretName(_ name: Substring) -> Bool {
        let key = String(name)
        if let known = judged.withLock({ $0[key] }) { return known }
        let secret = judge(key)
        judged.withLock { names in
            if names.count >= 4096 { names.removeAll(keepingCapacity: true) }
            names[key] = secret
        }
        return secret
    }

    /// The names judged so far.
    private static let judged = Locked<[String: Bool]>([:])

    /// `isSecretName`, worked out.
    private static func judge(_ name: String) -> Bool {
        let decoded = name.utf8.contains(UInt8(ascii: "%")) ? (name.removingPercentEncoding ?? name) : name
        let lowered = decoded.lowercased()
        if secretPrefixes.contains(where: lowered.hasPrefix) { return true }
        if secretWords.contains(lowered) { return true }
        var words: [String] = []
        var word = ""
        var previousLower = false
        for character in decoded {
            if character == "-" || character == "_" || character == "." {
                words.append(word)
                word = ""
                previousLower = false
                continue
            }
            if character.isUppercase, previousLower {
                words.append(word)
                word = ""
            }
            word.append(character)
            previousLower = character.isLowercase || character.isNumber
        }
        words.append(word)
        return words.contains { isSecretWord($0.lowercased()) }
    }

    /// Whether one word of a name (lowercased) is secret: one of `secretWords` (with digits after it, as in
    /// `token1` or `sig2`), one holding a `secretFragments` entry, or a `compoundPrefixes` entry joined to one.
    private static func isSecretWord(_ word: String) -> Bool {
        let base = String(word.reversed().drop(while: \.isNumber).reversed())
        if secretWords.contains(base) { return true }
        if secretFragments.contains(where: { holds(base, $0) }) { return true }
        return compoundPrefixes.contains {
            base.hasPrefix($0) && secretWords.contains(String(base.dropFirst($0.count)))
        }
    }

    /// Whether `text` holds `part`, compared byte by byte (Foundation's `contains` on Linux goes through
    /// `range(of:options:locale:)`).
    private static func holds(_ text: String, _ part: String) -> Bool {
        text.utf8.firstRange(of: part.utf8) != nil
    }

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

    /// How a URL is shown and kept wherever it can be read: without userinfo, and with the value of every
    /// query, matrix (`;name=value` in the path) and fragment parameter whose name looks secret (see
    /// `isSecretName`) replaced by `REDACTED`, in any position and however its `&` is written (`&`, `&amp;`,
    /// `&#38;`, `&#x26;`, `;`).
    /// Under a private show's `Taint` (its sync, list or verify), every value is redacted, whatever its name, in
    /// every URL but the show's own feed's; and every secret value the process knows (`SecretValues`) is masked.
    public static func redacted(_ text: String) -> String {
        let taint = Taint.current
        let everyValue = taint.isPrivate && !isOwnFeed(text, of: taint)
        return SecretValues.masking(redacted(text, everyValue: everyValue))
    }

    /// Whether `text` is one of the show's own feed URLs, compared as the name rule shows them.
    private static func isOwnFeed(_ text: String, of taint: Taint) -> Bool {
        !taint.feeds.isEmpty && taint.feeds.contains(redacted(text, everyValue: false))
    }

    /// The values of the parameters in `text` whose names look secret (the name rule): what a feed URL given by
    /// the user holds that no output may show.
    public static func secretValues(in text: String) -> [String] {
        guard let query = text.firstIndex(where: { $0 == "?" || $0 == ";" || $0 == "#" }) else { return [] }
        var values: [String] = []
        for piece in text[text.index(after: query)...].split(whereSeparator: { "&;#?".contains($0) }) {
            guard let equals = piece.firstIndex(of: "="), isSecretName(piece[..<equals]) else { continue }
            let value = String(piece[piece.index(after: equals)...])
            guard !value.isEmpty, value != redaction else { continue }
            values.append(value)
            if let decoded = value.removingPercentEncoding, decoded != value { values.append(decoded) }
        }
        return values
    }

    /// `redacted` by the name rule alone, or with `everyValue`, every value whatever its name.
    static func redacted(_ text: String, everyValue: Bool) -> String {
        let bare = withoutUserinfo(text)
        // By bytes: every index load redacts each entry's URL, and most carry no parameter.
        guard
            bare.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: ";") })
        else { return bare }
        // The authority ends at the first `/`, `?` or `#` after `//`; matrix parameters live in the path after it.
        let afterScheme = schemeEnd(of: bare) ?? bare.startIndex
        let pathStart = bare[afterScheme...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? bare.endIndex
        let queryStart = bare[pathStart...].firstIndex(of: "?")
        let fragmentStart = bare[(queryStart ?? pathStart)...].firstIndex(of: "#")
        let pathEnd = queryStart ?? fragmentStart ?? bare.endIndex
        var result = String(bare[..<pathStart])
        result += redactingParameters(bare[pathStart..<pathEnd], matrix: true, everyValue: everyValue)
        if let queryStart {
            result +=
                "?"
                + redactingParameters(
                    bare[bare.index(after: queryStart)..<(fragmentStart ?? bare.endIndex)], everyValue: everyValue)
        }
        if let fragmentStart {
            result += "#" + redactingParameters(bare[bare.index(after: fragmentStart)...], everyValue: everyValue)
        }
        return result
    }

    /// Makes the address `text` secret as a whole, wherever it is printed or redacted from now on: its userinfo,
    /// and everything after its host (its path, query and fragment), which for a notification URL (an ntfy topic,
    /// a webhook's path) is the token. `https://ntfy.sh/my-topic` is shown `https://ntfy.sh/REDACTED`.
    static func registerSecretAddress(_ text: String) {
        var secrets = [String]()
        if let password = userinfo(of: text)?.password { secrets.append(password) }
        let bare = withoutUserinfo(text)
        if let afterScheme = schemeEnd(of: bare),
            let pathStart = bare[afterScheme...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" })
        {
            let rest = bare[pathStart...].drop { $0 == "/" }
            secrets.append(String(rest))
            if let path = rest.split(whereSeparator: { $0 == "?" || $0 == "#" }).first { secrets.append(String(path)) }
        }
        SecretValues.register(secrets)
    }

    /// Whether `text` carries a secret: a userinfo, or a secret parameter with a value.
    public static func hasSecret(_ text: String) -> Bool {
        redacted(text) != text
    }

    /// Whether `text` carries the redaction marker as a parameter's value: an address as podarchive shows it,
    /// which cannot be fetched (its secret is not in it).
    /// (A search of the bytes: Foundation's `contains` goes through `range(of:options:locale:)`, and a sync asks
    /// this of every index entry.)
    public static func carriesRedaction(_ text: String) -> Bool {
        let utf8 = text.utf8
        var from = utf8.startIndex
        while let equals = utf8[from...].firstIndex(of: UInt8(ascii: "=")) {
            from = utf8.index(after: equals)
            if utf8[from...].starts(with: redaction.utf8) { return true }
        }
        return false
    }

    /// The parameters in `part` with secret values redacted: a query or fragment (`name=value` between
    /// separators), or with `matrix`, a path whose segments may carry `;name=value` parameters.
    /// With `everyValue`, every parameter's value is redacted whatever its name, and a piece with no `=` (a bare
    /// query, `?3b9f…`) whole.
    private static func redactingParameters(_ part: Substring, matrix: Bool = false, everyValue: Bool) -> String {
        var result = ""
        var rest = part
        var first = true
        while !rest.isEmpty {
            let next = nextSeparator(in: rest, matrix: matrix)
            let piece = rest[..<(next?.range.lowerBound ?? rest.endIndex)]
            // In a path, the piece before a segment's first `;` is the segment itself, never a parameter.
            let isParameter = !matrix || !first
            if isParameter, let equals = piece.firstIndex(of: "="), piece.index(after: equals) < piece.endIndex,
                everyValue || isSecretName(piece[..<equals])
            {
                result += piece[...equals] + redaction
            } else if isParameter, everyValue, !piece.isEmpty, !piece.contains("=") {
                result += redaction
            } else {
                result += piece
            }
            guard let next else { break }
            result += rest[next.range]
            first = next.isSlash
            rest = rest[next.range.upperBound...]
        }
        return result
    }

    /// The next separator of parameters in `rest`: `&` however it is written (`&amp;`, `&#38;`, `&#x26;`, in any
    /// case) or `;`; with `matrix`, `;` or the `/` that starts the next segment. One pass over the bytes.
    private static func nextSeparator(in rest: Substring, matrix: Bool) -> (
        range: Range<Substring.Index>, isSlash: Bool
    )? {
        let utf8 = rest.utf8
        var index = utf8.startIndex
        while index != utf8.endIndex {
            let byte = utf8[index]
            let after = utf8.index(after: index)
            if byte == UInt8(ascii: ";") || (matrix && byte == UInt8(ascii: "/")) {
                return (index..<after, byte == UInt8(ascii: "/"))
            }
            if !matrix, byte == UInt8(ascii: "&") {
                // The entity's letters in any case (its digits and punctuation as they are).
                let tail = utf8[after...]
                for entity in ["amp;", "#38;", "#x26;"]
                where tail.starts(with: entity.utf8, by: { $0 | ($1 >= 0x61 ? 0x20 : 0) == $1 }) {
                    return (index..<utf8.index(after, offsetBy: entity.utf8.count), false)
                }
                return (index..<after, false)
            }
            // A JSON string's `\u0026` (Go's encoder writes every `&` so) separates as `&` does.
            if !matrix, byte == UInt8(ascii: "\\"), isEscapedAmpersand(utf8[after...]) {
                return (index..<utf8.index(after, offsetBy: 5), false)
            }
            index = after
        }
        return nil
    }

    /// Whether `tail` (the bytes after a backslash) starts with `u0026`, its hex digits in any case.
    static func isEscapedAmpersand<Bytes: Collection<UInt8>>(_ tail: Bytes) -> Bool {
        tail.starts(with: "u0026".utf8, by: { $0 | 0x20 == $1 })
    }

    /// Where the `://` after a URL's scheme ends, if it has one.
    private static func schemeEnd(of text: String) -> String.Index? {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let rest = utf8[utf8.index(after: colon)...]
        guard rest.starts(with: "//".utf8) else {
            // `://` may stand later (a path before it is no scheme, but the old reading looked for it anywhere).
            return text.range(of: "://").map(\.upperBound)
        }
        return utf8.index(colon, offsetBy: 3)
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
