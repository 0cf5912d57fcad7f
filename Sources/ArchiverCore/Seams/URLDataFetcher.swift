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
}

/// Why a fetch stopped that the transport itself did not stop.
public enum FetchError: Error, Equatable, Sendable {
    /// The body (after `Content-Encoding` was undone) passed this many bytes; reading stopped there.
    case tooLarge(limit: Int64)
}
