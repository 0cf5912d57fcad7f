// Recognising an episode across feed churn: a new tracking query on its URL, a missing or regenerated GUID,
// a corrected title. Other archivers re-download in all three cases.
import Foundation

enum EpisodeIdentity {
    /// The enclosure URL without what changes for the same file: the query and fragment are dropped when the path
    /// names a media file (`/ep1.mp3?token=...`), and kept when the path is a script (`/get.php?id=3`), where
    /// the query is what tells episodes apart. Scheme and host are lowercased.
    static func urlKey(_ url: String) -> String {
        // A token's value is never part of the key (see `SecretForms`). By the name rule alone, whatever the show's
        // taint: a private show keeps every value redacted, and `get.php?id=REDACTED` would take every episode of
        // such a feed for one (the key is compared in memory, never written). An entry kept so is then matched by
        // its keyed hash alone.
        let url = URLSecrets.redacted(url, everyValue: false)
        // Every index load keys each of its entries: most URLs are read here without Foundation's URL parser.
        return plainKey(url) ?? parsedKey(url)
    }

    /// `urlKey` by Foundation's URL parser: for any URL `plainKey` leaves.
    static func parsedKey(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.scheme = components.scheme?.lowercased()
        components.host = components.host?.lowercased()
        components.fragment = nil
        let last = components.path.split(separator: "/").last.map(String.init) ?? ""
        if let dot = last.lastIndex(of: "."),
            !MediaTypes.scriptExtensions.contains(last[last.index(after: dot)...].lowercased())
        {
            components.query = nil
        }
        return components.string ?? url
    }

    /// `urlKey` of a plain URL (`scheme://host[:port]/path[?query][#fragment]` in ASCII URL characters, with no
    /// percent escapes and no login), read byte by byte; nil for anything else. Gives what `parsedKey` gives for
    /// such a URL (a test holds the two to it).
    static func plainKey(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        guard let colon = WebScheme.schemeLength(url), bytes.count > colon + 3, bytes[colon + 1] == UInt8(ascii: "/"),
            bytes[colon + 2] == UInt8(ascii: "/"), bytes.allSatisfy(isPlainByte)
        else { return nil }
        let authorityStart = colon + 3
        let ends: Set<UInt8> = [UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#")]
        let authorityEnd = bytes[authorityStart...].firstIndex(where: ends.contains) ?? bytes.count
        let authority = bytes[authorityStart..<authorityEnd]
        // A login, an IPv6 literal, an empty host or a port that is not a number: left to the parser.
        guard let first = authority.first, first != UInt8(ascii: ":"),
            !authority.contains(UInt8(ascii: "@")), !authority.contains(UInt8(ascii: "["))
        else { return nil }
        if let portColon = authority.firstIndex(of: UInt8(ascii: ":")) {
            let port = authority[(portColon + 1)...]
            guard !port.isEmpty, port.allSatisfy(isDigit) else { return nil }
        }
        let fragmentStart = bytes[authorityEnd...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.count
        let queryStart = bytes[authorityEnd..<fragmentStart].firstIndex(of: UInt8(ascii: "?"))
        let path = bytes[authorityEnd..<(queryStart ?? fragmentStart)]
        let last = path.split(separator: UInt8(ascii: "/")).last ?? []
        var keepsQuery = true
        if let dot = last.lastIndex(of: UInt8(ascii: ".")) {
            let suffix = String(decoding: last[(dot + 1)...], as: UTF8.self).lowercased()
            keepsQuery = MediaTypes.scriptExtensions.contains(suffix)
        }
        var key: [UInt8] = Array(bytes[..<authorityEnd].map { isLetter($0) ? $0 | 0x20 : $0 })
        key += path
        if keepsQuery, let queryStart { key += bytes[queryStart..<fragmentStart] }
        return String(decoding: key, as: UTF8.self)
    }

    /// An unreserved or reserved URL character (RFC 3986), `%` left out: a URL of only these needs no decoding.
    private static func isPlainByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || isDigit(byte) || "-._~:/?#@!$&'()*+,;=".utf8.contains(byte)
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }
    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}
