// Seam: fetch a request's whole body and response (used for feeds, which are small enough to hold).
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches a request's bytes and response. `URLSession` conforms as it is.
public protocol URLDataFetcher: Sendable {
    /// The body and final response of `request`; `delegate` sees redirects.
    func data(for request: URLRequest, delegate: (any URLSessionTaskDelegate)?) async throws -> (Data, URLResponse)
}

extension URLSession: URLDataFetcher {}
