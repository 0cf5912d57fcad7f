// The live FileDownloading: a URLSession data task streamed into a file descriptor.
//
// Measured on Linux (see the README's notes): the async `download(for:)` takes 2.5x curl's time for a 500 MB
// file and lands it in $TMPDIR, and a per-task download delegate writes every chunk twice. A data task whose
// session delegate writes each chunk itself is faster, but corelibs queues chunks to the delegate without any
// backpressure (RSS grew past 130 MB for one 500 MB file), and `suspend()`/`resume()` corrupts the body. So the
// delegate queue here admits a bounded number of pending chunks and makes libcurl's thread wait for a slot:
// memory stays flat whatever the file size, and the body is written exactly once, in order.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemWrite = Darwin.write
#endif

/// Streams downloads to disk through one shared URLSession.
public final class URLSessionDownloader: FileDownloading, @unchecked Sendable {
    private let session: URLSession
    private let delegate: StreamingDelegate

    /// - Parameters:
    ///   - configuration: the session configuration (see `URLSessionConfiguration.podarchive`).
    ///   - pendingChunks: how many received chunks may wait for the disk before the network waits.
    public init(configuration: URLSessionConfiguration = .podarchive(), pendingChunks: Int = 32) {
        delegate = StreamingDelegate()
        let queue = BoundedOperationQueue(slots: pendingChunks)
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    public func download(_ request: URLRequest, to destination: URL) async throws -> DownloadResult {
        let descriptor = open(destination.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw DownloadError.file(path: destination.path, reason: String(cString: strerror(errno)))
        }
        let task = session.dataTask(with: request)
        let transfer = Transfer(descriptor: descriptor, path: destination.path)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                transfer.continuation = continuation
                delegate.register(transfer, for: task.taskIdentifier)
                task.resume()
            }
        } onCancel: {
            task.cancel()
        }
    }
}

extension URLSessionConfiguration {
    /// podarchive's session settings: no cache, no cookies kept, a User-Agent of its own, an idle timeout.
    public static func podarchive(idleTimeout: TimeInterval = 60) -> URLSessionConfiguration {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = idleTimeout
        configuration.httpAdditionalHeaders = ["User-Agent": PodarchiveVersion.userAgent]
        return configuration
    }
}

/// The URLSession that fetches feeds: it refuses redirects to anything but http(s), as downloads do.
public enum FeedSession {
    public static func make(configuration: URLSessionConfiguration = .podarchive()) -> URLSession {
        URLSession(configuration: configuration, delegate: RedirectGuard(), delegateQueue: nil)
    }
}

/// Only http and https, on every redirect too: libcurl would otherwise follow `ftp:` and worse.
final class RedirectGuard: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    static func allows(_ url: URL?) -> Bool {
        guard let scheme = url?.scheme?.lowercased() else { return false }
        return scheme == "http" || scheme == "https"
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        completionHandler(Self.allows(request.url) ? request : nil)
    }
}

// MARK: - One transfer

/// The state of one download; touched only on the session's serial delegate queue.
private final class Transfer: @unchecked Sendable {
    let descriptor: Int32
    let path: String
    var continuation: CheckedContinuation<DownloadResult, Error>?
    var response: URLResponse?
    var written: Int64 = 0
    var leading = Data()
    var failure: Error?
    var refusedLocation: String?

    init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    func write(_ data: Data) -> Bool {
        if leading.count < 512 { leading.append(data.prefix(512 - leading.count)) }
        let ok = data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            var offset = 0
            while offset < buffer.count {
                let count = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        if ok {
            written += Int64(data.count)
        } else {
            failure = DownloadError.file(path: path, reason: String(cString: strerror(errno)))
        }
        return ok
    }

    func finish(error: Error?) {
        let closed = close(descriptor) == 0
        guard let continuation else { return }
        self.continuation = nil
        if let failure {
            continuation.resume(throwing: failure)
        } else if let refusedLocation {
            continuation.resume(throwing: DownloadError.refusedRedirect(location: refusedLocation))
        } else if let response, error == nil || !Self.isSuccess(response) {
            // A non-2xx response was stopped on purpose after its headers: report it, not the cancellation.
            guard closed else {
                continuation.resume(throwing: DownloadError.file(path: path, reason: String(cString: strerror(errno))))
                return
            }
            continuation.resume(
                returning: DownloadResult(response: response, bytesWritten: written, leadingBytes: leading))
        } else {
            continuation.resume(throwing: DownloadError.transport(Self.describe(error)))
        }
    }

    static func isSuccess(_ response: URLResponse) -> Bool {
        guard let http = response as? HTTPURLResponse else { return true }
        return (200..<300).contains(http.statusCode)
    }

    static func describe(_ error: Error?) -> String {
        error.map(TransportReason.describe) ?? "no response"
    }
}

// MARK: - Session delegate

private final class StreamingDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]

    func register(_ transfer: Transfer, for identifier: Int) {
        lock.withLock { transfers[identifier] = transfer }
    }

    private func transfer(_ task: URLSessionTask, remove: Bool = false) -> Transfer? {
        lock.withLock { remove ? transfers.removeValue(forKey: task.taskIdentifier) : transfers[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        transfer(dataTask)?.response = response
        // The caller only needs an error page's status. (corelibs ignores this disposition and delivers the
        // body anyway, so didReceive(data:) also refuses to write it.)
        completionHandler(Transfer.isSuccess(response) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        // corelibs delivers the body even after a `.cancel` disposition: never write an error page's body.
        guard let transfer = transfer(dataTask), transfer.failure == nil,
            let response = transfer.response, Transfer.isSuccess(response)
        else { return }
        if !transfer.write(data) {
            // cancel() does workQueue.sync in corelibs, and libcurl's thread may be waiting right now for a
            // slot on this very queue: cancel from elsewhere, or the two would wait for each other forever.
            DispatchQueue.global().async { dataTask.cancel() }
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        if RedirectGuard.allows(request.url) {
            completionHandler(request)
        } else {
            transfer(task)?.refusedLocation = request.url?.absoluteString ?? "(none)"
            completionHandler(nil)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        transfer(task, remove: true)?.finish(error: error)
    }
}

/// An OperationQueue that makes the enqueuing thread wait once `slots` operations are pending.
private final class BoundedOperationQueue: OperationQueue, @unchecked Sendable {
    private let slots: DispatchSemaphore

    init(slots: Int) {
        self.slots = DispatchSemaphore(value: slots)
        super.init()
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        slots.wait()
        super.addOperation { [slots] in
            block()
            slots.signal()
        }
    }
}
