// Seam: fetch a request's whole body and response (used for feeds, which are small enough to hold, up to a cap).
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches a request's bytes and final response. The live conformance is `FeedSession`.
public protocol URLDataFetcher: Sendable {
    /// The body and final response of `request` (after redirects to http(s); a redirect elsewhere is returned
    /// as the 3xx response it is). Any status is returned, not thrown, for the caller to judge.
    /// - Throws: `FetchError.tooLarge` as soon as the body, decoded, passes `maximumBytes`; a `URLError` when
    ///   the transfer fails.
    func data(for request: URLRequest, maximumBytes: Int64) async throws -> (Data, URLResponse)

    /// `data(for:maximumBytes:)`, and where the request was moved for good: the URL reached through
    /// redirects that were all permanent (301, 308), when there were any. Each redirect carries what `policy`
    /// says, and reading keeps within its bandwidth cap.
    func fetch(_ request: URLRequest, maximumBytes: Int64, policy: TransferPolicy) async throws -> FetchedBody
}

extension URLDataFetcher {
    /// A fetcher that does not see redirects reports none, and reads as fast as it can.
    public func fetch(_ request: URLRequest, maximumBytes: Int64, policy: TransferPolicy) async throws
        -> FetchedBody
    {
        let (data, response) = try await data(for: request, maximumBytes: maximumBytes)
        return FetchedBody(data: data, response: response, movedTo: nil)
    }
}

/// A fetched body, its final response, and where the request was permanently redirected.
public struct FetchedBody: Sendable {
    /// The body.
    public var data: Data
    /// The final response.
    public var response: URLResponse
    /// The URL at the end of the leading run of permanent redirects (301, 308), if any.
    public var movedTo: URL?

    /// A fetch's outcome.
    public init(data: Data, response: URLResponse, movedTo: URL?) {
        self.data = data
        self.response = response
        self.movedTo = movedTo
    }
}

/// Why a fetch stopped that the transport itself did not stop.
public enum FetchError: Error, Equatable, Sendable {
    /// The body (after `Content-Encoding` was undone) passed this many bytes; reading stopped there.
    case tooLarge(limit: Int64)
    /// The body was sent in a `Content-Encoding` podarchive does not decode (named as the server did): refused.
    case unsupportedEncoding(String)
    /// The body is not complete by its framing (a compressed stream cut or damaged, a length not met): the words.
    case incomplete(String)

    /// A framing failure, or any other error, as a fetch's (other errors are taken as they are).
    init(_ error: Error) {
        switch error {
        case let fetch as FetchError: self = fetch
        case FramingFailure.unsupportedEncoding(let encoding): self = .unsupportedEncoding(encoding)
        case let framing as FramingFailure: self = .incomplete(framing.reason)
        default: self = .incomplete(TransportReason.describe(error))
        }
    }
}

extension FetchError: LocalizedError {
    public var errorDescription: String? {
        switch self {
        case .tooLarge(let limit): return "larger than \(limit) bytes (once decompressed); stopped reading there"
        case .unsupportedEncoding(let encoding):
            return "sent encoded as \(encoding) (Content-Encoding), which podarchive does not decode"
        case .incomplete(let reason): return reason
        }
    }
}
