// Canned feed responses by URL; any other URL fails the test instead of reaching the network.
import ArchiverCore
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class StubFetcher: URLDataFetcher, @unchecked Sendable {
    struct Answer {
        var status: Int
        var body: Data
        var headers: [String: String]
    }

    private let logger: RequestLogger
    private let answers: [String: Result<Answer, URLError>]

    init(logger: RequestLogger, answers: [String: Result<Answer, URLError>]) {
        self.logger = logger
        self.answers = answers
    }

    /// With `etag`, the feed answers `304` to a request that sends it back in `If-None-Match`, as servers do.
    convenience init(logger: RequestLogger, feedURL: String, body: Data, status: Int = 200, etag: String? = nil) {
        let headers = etag.map { ["ETag": $0] } ?? [:]
        self.init(logger: logger, answers: [feedURL: .success(Answer(status: status, body: body, headers: headers))])
    }

    func data(for request: URLRequest, maximumBytes: Int64) async throws -> (Data, URLResponse) {
        let url = request.url!.absoluteString
        await logger.log(.feed(url))
        guard let answer = answers[url] else {
            XCTFail("unexpected feed request \(url)")
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
