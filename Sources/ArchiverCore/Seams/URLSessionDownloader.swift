// The live FileDownloading: a URLSession data task streamed into a file descriptor.
//
// Measured on Linux (see the README's notes): the async `download(for:)` takes 2.5x curl's time for a 500 MB
// file and lands it in $TMPDIR, and a per-task download delegate writes every chunk twice. A data task whose
// session delegate writes each chunk itself is faster, but corelibs queues chunks to the delegate without any
// backpressure (RSS grew past 130 MB for one 500 MB file), and `suspend()`/`resume()` corrupts the body. So the
// delegate queue here admits a bounded number of pending chunks and makes libcurl's thread wait for a slot:
// memory stays flat whatever the file size, and the body is written exactly once, in order.
import CWriteback
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Streams downloads to disk through one shared URLSession.
public final class URLSessionDownloader: FileDownloading, Sendable {
    private let configuration: @Sendable () -> URLSessionConfiguration
    private let pendingChunks: Int
    private let delegate = StreamingDelegate()
    private let created: Locked<URLSession?> = Locked(nil)

    /// - Parameters:
    ///   - configuration: the session configuration (see `URLSessionConfiguration.podarchive`), made with the
    ///     session, on the first download.
    ///   - pendingChunks: how many received chunks may wait for the disk before the network waits.
    public init(
        configuration: @autoclosure @escaping @Sendable () -> URLSessionConfiguration = .podarchive(),
        pendingChunks: Int = 128
    ) {
        self.configuration = configuration
        self.pendingChunks = pendingChunks
    }

    /// Made on the first download: a nightly run with nothing new never starts libcurl's machinery.
    private var session: URLSession {
        created.withLock { created in
            if let created { return created }
            let queue = BoundedOperationQueue(slots: pendingChunks, label: "podarchive.downloads")
            delegate.registry.serial = queue.serial
            let session = URLSession(configuration: configuration(), delegate: delegate, delegateQueue: queue)
            created = session
            return session
        }
    }

    deinit {
        created.current?.finishTasksAndInvalidate()
    }

    /// Every way a transfer ends resolves its `OneShot` exactly once: the delegate's completion, a stop decided
    /// here (a refused response, a failed write, a 401 challenge), or, when the caller's task is cancelled,
    /// corelibs' completion of the cancelled task or else a fallback a few seconds later. So no download waits
    /// forever, even if corelibs drops a completion (it does, for a task cancelled before it started).
    public func download(
        _ request: URLRequest, to destination: URL, options: DownloadOptions
    ) async throws -> DownloadResult {
        try Task.checkCancellation()
        // A fresh download starts from an empty file; a resume keeps the bytes until the response says 206.
        let truncate = options.resumeOffset > 0 ? 0 : O_TRUNC
        let descriptor = open(destination.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | truncate, 0o644)
        guard descriptor >= 0 else {
            let code = errno
            throw DownloadError.file(path: destination.path, reason: String(cString: strerror(code)), code: code)
        }
        let session = self.session
        let task = session.dataTask(with: request)
        let transfer = Transfer(descriptor: descriptor, path: destination.path, options: options)
        delegate.registry.register(transfer, for: task)
        return try await withTaskCancellationHandler {
            task.resume()
            return try await transfer.outcome.value()
        } onCancel: { [delegate] in
            delegate.cancel(task)
        }
    }
}

extension URLSessionConfiguration {
    /// podarchive's session settings: no cache, no cookies kept, a User-Agent of its own, an idle timeout.
    public static func podarchive(idleTimeout: TimeInterval = 60) -> URLSessionConfiguration {
        let configuration = SessionTemplate.copy()  // not `.ephemeral`, which makes cache folders on Linux
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = idleTimeout
        // The archiver's --jobs is the limit; URLSession's own default of 6 per host would queue the rest silently
        // while their deadlines run.
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.httpAdditionalHeaders = ["User-Agent": PodarchiveVersion.userAgent]
        // Proxies: libcurl reads http_proxy, https_proxy and no_proxy from the environment itself, and corelibs
        // sets none of its own while connectionProxyDictionary is nil.
        return configuration
    }
}

/// Only http and https, on every redirect too: libcurl would otherwise follow `ftp:` and worse.
enum RedirectGuard {
    static func allows(_ url: URL?) -> Bool { WebScheme.isWeb(url) }

    /// The location a redirect must be refused for, or nil when it may be followed. corelibs turns a `Location`
    /// of `file:///etc/passwd` or `data:...` into a request for `http://same-host/etc/passwd`, so the header as
    /// the server sent it is judged, not only the request made from it.
    static func refusal(of response: HTTPURLResponse, request: URLRequest) -> String? {
        if let location = response.value(forHTTPHeaderField: "Location")?.trimmingCharacters(in: .whitespaces),
            let scheme = WebScheme.of(location), !WebScheme.isWeb(scheme)
        {
            return location
        }
        return allows(request.url) ? nil : request.url?.absoluteString ?? "(none)"
    }

    /// The request a redirect of `task` is followed with: URLSession copies every header of the request before
    /// it, so credentials are dropped and then added back only for the new request's own origin.
    static func authorized(_ request: URLRequest, of task: URLSessionTask, by profile: RequestProfile?) -> URLRequest {
        guard let profile else { return request }
        var request = request
        profile.authorize(&request, firstURL: task.originalRequest?.url)
        return request
    }
}

// MARK: - One transfer

/// The state of one download; touched only on the session's serial delegate queue.
private final class Transfer: @unchecked Sendable {
    // Safe to share: its variables are touched only on the session's serial delegate queue (every delegate call,
    // and the registry's late cancellation, run there); the caller only waits on `outcome`, which is Sendable.
    // Not a `Locked` value: a lock per 16 KB chunk would guard nothing the queue does not already order.
    let descriptor: Int32
    let path: String
    let options: DownloadOptions
    let outcome = OneShot<DownloadResult>()
    var response: URLResponse?
    var accepted = false
    var appending = false
    var offset: Int64 = 0
    var written: Int64 = 0
    var hasher = SHA256()
    /// The publisher's algorithm, when it is asked for (see `DownloadOptions.integrityAlgorithm`).
    var integrity: IntegrityHasher?
    var leading = Data()
    var failure: Error?
    var refusedLocation: String?
    /// How the accepted body is sent: decoded as it arrives, judged complete when it ends (see `BodyFraming`).
    private var framing: BodyFraming?
    /// Where the last early writeback ended (see `write`).
    private var writebackMark: Int64 = 0
    /// How much is written between two early writebacks.
    static let writebackInterval: Int64 = 8 << 20
    /// Received bytes not yet written to the file (see `write`): while libcurl's chunks arrive full (16 KB), they
    /// go to the file in writes of up to `bufferSize`, so a 256 KB episode is two write(2) calls instead of sixteen.
    private var buffer: UnsafeMutableRawBufferPointer?
    private var buffered = 0
    /// Bytes of the body in the file so far (`written` less what `buffer` holds).
    private var flushed: Int64 = 0
    /// The most a transfer holds in memory before writing.
    static let bufferSize = 128 << 10
    /// libcurl's largest chunk (CURL_MAX_WRITE_SIZE): chunks this size mean the network is ahead of the writes.
    static let fullChunk = 16 << 10

    init(descriptor: Int32, path: String, options: DownloadOptions) {
        self.descriptor = descriptor
        self.path = path
        self.options = options
        // A publisher's SHA-256 is the digest already computed: no second hash of it.
        integrity = options.integrityAlgorithm.flatMap { $0 == .sha256 ? nil : IntegrityHasher($0) }
    }

    /// Decides from the headers whether the body continues the file or replaces it, and how it is framed. False
    /// stops the transfer.
    func accept(_ response: URLResponse, method: String?) -> Bool {
        self.response = response
        guard Self.isSuccess(response) else { return false }
        let http = response as? HTTPURLResponse
        if let http {
            do {
                framing = try BodyFraming(http, method: method)
            } catch {
                failure = DownloadError(error)
                return false
            }
        }
        if let http, http.statusCode == 206 {
            if let refusal = options.refusal(of: http) {
                failure = DownloadError.unexpectedRange(refusal)
                return false
            }
            appending = true
        } else if let http, framing?.isEncoded == false, let size = framing?.announced,
            let contradiction = options.contradiction(of: http, size: size)
        {
            failure = DownloadError.contradicted(contradiction)
            return false
        }
        do {
            if appending {
                try seedFromExistingBytes(options.resumeOffset)
            } else if options.resumeOffset > 0, ftruncate(descriptor, 0) != 0 {
                throw fileError()  // The server sent the whole file: the earlier bytes go.
            }
            guard lseek(descriptor, off_t(offset), SEEK_SET) >= 0 else { throw fileError() }
        } catch {
            failure = error
            return false
        }
        if let http, let refusal = options.admit?(http, appending) {
            failure = refusal
            return false
        }
        accepted = true
        return true
    }

    /// Hashes the bytes an earlier attempt left, so the digest covers the whole file, and drops anything past them.
    private func seedFromExistingBytes(_ count: Int64) throws {
        guard ftruncate(descriptor, off_t(count)) == 0 else { throw fileError() }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        var position: Int64 = 0
        while position < count {
            let chunk = pread(descriptor, buffer.baseAddress, min(buffer.count, Int(count - position)), off_t(position))
            if chunk < 0, errno == EINTR { continue }
            guard chunk > 0 else {
                throw chunk == 0
                    ? DownloadError.unexpectedRange("the partial file is shorter than expected") : fileError()
            }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<chunk])
            hasher.update(bytes)
            integrity?.update(bytes)
            if leading.count < 512 { leading.append(contentsOf: bytes.prefix(512 - leading.count)) }
            position += Int64(chunk)
        }
        offset = count
    }

    /// Takes one chunk of the body as libcurl delivered it (~16 KB, as the server sent it), decoded by its framing
    /// into pieces of 64 KB at most, each written in turn (`write`). False stops the transfer (`failure` says why).
    func take(_ data: Data) -> Bool {
        guard let framing else { return data.withUnsafeBytes(write) }
        do {
            try framing.take(data) { decoded in
                guard write(decoded) else { throw Stopped() }
            }
            return true
        } catch is Stopped {
            return false
        } catch {
            failure = DownloadError(error)
            return false
        }
    }

    /// `write` refused a piece: `failure` says why.
    private struct Stopped: Error {}

    /// Takes a piece of the body, decoded, or refuses it when the file would pass `options.maximumBytes`: the only
    /// place body bytes reach the file, so the cap holds with or without a Content-Length, whatever the
    /// Content-Encoding. The piece is hashed at once and written with those after it (see `bufferSize`); every byte
    /// is in the file before the transfer's end is reported (`finish`). False stops the transfer.
    private func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if let limit = options.maximumBytes, offset + written + Int64(bytes.count) > limit {
            failure = DownloadError.tooLarge(limit: limit)
            return false
        }
        if leading.count < 512 { leading.append(contentsOf: bytes.prefix(512 - leading.count)) }
        hasher.update(bytes)
        integrity?.update(bytes)
        if buffered + bytes.count > Self.bufferSize, !flush() { return false }
        let ok: Bool
        if bytes.count >= Self.bufferSize {
            ok = writeOut(bytes)
        } else {
            let buffer =
                self.buffer ?? UnsafeMutableRawBufferPointer.allocate(byteCount: Self.bufferSize, alignment: 16)
            self.buffer = buffer
            UnsafeMutableRawBufferPointer(rebasing: buffer[buffered..<(buffered + bytes.count)]).copyMemory(from: bytes)
            buffered += bytes.count
            // A piece short of libcurl's most is a network slower than the disk: nothing is gained by waiting,
            // and the file (a resume's start, the progress shown, the space claim) keeps up with what arrived.
            ok = bytes.count >= Self.fullChunk || flush()
        }
        if ok { written += Int64(bytes.count) }
        return ok
    }

    /// Writes what `buffer` holds to the file; false (and `failure` set) when the write failed.
    @discardableResult
    private func flush() -> Bool {
        guard buffered > 0, let buffer else { return true }
        defer { buffered = 0 }
        return writeOut(UnsafeRawBufferPointer(rebasing: buffer[0..<buffered]))
    }

    /// Writes `bytes` to the file and reports them (the space claim and progress count what is on disk).
    private func writeOut(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let code = FileDescriptor.writeAll(bytes, to: descriptor)
        guard code == 0 else {
            errno = code
            failure = fileError()
            return false
        }
        flushed += Int64(bytes.count)
        // The fsync before the rename would otherwise write the whole file at the end, while nothing else
        // happens; started early, the disk writes while the network reads. Only a hint: errors are ignored.
        if flushed - writebackMark >= Self.writebackInterval {
            _ = podarchive_start_writeback(descriptor, offset + writebackMark, flushed - writebackMark)
            writebackMark = flushed
        }
        options.progress?(offset + flushed)
        return true
    }

    private func fileError() -> DownloadError {
        let code = errno
        return DownloadError.file(path: path, reason: String(cString: strerror(code)), code: code)
    }

    /// Closes the file and hands over the result; runs once, on the delegate queue, after the transfer left the
    /// registry (nothing else touches it any more).
    func finish(error: Error?) {
        options.transferEnded?()
        // What was received is in the file however the transfer ended: a resume continues from it.
        if accepted, failure == nil { flush() }
        if accepted, error == nil, failure == nil { judgeFraming() }
        buffer?.deallocate()
        buffer = nil
        // A complete body reaches the disk before anyone renames it into place: after a power cut the final
        // name never holds a file the kernel had not written yet. The fsync runs off the serial delegate queue,
        // so the other transfers keep streaming meanwhile and the file system can commit several at once. (No
        // writeback is started here: the fsync starts it, off this queue, which every transfer's chunks wait on.)
        guard accepted, error == nil, failure == nil else { return conclude(error: error, sync: false) }
        Self.syncing.addOperation { self.conclude(error: error, sync: true) }
    }

    /// Where finished files are synced: a queue of its own, not `DispatchQueue.global()`, whose threads (two on a
    /// two-core machine) are the ones Swift's tasks run on; an fsync waiting for the disk there stalls every task
    /// of the run, the sync's own included. Several at once, so the fsyncs of files that finish together overlap;
    /// a bounded number, so a run of many tiny files never holds a thread per file.
    private static let syncing: OperationQueue = {
        let queue = OperationQueue()
        queue.name = "podarchive.fsync"
        queue.maxConcurrentOperationCount = 8
        return queue
    }()

    /// A body that ended without a transport error is complete only when its framing says so, and when its size
    /// is the one announced before for the same version (see `DownloadOptions.contradiction`).
    private func judgeFraming() {
        do {
            try framing?.end()
        } catch FramingFailure.length(let expected, let received) {
            failure = DownloadError.lengthMismatch(expected: offset + expected, received: offset + received)
        } catch {
            failure = DownloadError(error)
        }
        if failure == nil, let http = response as? HTTPURLResponse,
            let contradiction = options.contradiction(of: http, size: offset + written)
        {
            failure = DownloadError.contradicted(contradiction)
        }
    }

    private func conclude(error: Error?, sync: Bool) {
        let syncFailure = sync && fsync(descriptor) != 0 ? fileError() : nil
        let closeFailure = close(descriptor) == 0 ? syncFailure : fileError()
        if let failure {
            outcome.deliver(.failure(failure))
        } else if let refusedLocation {
            outcome.deliver(.failure(DownloadError.refusedRedirect(location: refusedLocation)))
        } else if let closeFailure, accepted {
            outcome.deliver(.failure(closeFailure))
        } else if let response, error == nil || !accepted {
            // A non-2xx response is stopped on purpose after its headers: report it, not the cancellation.
            var result = DownloadResult(
                response: response, bytesWritten: written, fileSize: offset + written,
                sha256: accepted ? hasher.hexDigest() : "", leadingBytes: leading)
            if accepted, let algorithm = options.integrityAlgorithm {
                result.integrityDigest = algorithm == .sha256 ? hasher.finalize() : integrity?.finalize()
            }
            outcome.deliver(.success(result))
        } else {
            // A body cut short says where, in the whole file's bytes (a resumed one's earlier bytes included).
            let received = offset + (framing?.received ?? written)
            let reason = error.map {
                TransportReason.describe($0, received: received, of: framing?.announced.map { offset + $0 })
            }
            outcome.deliver(.failure(DownloadError.transport(reason ?? "no response")))
        }
    }

    static func isSuccess(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else { return true }
        return (200..<300).contains(http.statusCode)
    }
}

// MARK: - Session delegate

private final class StreamingDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let registry = TransferRegistry<Transfer>()

    private func transfer(_ task: URLSessionTask) -> Transfer? { registry.transfer(task) }

    /// Ends the transfer now, on the delegate queue, and lets the task go.
    private func stop(_ task: URLSessionTask, error: Error? = nil) {
        registry.remove(task)?.finish(error: error)
        TransferRegistry<Transfer>.cancelOffQueue(task)
    }

    /// The caller's task was cancelled: see `TransferRegistry.cancel`.
    func cancel(_ task: URLSessionTask) {
        registry.cancel(task) { $0.finish(error: URLError(.cancelled)) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted = transfer(dataTask)?.accept(response, method: dataTask.originalRequest?.httpMethod) ?? false
        // corelibs ignores this disposition and delivers the body anyway, so didReceive(data:) checks too.
        completionHandler(accepted ? .allow : .cancel)
        if !accepted { stop(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let transfer = transfer(dataTask), transfer.accepted, transfer.failure == nil else { return }
        if !transfer.take(data) {
            stop(dataTask)
            return
        }
        transfer.options.policy.throttle?.wait(for: data.count) { registry.isOver(dataTask) }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        if let refused = RedirectGuard.refusal(of: response, request: request) {
            transfer(task)?.refusedLocation = refused
            completionHandler(nil)
        } else {
            completionHandler(RedirectGuard.authorized(request, of: task, by: transfer(task)?.options.policy.profile))
        }
    }

    /// A 401: corelibs asks for credentials and, whatever the answer short of a credential, never completes the
    /// task (measured). The 401 is the result: report it and cancel.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
        if let transfer = transfer(task), let failure = challenge.failureResponse, transfer.response == nil {
            transfer.response = failure
        }
        stop(task)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        registry.remove(task)?.finish(error: error)
    }
}
