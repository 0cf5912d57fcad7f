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

    convenience init(logger: RequestLogger, feedURL: String, body: Data, status: Int = 200) {
        self.init(logger: logger, answers: [feedURL: .success(Answer(status: status, body: body, headers: [:]))])
    }

    func data(for request: URLRequest, delegate: (any URLSessionTaskDelegate)?) async throws -> (Data, URLResponse) {
        let url = request.url!.absoluteString
        await logger.log(.feed(url))
        guard let answer = answers[url] else {
            XCTFail("unexpected feed request \(url)")
            throw URLError(.unsupportedURL)
        }
        let canned = try answer.get()
        let response = HTTPURLResponse(
            url: request.url!, statusCode: canned.status, httpVersion: "HTTP/1.1", headerFields: canned.headers)!
        return (canned.body, response)
    }
}
