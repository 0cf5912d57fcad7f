// One show, one address: a feed URL is normalised before it is compared or stored, so that `HTTP://Host:80/./a`
// and `http://host/a` name one subscription. The rule (RFC 3986 §6.2.2 syntax-based normalisation, plus what
// says nothing about the document): scheme and host lower case, the scheme's default port dropped, an empty
// path made `/`, dot segments removed, percent-escapes in upper case and unreserved characters unescaped, an
// empty query and any fragment dropped, and tracking parameters (`utm_*`, `fbclid`, `gclid`, ...) dropped.
import Foundation

/// Normalises feed URLs (see the file's comment for the rule).
enum FeedAddress {
    /// Query parameters that only tell a link's origin to analytics, never which document is served.
    public static let trackingParameters: Set<String> = [
        "fbclid", "gclid", "dclid", "msclkid", "yclid", "igshid", "mc_cid", "mc_eid", "_hsenc", "_hsmi",
    ]

    /// Whether the query parameter `name` is a tracking parameter (`utm_*` or one of `trackingParameters`).
    public static func isTracking(_ name: Substring) -> Bool {
        let lowered = name.lowercased()
        return lowered.hasPrefix("utm_") || trackingParameters.contains(lowered)
    }

    /// `text` normalised, when it is an absolute http(s) URL; anything else is returned unchanged. A login in it
    /// (`user:pw@`) is kept: it is taken out where the URL enters (`FeedSource`), not here.
    public static func normalized(_ text: String) -> String {
        guard let scheme = WebScheme.of(text), WebScheme.isWeb(scheme) else { return text }
        let afterScheme = text.index(text.startIndex, offsetBy: scheme.count + 1)
        guard text[afterScheme...].hasPrefix("//") else { return text }
        let authorityStart = text.index(afterScheme, offsetBy: 2)
        let authorityEnd =
            text[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? text.endIndex
        let withoutFragment =
            text[authorityEnd...].split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
            .first ?? ""
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = parts.first.map(String.init) ?? ""
        let query = parts.count > 1 ? parts[1] : nil
        var result = scheme + "://" + authority(text[authorityStart..<authorityEnd], scheme: scheme)
        result += removingDotSegments(percentNormalized(path.isEmpty ? "/" : path))
        if let query {
            let kept = query.split(separator: "&", omittingEmptySubsequences: true).filter { parameter in
                !isTracking(parameter.split(separator: "=", maxSplits: 1).first ?? "")
            }
            if !kept.isEmpty { result += "?" + kept.map { percentNormalized(String($0)) }.joined(separator: "&") }
        }
        return result
    }

    /// The authority with its host in lower case and the scheme's default port dropped.
    private static func authority(_ authority: Substring, scheme: String) -> String {
        let at = authority.lastIndex(of: "@")
        let userinfo = at.map { String(authority[...$0]) } ?? ""
        var hostAndPort = at.map { authority[authority.index(after: $0)...] } ?? authority
        var port = ""
        // The last colon after a closing bracket (an IPv6 literal) or in a name starts the port.
        if let colon = hostAndPort.lastIndex(of: ":"), !hostAndPort[colon...].contains("]") {
            port = String(hostAndPort[hostAndPort.index(after: colon)...])
            hostAndPort = hostAndPort[..<colon]
        }
        let defaultPort = scheme == "https" ? "443" : "80"
        let shownPort = port.isEmpty || port == defaultPort ? "" : ":" + port
        return userinfo + hostAndPort.lowercased() + shownPort
    }

    /// Percent-escapes with upper-case hex digits, and unreserved characters (letters, digits, `-._~`) unescaped.
    static func percentNormalized(_ text: String) -> String {
        guard text.contains("%") else { return text }
        var bytes: [UInt8] = []
        let utf8 = Array(text.utf8)
        var position = 0
        func hex(_ byte: UInt8) -> UInt8? {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - 0x30
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - 0x57
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - 0x37
            default: return nil
            }
        }
        while position < utf8.count {
            let byte = utf8[position]
            if byte == UInt8(ascii: "%"), position + 2 < utf8.count, let high = hex(utf8[position + 1]),
                let low = hex(utf8[position + 2])
            {
                let value = high << 4 | low
                let isUnreserved =
                    (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value) || (0x30...0x39).contains(value)
                    || value == UInt8(ascii: "-") || value == UInt8(ascii: ".") || value == UInt8(ascii: "_")
                    || value == UInt8(ascii: "~")
                if isUnreserved {
                    bytes.append(value)
                } else {
                    bytes += Array(String(format: "%%%02X", value).utf8)
                }
                position += 3
            } else {
                bytes.append(byte)
                position += 1
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// RFC 3986 §5.2.4: `/a/./b/../c` is `/a/c`.
    static func removingDotSegments(_ path: String) -> String {
        guard path.contains(".") else { return path }
        var output: [Substring] = []
        let segments = path.split(separator: "/", omittingEmptySubsequences: false)
        for (position, segment) in segments.enumerated() {
            let last = position == segments.count - 1
            switch segment {
            case ".":
                if last { output.append("") }
            case "..":
                if output.count > 1 { output.removeLast() }
                if last { output.append("") }
            default:
                output.append(segment)
            }
        }
        let joined = output.joined(separator: "/")
        return joined.hasPrefix("/") ? joined : "/" + joined
    }
}
