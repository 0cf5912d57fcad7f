// Canned feed responses by URL; any other URL fails the test instead of reaching the network.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A feed fetcher that answers from a table.
public final class StubFetcher: URLDataFetcher, Sendable {
    /// One canned response.
    public struct Answer: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The body.
        public var body: Data
        /// Response headers (`ETag` makes a request that sends it back answer `304`).
        public var headers: [String: String]

        /// A response.
        public init(status: Int, body: Data, headers: [String: String] = [:]) {
            self.status = status
            self.body = body
            self.headers = headers
        }
    }

    private let logger: RequestLogger
    private let answers: [String: Result<Answer, URLError>]
    private let unexpected: UnexpectedCalls

    /// - Parameter onUnexpected: called with a description of each request for a URL not in `answers` (a test's
    ///   failure hook, `XCTFail`); such a request also throws `URLError(.unsupportedURL)`.
    public init(
        logger: RequestLogger, answers: [String: Result<Answer, URLError>],
        onUnexpected: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.logger = logger
        self.answers = answers
        self.unexpected = UnexpectedCalls(report: onUnexpected)
    }

    /// Every request for a URL not in the table, described.
    public var unexpectedCalls: [String] { unexpected.calls }

    /// With `etag`, the feed answers `304` to a request that sends it back in `If-None-Match`, as servers do.
    public convenience init(
        logger: RequestLogger, feedURL: String, body: Data, status: Int = 200, etag: String? = nil,
        onUnexpected: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        let headers = etag.map { ["ETag": $0] } ?? [:]
        self.init(
            logger: logger, answers: [feedURL: .success(Answer(status: status, body: body, headers: headers))],
            onUnexpected: onUnexpected)
    }

    /// Answers from the table (`304` when the request sends back the answer's `ETag`).
    public func data(for request: URLRequest, maximumBytes: Int64) async throws -> (Data, URLResponse) {
        let url = request.url!.absoluteString
        await logger.log(.feed(url))
        guard let answer = answers[url] else {
            unexpected.record("unexpected feed request \(url)")
            throw URLError(.unsupportedURL)
        }
        var canned = try answer.get()
        if let etag = canned.headers["ETag"], request.value(forHTTPHeaderField: "If-None-Match") == etag {
            canned = Answer(status: 304, body: Data(), headers: canned.headers)
        }
        if Int64(canned.body.count) > maximumBytes { throw FetchError.tooLarge(limit: maximumBytes) }
        let response = HTTPURLResponse(
            url: request.url!, statusCode: canned.status, httpVersion: "HTTP/1.1", headerFields: canned.headers)!
        return (canned.body, response)
    }
}
