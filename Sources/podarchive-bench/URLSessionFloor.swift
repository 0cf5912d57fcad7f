// The least any URLSession downloader does: data tasks, `parallel` at a time, whose delegate writes each chunk
// to its file and nothing else (no hash, no sync, no record, no rename). `make bench` runs it beside podarchive
// and curl, so what URLSession itself costs on this machine is measured, not assumed.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class URLSessionFloor: NSObject, URLSessionDataDelegate, Sendable {
    /// What is left to start, the files being written by task, and how it went.
    private let state: Locked<Progress>
    private let done = DispatchSemaphore(value: 0)
    /// Held here: OperationQueue keeps its underlying queue `unowned(unsafe)`.
    private let serial = DispatchQueue(label: "urlsession-floor", qos: .userInitiated)

    private struct Progress {
        var pending: [(url: URL, path: String)]
        var descriptors: [Int: Int32] = [:]
        var running = 0
        var failures = 0
        /// Made once `self` exists, as its delegate.
        var session: URLSession?
    }

    /// - Parameter jobs: lines of `URL<TAB>path`.
    init(jobs: [(url: URL, path: String)]) {
        state = Locked(Progress(pending: jobs.reversed()))
        super.init()
        // As podarchive's own delegate queue does: one serial dispatch queue, no Operation per chunk's closure.
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.underlyingQueue = serial
        let session = URLSession(configuration: .podarchive(), delegate: self, delegateQueue: queue)
        state.withLock { $0.session = session }
    }

    /// Downloads everything, `parallel` at a time. Returns the number of failed transfers, or nil when they did
    /// not all end within `timeout` seconds.
    func run(parallel: Int, timeout: TimeInterval) -> Int? {
        state.withLock { progress in
            for _ in 0..<parallel { startNext(&progress) }
        }
        guard done.wait(timeout: .now() + timeout) == .success else { return nil }
        return state.withLock { $0.failures }
    }

    /// Called with the lock held.
    private func startNext(_ progress: inout Progress) {
        guard let job = progress.pending.popLast() else {
            if progress.running == 0 { done.signal() }
            return
        }
        let descriptor = open(job.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0, let session = progress.session else {
            progress.failures += 1
            return startNext(&progress)
        }
        let task = session.dataTask(with: job.url)
        progress.descriptors[task.taskIdentifier] = descriptor
        progress.running += 1
        task.resume()
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let descriptor = state.withLock({ $0.descriptors[dataTask.taskIdentifier] }) else { return }
        _ = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        state.withLock { progress in
            if let descriptor = progress.descriptors.removeValue(forKey: task.taskIdentifier) { close(descriptor) }
            let status = (task.response as? HTTPURLResponse)?.statusCode ?? 0
            if error != nil || status != 200 { progress.failures += 1 }
            progress.running -= 1
            startNext(&progress)
        }
    }
}

/// One GET from an ephemeral session with a completion handler, nothing else: what asking for one feed costs a
/// process that uses URLSession (Foundation, the session, libcurl and its TLS library coming up, the request).
enum OneRequest {
    /// The response's status, or nil when the request failed or did not end within 60 seconds.
    static func status(of url: URL, ifModifiedSince date: String?) -> Int? {
        var request = URLRequest(url: url)
        if let date { request.setValue(date, forHTTPHeaderField: "If-Modified-Since") }
        let session = URLSession(configuration: .podarchive())
        let status = Locked<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: request) { _, response, _ in
            status.set((response as? HTTPURLResponse)?.statusCode)
            done.signal()
        }.resume()
        // Bounded: a server that never answers ends the wait, not the benchmark run.
        guard done.wait(timeout: .now() + 60) == .success else { return nil }
        return status.current
    }
}
