// When to try a download again, and how long to wait first.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Retries with exponential backoff and jitter, bounded in number and by the deadline: an episode's, and a feed
/// document's (`FeedLimits.retry`).
public struct RetryPolicy: Sendable, Equatable {
    /// Further attempts after the first.
    public var retries: Int
    /// The first wait; each retry doubles it.
    public var baseDelay: TimeInterval
    /// No single wait is longer.
    public var maximumDelay: TimeInterval

    /// `retries` more tries after the first, waiting `baseDelay` doubled each time (with jitter), at most `maximumDelay`.
    public init(retries: Int = 3, baseDelay: TimeInterval = 1, maximumDelay: TimeInterval = 60) {
        self.retries = retries
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before retry number `attempt` (1-based): `base * 2^(attempt-1)`, scaled by a jitter factor in
    /// [0.5, 1.5) so that many clients don't retry in step, at most `maximumDelay`. A server's `Retry-After`
    /// wins when it asks for longer.
    public func delay(beforeRetry attempt: Int, jitter: Double, retryAfter: TimeInterval?) -> TimeInterval {
        let exponential = baseDelay * pow(2, Double(max(0, attempt - 1)))
        let jittered = min(maximumDelay, exponential * (0.5 + jitter))
        return max(jittered, retryAfter ?? 0)
    }

    /// True for failures another attempt may cure: the network, timeouts, 5xx, 408 and 429, a body cut short or
    /// not complete by its framing.
    static func isRetryable(_ failure: EpisodeFailure) -> Bool {
        switch failure {
        case .transport, .lengthMismatch, .shortOfFeedLength, .incompleteBody, .timedOut: return true
        case .httpStatus(let status): return isRetryable(status: status)
        default: return false
        }
    }

    /// True for the statuses another request may cure: 5xx, 408 and 429 (for episodes and feeds alike).
    static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 408 || status == 429
    }

    /// The failure an episode ends with when the wait before its next try is longer than the `left` seconds left
    /// of its `deadline`: when the server's `Retry-After` asked for that wait, one that says so, so nobody wonders
    /// why it was not waited for; else `failure` as it is.
    static func unwaited(
        _ failure: EpisodeFailure, retryAfter: TimeInterval?, left: TimeInterval, deadline: TimeInterval
    ) -> EpisodeFailure {
        guard let retryAfter, retryAfter >= left, case .httpStatus(let status) = failure else { return failure }
        return .waitRefused(status: status, asked: retryAfter, left: left, deadline: deadline)
    }

    /// Reads `Retry-After` as seconds or as an HTTP date.
    static func retryAfter(_ response: URLResponse?, now: Date) -> TimeInterval? {
        guard
            let value = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Retry-After")?
                .trimmingCharacters(in: .whitespaces)
        else { return nil }
        // Delay-seconds is digits only (RFC 9110 10.2.3): `1e9`, `-5` or `0x10` is no delay.
        if !value.isEmpty, value.utf8.allSatisfy({ (48...57).contains($0) }) {
            return TimeInterval(value.prefix(12)) ?? nil
        }
        guard let date = FeedDate.parseRFC822(value) else { return nil }
        return max(0, date.timeIntervalSince(now))
    }
}
