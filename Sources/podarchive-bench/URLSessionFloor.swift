// The least any URLSession downloader does: data tasks, `parallel` at a time, whose delegate writes each chunk
// to its file and nothing else (no hash, no sync, no record, no rename). `make bench` runs it beside podarchive
// and curl, so what URLSession itself costs on this machine is measured, not assumed.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class URLSessionFloor: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var pending: [(url: URL, path: String)]
    private var descriptors: [Int: Int32] = [:]
    private var running = 0
    private var failures = 0
    private let done = DispatchSemaphore(value: 0)
    private var session: URLSession!
    /// Held here: OperationQueue keeps its underlying queue `unowned(unsafe)`.
    private let serial = DispatchQueue(label: "urlsession-floor", qos: .userInitiated)

    /// - Parameter jobs: lines of `URL<TAB>path`.
    init(jobs: [(url: URL, path: String)]) {
        pending = jobs.reversed()
        super.init()
        // As podarchive's own delegate queue does: one serial dispatch queue, no Operation per chunk's closure.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.underlyingQueue = serial
        session = URLSession(configuration: .ephemeral, delegate: self, delegateQueue: queue)
    }

    /// Downloads everything, `parallel` at a time. Returns the number of failed transfers, or nil when they did
    /// not all end within `timeout` seconds.
    func run(parallel: Int, timeout: TimeInterval) -> Int? {
        lock.withLock {
            for _ in 0..<parallel { startNext() }
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return lock.withLock { failures }
    }

    /// Called with the lock held.
    private func startNext() {
        guard let job = pending.popLast() else {
            if running == 0 { done.signal() }
            return
        }
        let descriptor = open(job.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            failures += 1
            return startNext()
        }
        let task = session.dataTask(with: job.url)
        descriptors[task.taskIdentifier] = descriptor
        running += 1
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let descriptor = lock.withLock({ descriptors[dataTask.taskIdentifier] }) else { return }
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.withLock {
            if let descriptor = descriptors.removeValue(forKey: task.taskIdentifier) { close(descriptor) }
            let status = (task.response as? HTTPURLResponse)?.statusCode ?? 0
            if error != nil || status != 200 { failures += 1 }
            running -= 1
            startNext()
        }
    }
}
