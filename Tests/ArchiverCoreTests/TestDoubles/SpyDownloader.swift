// Records each download in the shared log and "streams" canned answers into the fake file system, in order
// (the last answer repeats), so tests can script "500, then 200".
import ArchiverCore
import Foundation
import XCTest

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class SpyDownloader: FileDownloading, @unchecked Sendable {
    struct Canned {
        var status = 200
        var body = Data()
        var headers: [String: String] = [:]
        var error: DownloadError?
    }

    private let logger: RequestLogger
    private let fileSystem: FakeFileSystem
    private let lock = NSLock()
    private var answers: [String: [Canned]]
    private var requestsSeen: [URLRequest] = []

    init(logger: RequestLogger, fileSystem: FakeFileSystem, canned: [String: Canned] = [:]) {
        self.logger = logger
        self.fileSystem = fileSystem
        self.answers = canned.mapValues { [$0] }
    }

    /// Answers `url` with each of `sequence` in turn.
    func script(_ url: String, _ sequence: [Canned]) {
        lock.withLock { answers[url] = sequence }
    }

    var requests: [URLRequest] { lock.withLock { requestsSeen } }

    func download(_ request: URLRequest, to destination: URL, options: DownloadOptions) async throws -> DownloadResult {
        let url = request.url!.absoluteString
        await logger.log(.episode(url))
        let answer = lock.withLock { () -> Canned? in
            requestsSeen.append(request)
            guard var queue = answers[url], let first = queue.first else { return nil }
            if queue.count > 1 { queue.removeFirst() }
            answers[url] = queue
            return first
        }
        guard let answer else {
            XCTFail("unexpected download \(url)")
            throw DownloadError.transport("unexpected")
        }
        if let error = answer.error { throw error }
        var headers = answer.headers
        if headers["Content-Length"] == nil { headers["Content-Length"] = String(answer.body.count) }
        let response = HTTPURLResponse(
            url: request.url!, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: headers)!
        guard (200..<300).contains(answer.status) else {
            return DownloadResult(response: response, bytesWritten: 0, leadingBytes: Data())
        }
        if let refusal = options.admit?(response, false) { throw refusal }
        // The body "arrives" in two halves, as a network transfer reports progress.
        options.progress?(Int64(answer.body.count / 2))
        try fileSystem.writeAtomically(answer.body, to: destination)
        options.progress?(Int64(answer.body.count))
        return DownloadResult(
            response: response, bytesWritten: Int64(answer.body.count), sha256: SHA256.hex(answer.body),
            leadingBytes: answer.body.prefix(512))
    }
}
