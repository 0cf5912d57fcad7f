// Why one episode (or a companion, or the artwork) was not archived, and the words for it: what happened, and what
// happens next, said apart so that a line which says what happens next itself says it once.
import Foundation

/// Why one episode was not archived. The episode is tried again on the next run, unless its failure says
/// otherwise (`notMedia`).
public enum EpisodeFailure: Error, Equatable, Sendable {
    /// The enclosure URL is not http(s) (`file:`, `ftp:`, `data:`...): no request is made.
    case unsupportedScheme(String)
    /// The enclosure URL cannot be parsed.
    case invalidURL
    /// The server answered with a non-2xx status.
    case httpStatus(Int)
    /// Fewer (or more) bytes arrived than `Content-Length` announced.
    case lengthMismatch(expected: Int64, received: Int64)
    /// A body that ended with its connection (no `Content-Length`, not chunked) shorter than the feed's `length`
    /// for it: taken for a cut once (see `DownloadCheck`), not kept, and asked for again from its first byte; the
    /// same size again, on the next try or in a later run, is the file.
    case shortOfFeedLength(feedLength: Int64, received: Int64)
    /// The server sent an HTML page instead of audio or video.
    case htmlPage
    /// What answered is the way to the media, not the media (a torrent, a streaming playlist): not archived, and
    /// not asked for again while the feed offers it at the same URL.
    case notMedia(NotMedia)
    /// The server sent an empty body.
    case emptyBody
    /// The connection failed or broke off.
    case transport(String)
    /// A redirect led to a scheme other than http(s).
    case refusedRedirect(String)
    /// The file could not be written or moved into place.
    case storage(String)
    /// What was fetched can never be kept as it is (a chapters document that is not one): not retried.
    case invalid(String)
    /// The server answered 401 to a request that carried credentials: it refused them.
    case credentialsRefused
    /// The episode's deadline passed before it was complete.
    case timedOut(TimeInterval)
    /// The server answered `status` and asked (`Retry-After`) to wait `asked` seconds before another try, more
    /// than the `left` seconds left of the `deadline` the episode may take: not waited for.
    case waitRefused(status: Int, asked: TimeInterval, left: TimeInterval, deadline: TimeInterval)
    /// The file's digest differs from the publisher's Subresource Integrity value (both in SRI form): not kept.
    case integrityMismatch(expected: String, received: String)
    /// The body is not complete by its framing (see `BodyFraming`): a compressed stream cut short, damaged or
    /// going on past its end, or a length other than the one the server announced before for the same version.
    /// Nothing of it is kept; tried again from its start.
    case incompleteBody(String)
    /// The server sent the body in a `Content-Encoding` podarchive does not decode (named as it did): not kept.
    case unsupportedEncoding(String)

    /// A short reason for messages: what happened, then what happens next where that is more than "tried again".
    public var reason: String {
        guard let next = consequence else { return cause }
        return cause + "; " + next
    }

    /// What happened, without what happens next: for a line that says what happens next itself ("not kept: <url>
    /// ...: <cause>; tried again next run").
    public var cause: String {
        switch self {
        case .unsupportedScheme(let scheme): return "\(scheme): URLs are not downloaded (only http and https)"
        case .invalidURL: return "the enclosure URL is not a valid URL"
        case .httpStatus(let status): return "server answered HTTP \(status)"
        case .lengthMismatch(let expected, let received): return "received \(received) of \(expected) bytes"
        case .shortOfFeedLength(let feedLength, let received):
            return "its body ended with the connection after \(received) bytes, short of the \(feedLength) the feed "
                + "gives as its length"
        case .htmlPage: return "server sent an HTML page instead of media"
        case .notMedia(let kind): return "it is \(kind.description)"
        case .emptyBody: return "server sent an empty file"
        case .transport(let reason): return reason
        case .refusedRedirect(let location): return "redirected to \(location), which is not http(s); refused"
        case .storage(let reason), .invalid(let reason): return reason
        case .credentialsRefused: return "server answered HTTP 401: it refused the credentials sent"
        case .timedOut(let seconds): return "not complete after \(Int(seconds)) s"
        case .waitRefused(let status, let asked, let left, let deadline):
            return "server answered HTTP \(status) and "
                + Deadline.waitRefusal(asked: asked, left: left, deadline: deadline, of: "episode")
        case .integrityMismatch(let expected, let received):
            return "the file does not match the publisher's hash: expected \(expected), received \(received)"
        case .incompleteBody(let reason): return reason
        case .unsupportedEncoding(let encoding):
            return "the server sent it encoded as \(encoding) (Content-Encoding), which podarchive does not decode"
        }
    }

    /// What happens next, where the cause alone would not say it.
    var consequence: String? {
        switch self {
        case .lengthMismatch: return "the rest is fetched on the next attempt"
        case .shortOfFeedLength:
            return "not kept: the next try asks for it again from its first byte, and the same size again is the file"
        case .notMedia: return "not archived, and not asked for again while the feed offers it there"
        case .timedOut: return "it resumes next run"
        case .waitRefused: return "tried again next run"
        case .integrityMismatch: return "not kept, tried again next run"
        case .incompleteBody: return "not kept, fetched again from its start"
        case .unsupportedEncoding: return "not kept"
        default: return nil
        }
    }
}
