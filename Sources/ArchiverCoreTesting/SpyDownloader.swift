// Records each download in the shared log and "streams" canned answers into the fake file system, in order
// (the last answer repeats), so tests can script "500, then 200". A download nobody scripted is reported.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A downloader that answers from a script and writes bodies into a `FakeFileSystem`.
public final class SpyDownloader: FileDownloading, Sendable {
    /// One scripted answer: a status, a body and headers, or an error instead.
    public struct Canned: Sendable {
        /// The HTTP status.
        public var status = 200
        /// The body, written to the destination for a 2xx status.
        public var body = Data()
        /// Response headers; `Content-Length` is added when absent.
        public var headers: [String: String] = [:]
        /// Thrown instead of answering.
        public var error: DownloadError?

        /// An answer (by default an empty `200`).
        public init(
            status: Int = 200, body: Data = Data(), headers: [String: String] = [:], error: DownloadError? = nil
        ) {
            self.status = status
            self.body = body
            self.headers = headers
            self.error = error
        }
    }

    private let logger: RequestLogger
    private let fileSystem: FakeFileSystem
    /// The answers still to give by URL, and the requests made, changed together.
    private let state: Locked<(answers: [String: [Canned]], requests: [URLRequest])>
    private let unexpected: UnexpectedCalls

    /// - Parameters:
    ///   - canned: the answer for each URL (see `script` for a sequence).
    ///   - onUnexpected: called with a description of each download nobody scripted (a test's failure hook,
    ///     `XCTFail`); such a download also throws `DownloadError.transport`.
    public init(
        logger: RequestLogger, fileSystem: FakeFileSystem, canned: [String: Canned] = [:],
        onUnexpected: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.logger = logger
        self.fileSystem = fileSystem
        self.state = Locked((canned.mapValues { [$0] }, []))
        self.unexpected = UnexpectedCalls(report: onUnexpected)
    }

    /// Every download nobody scripted, described.
    public var unexpectedCalls: [String] { unexpected.calls }

    /// Answers `url` with each of `sequence` in turn (the last one repeats).
    public func script(_ url: String, _ sequence: [Canned]) {
        state.withLock { $0.answers[url] = sequence }
    }

    /// Every request made, in order.
    public var requests: [URLRequest] { state.withLock { $0.requests } }

    /// Answers with the next scripted answer for the URL.
    public func download(_ request: URLRequest, to destination: URL, options: DownloadOptions) async throws
        -> DownloadResult
    {
        let url = request.url!.absoluteString
        await logger.log(.episode(url))
        let answer = state.withLock { state -> Canned? in
            state.requests.append(request)
            guard var queue = state.answers[url], let first = queue.first else { return nil }
            if queue.count > 1 { queue.removeFirst() }
            state.answers[url] = queue
            return first
        }
        guard let answer else {
            unexpected.record("unexpected download \(url)")
            throw DownloadError.transport("unexpected download \(url)")
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
        // The live downloader stops a body at the cap as it arrives, whatever the headers said.
        if let limit = options.maximumBytes, answer.body.count > limit { throw DownloadError.tooLarge(limit: limit) }
        // The body "arrives" in two halves, each on disk before it is reported, as a network transfer writes and
        // reports progress; a full disk fails the transfer as the live downloader's does.
        for end in [answer.body.count / 2, answer.body.count] {
            do {
                try fileSystem.writeAtomically(answer.body.prefix(end), to: destination)
            } catch let error as CocoaError where error.code == .fileWriteOutOfSpace {
                throw DownloadError.file(path: destination.path, reason: "No space left on device", code: ENOSPC)
            }
            options.progress?(Int64(end))
            await Task.yield()
        }
        var result = DownloadResult(
            response: response, bytesWritten: Int64(answer.body.count), sha256: SHA256.hex(answer.body),
            leadingBytes: answer.body.prefix(512))
        if let algorithm = options.integrityAlgorithm {
            var hasher = IntegrityHasher(algorithm)
            answer.body.withUnsafeBytes { hasher.update($0) }
            result.integrityDigest = hasher.finalize()
        }
        return result
    }
}
