// Fetches a feed's bytes from its source and parses them.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads and parses feeds through the injected fetcher and file reader.
public struct FeedLoader: Sendable {
    private let fetcher: any URLDataFetcher
    private let files: any FileReading

    public init(fetcher: any URLDataFetcher, files: any FileReading) {
        self.fetcher = fetcher
        self.files = files
    }

    /// Fetches and parses the feed at `source`.
    /// - Throws: `FeedError` naming the feed and what went wrong.
    public func load(_ source: FeedSource) async throws -> Feed {
        switch source {
        case .local(let path):
            guard let data = files.contents(atPath: path) else { throw FeedError.unreadableFile(path: path) }
            return try FeedParser.parse(data, url: source.url)
        case .remote(let url):
            let (data, finalURL) = try await fetch(url)
            return try FeedParser.parse(data, url: finalURL)
        }
    }

    private func fetch(_ url: URL) async throws -> (Data, URL) {
        var request = URLRequest(url: url)
        request.setValue(PodarchiveVersion.userAgent, forHTTPHeaderField: "User-Agent")
        request.setValue(
            "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, "
                + "application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8",
            forHTTPHeaderField: "Accept")
        let data: Data
        let response: URLResponse
        do {
            (data, response) = try await fetcher.data(for: request, delegate: nil)
        } catch {
            throw FeedError.transport(url: url.absoluteString, reason: TransportReason.describe(error))
        }
        let finalURL = response.url ?? url
        if let http = response as? HTTPURLResponse {
            if (300..<400).contains(http.statusCode), let location = http.value(forHTTPHeaderField: "Location") {
                throw FeedError.refusedRedirect(url: url.absoluteString, location: location)
            }
            guard (200..<300).contains(http.statusCode) else {
                throw FeedError.httpStatus(url: url.absoluteString, status: http.statusCode)
            }
        }
        return (data, finalURL)
    }
}

/// Short, human reasons for transport failures ("connection refused" rather than an NSError dump).
enum TransportReason {
    static func describe(_ error: Error) -> String {
        if let urlError = error as? URLError {
            switch urlError.code {
            case .timedOut: return "timed out"
            case .cannotConnectToHost: return "connection refused"
            case .networkConnectionLost: return "connection lost"
            case .cannotFindHost, .dnsLookupFailed: return "host not found"
            case .notConnectedToInternet: return "no network"
            case .unsupportedURL: return "unsupported URL"
            case .cancelled: return "cancelled"
            case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate:
                return "TLS failed: \(urlError.localizedDescription)"
            default: break
            }
        }
        return error.localizedDescription
    }
}
