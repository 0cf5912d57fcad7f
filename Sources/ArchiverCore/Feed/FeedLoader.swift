// Fetches a feed's bytes from its source and parses them.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Loads and parses feeds through the injected fetcher and file reader.
public struct FeedLoader: Sendable {
    private let fetcher: any URLDataFetcher
    private let files: any FileReading

    /// Loads remote feeds through `fetcher` and local ones through `files`.
    public init(fetcher: any URLDataFetcher, files: any FileReading) {
        self.fetcher = fetcher
        self.files = files
    }

    /// Fetches and parses the feed at `source`.
    /// - Throws: `FeedError` naming the feed and what went wrong.
    public func load(_ source: FeedSource) async throws -> Feed {
        switch try await load(source, ifChangedSince: nil) {
        case .changed(let feed, _): return feed
        case .notModified: throw FeedError.httpStatus(url: source.displayName, status: 304)
        }
    }

    /// Fetches the feed, conditionally when `validators` are given (`If-None-Match` / `If-Modified-Since`);
    /// with `descriptions`, episodes carry their show notes (see `FeedParser.parse`).
    public func load(
        _ source: FeedSource, ifChangedSince validators: FeedValidators?, descriptions: Bool = false
    ) async throws -> FeedFetch {
        switch source {
        case .local(let path):
            guard let data = files.contents(atPath: path) else { throw FeedError.unreadableFile(path: path) }
            return .changed(
                try FeedParser.parse(data, url: source.url, descriptions: descriptions),
                FeedValidators(etag: nil, lastModified: nil))
        case .remote(let url):
            guard let (data, finalURL, newValidators) = try await fetch(url, validators: validators) else {
                return .notModified
            }
            return .changed(try FeedParser.parse(data, url: finalURL, descriptions: descriptions), newValidators)
        }
    }

    private func fetch(_ url: URL, validators: FeedValidators?) async throws -> (Data, URL, FeedValidators)? {
        var request = URLRequest(url: url)
        if let etag = validators?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let date = validators?.lastModified { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
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
        var newValidators = FeedValidators(etag: nil, lastModified: nil)
        if let http = response as? HTTPURLResponse {
            if http.statusCode == 304, validators != nil { return nil }
            newValidators = FeedValidators(
                etag: http.value(forHTTPHeaderField: "ETag"),
                lastModified: http.value(forHTTPHeaderField: "Last-Modified"))
            if (300..<400).contains(http.statusCode), let location = http.value(forHTTPHeaderField: "Location") {
                throw FeedError.refusedRedirect(url: url.absoluteString, location: location)
            }
            guard (200..<300).contains(http.statusCode) else {
                throw FeedError.httpStatus(url: url.absoluteString, status: http.statusCode)
            }
        }
        return (data, finalURL, newValidators)
    }
}

/// The result of a conditional fetch.
public enum FeedFetch: Sendable, Equatable {
    /// The feed, and the validators to send next time.
    case changed(Feed, FeedValidators)
    /// `304 Not Modified`: the feed is as it was last time.
    case notModified
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
