// Why a feed could not be read: each case names the value that was wrong.
import Foundation

/// A feed that could not be fetched or read. Any of these makes `sync` exit with code 3.
public enum FeedError: Error, Equatable, Sendable {
    /// The source is neither an http(s) URL nor a local path.
    case unsupportedScheme(String)
    /// The source is empty or not a URL at all.
    case invalidSource(String)
    /// The local feed file could not be read.
    case unreadableFile(path: String, reason: String)
    /// The server answered with a status other than 2xx.
    case httpStatus(url: String, status: Int)
    /// The server answered `status` and asked (`Retry-After`) to wait `asked` seconds before another try, more than
    /// the `left` seconds left of the `deadline` the feed may take: not waited for.
    case waitRefused(url: String, status: Int, asked: TimeInterval, left: TimeInterval, deadline: TimeInterval)
    /// The server answered 401 to a request that carried credentials (a login, `.netrc`, headers): it refused
    /// them, they are not missing.
    case refusedCredentials(url: String)
    /// The request itself failed (connection refused, DNS, timeout...).
    case transport(url: String, reason: String)
    /// A redirect pointed somewhere podarchive refuses to go.
    case refusedRedirect(url: String, location: String)
    /// The document passed the size cap (`FeedLimits.maximumBytes`); reading stopped there.
    case tooLarge(url: String, limit: Int64)
    /// The document was sent in a `Content-Encoding` podarchive does not decode (`br`, `zstd`...): nothing read.
    case unsupportedEncoding(url: String, encoding: String)
    /// The body is not RSS, Atom or JSON Feed (an HTML page, garbage, an empty file).
    case notAFeed(url: String, reason: String)
    /// The URL carries the redaction marker in place of a secret (an export made without its secrets), and no
    /// subscription of the archive is this feed: it is never fetched as it is.
    case lacksSecret(url: String)
    /// A web page that names no feed in a `<link rel="alternate">` of its head.
    case pageWithoutFeed(url: String)
}

extension FeedError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .unsupportedScheme(let source):
            return "feed \(source): unsupported scheme; use an http(s) URL or a local file path"
        case .invalidSource(let source):
            return "feed '\(source)' is not a URL or a file path"
        case .unreadableFile(let path, let reason):
            return "feed file \(path) cannot be read: \(reason)"
        case .httpStatus(let url, let status):
            return "feed \(url) answered HTTP \(status)\(HTTPStatusAdvice.advice(for: status))"
        case .waitRefused(let url, let status, let asked, let left, let deadline):
            return "feed \(url) answered HTTP \(status)\(HTTPStatusAdvice.advice(for: status)) and "
                + Deadline.waitRefusal(asked: asked, left: left, deadline: deadline, of: "feed")
        case .refusedCredentials(let url):
            return "feed \(url) answered HTTP 401: the server refused the credentials sent (a wrong login or token, "
                + "or one that has expired)"
        case .tooLarge(let url, let limit):
            return "feed \(url) is larger than \(limit) bytes (once decompressed); stopped reading there"
        case .unsupportedEncoding(let url, let encoding):
            return "feed \(url) was sent encoded as \(encoding) (Content-Encoding), which podarchive does not decode; "
                + "nothing read"
        case .transport(let url, let reason):
            return "feed \(url) could not be fetched: \(reason)"
        case .refusedRedirect(let url, let location):
            return "feed \(url) redirects to \(location), which is not http(s); refused"
        case .notAFeed(let url, let reason):
            return "feed \(url) is not a podcast feed: \(reason)"
        case .pageWithoutFeed(let url):
            return "\(url) is a web page that links to no feed (no <link rel=\"alternate\"> to RSS, Atom or JSON "
                + "Feed in its head); give the show's feed URL"
        case .lacksSecret(let url):
            return "feed \(url) has \(URLSecrets.redaction) where its token was (exported without its secrets) and "
                + "matches no subscription of this archive; give the feed's real URL"
        }
    }
}

/// A few words on what a status means for someone reading a nightly report.
enum HTTPStatusAdvice {
    static func advice(for status: Int) -> String {
        switch status {
        case 401: return ": the feed needs credentials"
        case 403: return ": access denied"
        case 410: return " (gone for good)"
        case 429: return " (too many requests)"
        case 500..<600: return " (a server error)"
        default: return ""
        }
    }
}
