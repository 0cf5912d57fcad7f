// The live URLDataFetcher: a URLSession data task whose body is gathered in memory, up to a cap.
//
// URLSession's own `data(for:)` cannot be stopped part-way (a 200 KB gzip response that inflates to 20 GB would
// be inflated whole), never completes on a 401 on Linux (see the notes), and cannot refuse a redirect to another
// scheme by itself. So feeds are fetched here, with the downloader's machinery: a session delegate on a bounded
// serial queue (libcurl waits while chunks are pending, so memory stays within the cap), and a OneShot that
// every way a fetch can end resolves exactly once. A 2xx body is decoded and judged complete by `BodyFraming`.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Fetches feeds: only http(s), on every redirect too; at most `maximumBytes` of body; a 401 returned as such.
public final class FeedSession: URLDataFetcher, Sendable {
    private let configuration: @Sendable () -> URLSessionConfiguration
    /// The session and its delegate, made together by the first `fetch` or by `prepare`'s thread: the delegate's
    /// registry (a dictionary by task) is a type the runtime looks up when first made, off the process's start.
    private let created: Locked<(session: URLSession, delegate: FeedDelegate)?> = Locked(nil)
    private let prepared = Locked(false)

    /// - Parameter configuration: the session configuration (see `URLSessionConfiguration.podarchive`), made
    ///   with the session, when the first fetch or `prepare` needs it.
    public init(configuration: @autoclosure @escaping @Sendable () -> URLSessionConfiguration = .podarchive()) {
        self.configuration = configuration
    }

    deinit {
        created.current?.session.finishTasksAndInvalidate()
    }

    private var session: (session: URLSession, delegate: FeedDelegate) {
        created.withLock { created in
            if let created { return created }
            let delegate = FeedDelegate()
            let queue = BoundedOperationQueue(slots: 64, label: "podarchive.feeds")
            delegate.registry.serial = queue.serial
            let made = (URLSession(configuration: configuration(), delegate: delegate, delegateQueue: queue), delegate)
            created = made
            return made
        }
    }

    /// Starts making the session (and so loading libcurl's and OpenSSL's configuration, about a millisecond) on a
    /// thread of its own, and returns at once: a program about to fetch calls it first thing, so that the session
    /// is ready by the time it has read from disk what its first request needs. The first request takes the same
    /// lock, so it waits for this, never repeats it; later calls do nothing. What corelibs reads once, the first
    /// time a task starts, is read here too: the current locale (every request says its language,
    /// `Accept-Language`) and the process's name (in its default `User-Agent`). A thread, not a global queue:
    /// the queue's workers are busy with the caller's own start-up, and its block started a millisecond late.
    public func prepare() {
        let first = prepared.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        Self.preparing.enter()
        Thread { [self] in
            defer { Self.preparing.leave() }
            _ = session
            #if canImport(FoundationNetworking)
                _ = NSLocale.current.languageCode
                _ = ProcessInfo.processInfo.processName
            #endif
        }.start()
    }

    /// Waits, at most `timeout` seconds, for the set-ups `prepare` started: a process that leaves through
    /// `exit(3)` must not run OpenSSL's clean-up while its set-up is under way on another thread. True when
    /// none is left.
    public static func preparationsEnded(within timeout: TimeInterval) -> Bool {
        preparing.wait(timeout: .now() + timeout) == .success
    }

    private static let preparing = DispatchGroup()

    /// The body (at most `maximumBytes`, decoded) and final response of `request`; see `URLDataFetcher`.
    public func data(for request: URLRequest, maximumBytes: Int64) async throws -> (Data, URLResponse) {
        let fetched = try await fetch(request, maximumBytes: maximumBytes, policy: TransferPolicy())
        return (fetched.data, fetched.response)
    }

    /// The body, final response, and where permanent redirects led; see `URLDataFetcher`.
    public func fetch(_ request: URLRequest, maximumBytes: Int64, policy: TransferPolicy) async throws
        -> FetchedBody
    {
        try Task.checkCancellation()
        let (session, delegate) = self.session
        let task = session.dataTask(with: request)
        let fetch = Fetch(limit: maximumBytes, policy: policy)
        delegate.registry.register(fetch, for: task)
        let (data, response) = try await withTaskCancellationHandler {
            task.resume()
            return try await fetch.outcome.value()
        } onCancel: { [delegate] in
            delegate.cancel(task)
        }
        return FetchedBody(data: data, response: response, movedTo: fetch.movedTo)
    }
}

/// One feed fetch; touched only on the session's serial delegate queue.
private final class Fetch: @unchecked Sendable {
    // Safe to share: `body` and `response` are touched only on the session's serial delegate queue (the
    // registry hands the fetch to delegate calls alone), `outcome` is Sendable, and the redirect record, read by
    // the caller once the fetch ended, is under `lock`.
    let limit: Int64
    let policy: TransferPolicy
    var body = Data()
    var response: URLResponse?
    /// A 2xx body's framing: decoded as it arrives, judged when it ends. Nil for any other answer (its body is
    /// handed on as it came, for the caller to judge the status).
    var framing: BodyFraming?
    let outcome = OneShot<(Data, URLResponse)>()
    /// Where the redirects so far led while every one was permanent (301, 308); read once the fetch ended.
    private var moved: URL?
    private var onlyPermanent = true
    private let lock = NSLock()

    init(limit: Int64, policy: TransferPolicy) {
        self.limit = limit
        self.policy = policy
    }

    var movedTo: URL? { lock.withLock { moved } }

    func redirected(_ status: Int, to url: URL?) {
        lock.withLock {
            guard onlyPermanent, status == 301 || status == 308 else {
                onlyPermanent = false
                return
            }
            moved = url
        }
    }
}

private final class FeedDelegate: NSObject, URLSessionDataDelegate, Sendable {
    let registry = TransferRegistry<Fetch>()

    private func fetch(_ task: URLSessionTask) -> Fetch? { registry.transfer(task) }

    /// Ends the fetch with `result` now and lets the task go.
    private func stop(_ task: URLSessionTask, with result: Result<(Data, URLResponse), Error>) {
        registry.remove(task)?.outcome.deliver(result)
        TransferRegistry<Fetch>.cancelOffQueue(task)
    }

    /// The caller was cancelled (its deadline passed): see `TransferRegistry.cancel`.
    func cancel(_ task: URLSessionTask) {
        registry.cancel(task) { $0.outcome.deliver(.failure(URLError(.cancelled))) }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        if let fetch = fetch(dataTask) {
            fetch.response = response
            if let http = response as? HTTPURLResponse, (200..<300).contains(http.statusCode) {
                do {
                    fetch.framing = try BodyFraming(http, method: dataTask.originalRequest?.httpMethod)
                } catch {
                    completionHandler(.cancel)
                    return stop(dataTask, with: .failure(FetchError(error)))
                }
            }
            // One allocation for the whole body when the server says its size (decoded bodies only grow past it).
            let announced = response.expectedContentLength
            if announced > 0 { fetch.body.reserveCapacity(Int(min(announced, fetch.limit))) }
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let fetch = fetch(dataTask) else { return }
        do {
            let keep: (UnsafeRawBufferPointer) throws -> Void = { decoded in
                guard Int64(fetch.body.count + decoded.count) <= fetch.limit else {
                    throw FetchError.tooLarge(limit: fetch.limit)
                }
                fetch.body.append(contentsOf: decoded)
            }
            if let framing = fetch.framing {
                try framing.take(data, keep)
            } else {
                try data.withUnsafeBytes(keep)
            }
        } catch {
            return stop(dataTask, with: .failure(FetchError(error)))
        }
        fetch.policy.throttle?.wait(for: data.count) { registry.isOver(dataTask) }
    }

    /// Only http(s): a redirect anywhere else is not followed, and its 3xx response is the result.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let follow = RedirectGuard.refusal(of: response, request: request) == nil
        let fetch = fetch(task)
        if follow { fetch?.redirected(response.statusCode, to: request.url) }
        completionHandler(follow ? RedirectGuard.authorized(request, of: task, by: fetch?.policy.profile) : nil)
    }

    /// A 401 never completes on Linux unless the challenge is cancelled (see the notes): the 401 is the answer.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        completionHandler(.cancelAuthenticationChallenge, nil)
        guard let response = challenge.failureResponse ?? fetch(task)?.response else {
            stop(task, with: .failure(URLError(.userAuthenticationRequired)))
            return
        }
        stop(task, with: .success((Data(), response)))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let fetch = registry.remove(task) else { return }
        var failure = error
        do {
            if failure == nil { try fetch.framing?.end() }
        } catch {
            failure = FetchError(error)
        }
        // A body cut short says where.
        if let error, let framing = fetch.framing,
            let cut = TransportReason.cut(error, received: framing.received, of: framing.announced)
        {
            failure = FetchError.incomplete(cut)
        }
        if let failure {
            fetch.outcome.deliver(.failure(failure))
        } else if let response = fetch.response ?? task.response {
            fetch.outcome.deliver(.success((fetch.body, response)))
        } else {
            fetch.outcome.deliver(.failure(URLError(.badServerResponse)))
        }
    }
}
