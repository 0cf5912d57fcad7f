// Link rot: whether an archived episode still exists where it was downloaded from. A HEAD request, or, where a
// server refuses HEAD, a GET of its first byte; nothing is written.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What an episode's origin answered.
public enum UpstreamState: Sendable, Equatable {
    /// The file is still there (2xx, or a 206 of its first byte).
    case online
    /// It is gone: 404 or 410, or its host no longer exists. The archive holds the only copy now.
    case gone(String)
    /// No verdict: another status, a timeout, a refused connection. Asked again on a later run.
    case unknown(String)
}

extension FeedLoader {
    /// Asks `url` whether its file still exists; ends within `limits.timeout`.
    public func probe(_ url: URL, limits: FeedLimits = FeedLimits()) async -> UpstreamState {
        guard WebScheme.isWeb(url) else { return .unknown("not an http(s) URL") }
        switch await ask(url, method: "HEAD", limits: limits) {
        case .unknown(let reason)
        where reason.hasPrefix("HTTP 405") || reason.hasPrefix("HTTP 501")
            || reason.hasPrefix("HTTP 403"):
            // Some servers refuse HEAD: the first byte of the file answers the same question.
            return await ask(url, method: "GET", limits: limits)
        case let state:
            return state
        }
    }

    private func ask(_ url: URL, method: String, limits: FeedLimits) async -> UpstreamState {
        var request = limits.request(for: url)
        request.httpMethod = method
        if method == "GET" { request.setValue("bytes=0-0", forHTTPHeaderField: "Range") }
        request.setValue(BodyFraming.acceptEncoding(compressible: false), forHTTPHeaderField: "Accept-Encoding")
        let response: URLResponse
        let asked = request
        do {
            response = try await Deadline.run(seconds: limits.timeout, timer: timer) { [fetcher] in
                try await fetcher.fetch(asked, maximumBytes: 1 << 16, policy: limits.policy).response
            }
        } catch is Deadline.Exceeded {
            return .unknown("no answer within \(Deadline.describe(limits.timeout))")
        } catch FetchError.tooLarge {
            // A server that ignored the Range and sent the file: it is there.
            return .online
        } catch {
            let reason = TransportReason.describe(error)
            if let code = (error as? URLError)?.code, code == .cannotFindHost || code == .dnsLookupFailed {
                return .gone("the host \(url.host ?? "") no longer exists (\(reason))")
            }
            return .unknown(reason)
        }
        guard let http = response as? HTTPURLResponse else { return .unknown("not an HTTP answer") }
        switch http.statusCode {
        case 200..<300: return .online
        case 404, 410: return .gone("HTTP \(http.statusCode)")
        default: return .unknown("HTTP \(http.statusCode)")
        }
    }
}
