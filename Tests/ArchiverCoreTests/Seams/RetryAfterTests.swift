// How long a server's Retry-After asks to wait: delay-seconds are digits only (RFC 9110 10.2.3), else an HTTP date;
// anything else asks for nothing (the policy's own backoff then).
import Foundation
import XCTest

@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class RetryAfterTests: XCTestCase {
    private let now = Date(timeIntervalSince1970: 1_736_514_000)  // Fri, 10 Jan 2025 13:00:00 GMT

    private func wait(_ value: String) -> TimeInterval? {
        let response = HTTPURLResponse(
            url: URL(string: "http://127.0.0.1/")!, statusCode: 503, httpVersion: "HTTP/1.1",
            headerFields: ["Retry-After": value])
        return RetryPolicy.retryAfter(response, now: now)
    }

    func test_delaySeconds_areDigitsOnly() {
        XCTAssertEqual(wait("17"), 17)
        XCTAssertEqual(wait(" 0 "), 0)
        XCTAssertEqual(wait("3600"), 3600)
        for value in ["1e9", "-5", "0x10", "1.5", "+3", "", "soon"] {
            XCTAssertNil(wait(value), value)
        }
    }

    func test_anHTTPDate_isTheTimeUntilIt_neverLessThanNothing() {
        XCTAssertEqual(wait("Fri, 10 Jan 2025 13:01:00 GMT"), 60)
        XCTAssertEqual(wait("Fri, 10 Jan 2025 12:00:00 GMT"), 0)
    }
}
