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
}
