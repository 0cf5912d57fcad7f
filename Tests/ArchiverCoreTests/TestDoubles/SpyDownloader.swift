// Records each download in the shared log and "streams" a canned body into the fake file system.
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
    private var canned: [String: Canned]
    private var requestsSeen: [URLRequest] = []

    init(logger: RequestLogger, fileSystem: FakeFileSystem, canned: [String: Canned] = [:]) {
        self.logger = logger
        self.fileSystem = fileSystem
        self.canned = canned
    }

    var requests: [URLRequest] { lock.withLock { requestsSeen } }

    func download(_ request: URLRequest, to destination: URL) async throws -> DownloadResult {
        let url = request.url!.absoluteString
        await logger.log(.episode(url))
        let answer = lock.withLock { () -> Canned? in
            requestsSeen.append(request)
            return canned[url]
        }
        guard let answer else {
            XCTFail("unexpected download \(url)")
            throw DownloadError.transport("unexpected")
        }
        if let error = answer.error { throw error }
        let success = (200..<300).contains(answer.status)
        try fileSystem.writeAtomically(success ? answer.body : Data(), to: destination)
        var headers = answer.headers
        if headers["Content-Length"] == nil { headers["Content-Length"] = String(answer.body.count) }
        let response = HTTPURLResponse(
            url: request.url!, statusCode: answer.status, httpVersion: "HTTP/1.1", headerFields: headers)!
        let written = success ? Int64(answer.body.count) : 0
        return DownloadResult(
            response: response, bytesWritten: written, leadingBytes: success ? answer.body.prefix(512) : Data())
    }
}
