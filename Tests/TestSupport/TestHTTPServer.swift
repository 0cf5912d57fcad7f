// A small HTTP/1.1 server on 127.0.0.1 for tests: canned responses per path, with faults on demand (truncated
// bodies, error pages, redirects). Each test starts its own on a free port and stops it in tearDown.
import Foundation

#if canImport(Glibc)
    import Glibc
    private typealias SocketLinger = linger
    private let socketSend = Glibc.send
#elseif canImport(Darwin)
    import Darwin
    private typealias SocketLinger = linger
    private let socketSend = Darwin.send
#endif

/// An HTTP server bound to 127.0.0.1 on a free port, serving canned responses.
public final class TestHTTPServer: @unchecked Sendable {
    public let port: UInt16
    /// The loopback address it listens on.
    public let address: String
    private let listener: Int32
    private let lock = NSCondition()
    private var routes: [String: @Sendable (RecordedRequest, Int) -> TestResponse] = [:]
    private var recorded: [RecordedRequest] = []
    private var sent: [String: Int] = [:]
    /// How many times a client closed its connection for each path before the whole body was sent.
    private var hangUps: [String: Int] = [:]
    private var active = 0
    private var mostActive = 0
    private var stopped = false
    private let acceptThread: Thread
    /// Tasks waiting in `sent(_:of:)`, by a number of their own.
    private var waiters: [Int: (bytes: Int, path: String, resume: (Bool) -> Void)] = [:]
    private var nextWaiter = 0
    private let acceptLoopDone = DispatchSemaphore(value: 0)

    /// A server on `address`: 127.0.0.1, or another loopback address (127.0.0.2) to stand for a second host.
    public init(address: String = "127.0.0.1") throws {
        self.address = address
        (listener, port) = try LoopbackSocket.bound(listening: 64, address: address)
        let box = WeakServer()
        acceptThread = Thread { box.server?.acceptLoop() }
        box.server = self
        acceptThread.start()
    }

    deinit {
        stop()
    }

    /// `http://<address>:<port><path>`.
    public func url(_ path: String) -> URL {
        URL(string: "http://\(address):\(port)\(path)")!
    }

    /// Serves `response` for GET/HEAD of `path` (the path without its query string).
    public func route(_ path: String, _ response: TestResponse) {
        route(path) { _, _ in response }
    }

    /// Serves whatever `handler` returns for each request to `path`; it also gets how many requests for `path`
    /// came before this one (0 for the first), to script sequences such as "500, then 200".
    public func route(_ path: String, handler: @escaping @Sendable (RecordedRequest, Int) -> TestResponse) {
        lock.withLock { routes[path] = handler }
    }

    /// The most requests this server was answering at the same moment.
    public var maximumConcurrentRequests: Int {
        lock.withLock { mostActive }
    }

    /// Body bytes sent so far for `path`, over all requests.
    public func bytesSent(_ path: String) -> Int {
        lock.withLock { sent[path] ?? 0 }
    }

    /// Blocks until at least `bytes` body bytes of `path` were sent (or `timeout` passes); true if they were.
    public func waitUntilSent(_ bytes: Int, of path: String, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while (sent[path] ?? 0) < bytes {
            if !lock.wait(until: deadline) { return (sent[path] ?? 0) >= bytes }
        }
        return true
    }

    /// Returns once at least `bytes` body bytes of `path` were sent; throws `CancellationError` when the task is
    /// cancelled or the server stops first. A test's timer: "the deadline passes once this much has arrived".
    public func sent(_ bytes: Int, of path: String) async throws {
        let number = lock.withLock { () -> Int in
            nextWaiter += 1
            return nextWaiter
        }
        let arrived: Bool = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let resume = OnceResume(continuation)
                lock.withLock {
                    if (sent[path] ?? 0) >= bytes || stopped {
                        resume((sent[path] ?? 0) >= bytes)
                    } else {
                        waiters[number] = (bytes, path, resume.callAsFunction)
                    }
                }
                // Cancelled before the waiter was registered: end it here.
                if Task.isCancelled { lock.withLock { waiters.removeValue(forKey: number) }?.resume(false) }
            }
        } onCancel: {
            lock.withLock { waiters.removeValue(forKey: number) }?.resume(false)
        }
        guard arrived else { throw CancellationError() }
    }

    /// Resumes the waiters `sent` bytes satisfy (or all of them, unsatisfied, once stopped). Called locked.
    private func wakeWaiters() {
        for (number, waiter) in waiters where stopped || (sent[waiter.path] ?? 0) >= waiter.bytes {
            waiters.removeValue(forKey: number)
            waiter.resume(!stopped)
        }
    }

    /// Blocks until `count` requests for `path` arrived (or `timeout` passes); true if they did.
    public func waitUntilRequested(_ path: String, count: Int = 1, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while recorded.filter({ $0.path.hasPrefix(path) }).count < count {
            if !lock.wait(until: deadline) { return false }
        }
        return true
    }

    /// Blocks until a client closed a connection for `path` while its body was being sent (or `timeout` passes);
    /// true if one did. Proof that a client gave up on a body that never ends.
    public func waitUntilHungUp(on path: String, timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        lock.lock()
        defer { lock.unlock() }
        while hangUps[path] == nil {
            if !lock.wait(until: deadline) { return hangUps[path] != nil }
        }
        return true
    }

    /// Every request received so far, in order.
    public var requests: [RecordedRequest] {
        lock.withLock { recorded }
    }

    /// The paths requested so far, in order.
    public var requestedPaths: [String] {
        requests.map(\.path)
    }

    public func stop() {
        let wasRunning = lock.withLock { () -> Bool in
            defer {
                stopped = true
                wakeWaiters()
                lock.broadcast()
            }
            return !stopped
        }
        guard wasRunning else { return }
        // Wake the accept loop and wait for it to end before closing: once closed, the descriptor number can be
        // reused by the next test's server, and a loop still running would accept (and misroute) its requests.
        shutdown(listener, Int32(SHUT_RDWR))
        _ = acceptLoopDone.wait(timeout: .now() + 10)
        close(listener)
    }

    // MARK: - Serving

    private func acceptLoop() {
        defer { acceptLoopDone.signal() }
        while !lock.withLock({ stopped }) {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR { continue }
                return
            }
            if lock.withLock({ stopped }) {
                close(client)
                return
            }
            var noSigPipe: Int32 = 1
            #if canImport(Darwin)
                setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &noSigPipe, socklen_t(MemoryLayout<Int32>.size))
            #else
                _ = noSigPipe
            #endif
            Thread { [self] in handle(client) }.start()
        }
    }

    private func handle(_ client: Int32) {
        defer { close(client) }
        guard let (head, start) = readHead(client) else { return }
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines.first?.split(separator: " ") ?? []
        guard parts.count >= 2 else { return }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        let method = String(parts[0])
        let target = String(parts[1])
        let path = String(target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        guard let body = readBody(client, start: start, length: length) else { return }
        let request = RecordedRequest(method: method, path: target, headers: headers, body: body)
        let (handler, previous) = lock.withLock { () -> ((@Sendable (RecordedRequest, Int) -> TestResponse)?, Int) in
            let previous = recorded.filter { $0.path.split(separator: "?").first.map(String.init) == path }.count
            recorded.append(request)
            lock.broadcast()
            return (routes[path], previous)
        }
        let response = handler?(request, previous) ?? .status(404, "not found")
        lock.withLock {
            active += 1
            mostActive = max(mostActive, active)
            lock.broadcast()
        }
        hold(until: response)
        send(response, to: client, path: path, includeBody: method != "HEAD")
        lock.withLock { active -= 1 }
    }

    /// The request's head, and the bytes of its body read with it.
    private func readHead(_ client: Int32) -> (String, Data)? {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        let terminator = Data("\r\n\r\n".utf8)
        while data.range(of: terminator) == nil {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            data.append(contentsOf: buffer[0..<count])
            if data.count > 65_536 { return nil }
        }
        let end = data.range(of: terminator)!
        return (String(decoding: data[..<end.lowerBound], as: UTF8.self), Data(data[end.upperBound...]))
    }

    /// The request's body of `length` bytes (Content-Length; a megabyte at most), `start` already read.
    private func readBody(_ client: Int32, start: Data, length: Int) -> Data? {
        guard length <= 1 << 20 else { return nil }
        var body = start
        var buffer = [UInt8](repeating: 0, count: 4096)
        while body.count < length {
            let count = recv(client, &buffer, buffer.count, 0)
            if count <= 0 { return nil }
            body.append(contentsOf: buffer[0..<count])
        }
        return body.prefix(length)
    }

    private func send(_ response: TestResponse, to client: Int32, path: String, includeBody: Bool) {
        if response.delayBeforeHeaders > 0, pause(response.delayBeforeHeaders) { return }
        var head = "HTTP/1.1 \(response.status) \(TestResponse.reason(response.status))\r\nConnection: close\r\n"
        for (name, value) in response.headers { head += "\(name): \(value)\r\n" }
        if response.chunked {
            head += "Transfer-Encoding: chunked\r\n"
        } else if !response.omitContentLength, response.pieces == nil {
            head += "Content-Length: \(response.body.count)\r\n"
        }
        head += "\r\n"
        guard write(Data(head.utf8), to: client), includeBody else { return }
        var number = 0
        while let piece = response.piece(number) {
            if number > 0, let trickle = response.trickle, pause(trickle.interval) { return }
            if lock.withLock({ stopped }) { return }
            let framed =
                response.chunked
                ? Data("\(String(piece.count, radix: 16))\r\n".utf8) + piece + Data("\r\n".utf8) : piece
            guard piece.isEmpty || write(framed, to: client) else {
                lock.withLock {
                    hangUps[path, default: 0] += 1
                    lock.broadcast()
                }
                return
            }
            lock.withLock {
                sent[path, default: 0] += piece.count
                wakeWaiters()
                lock.broadcast()
            }
            number += 1
        }
        if response.chunked, response.cutAfter == nil, !write(Data("0\r\n\r\n".utf8), to: client) { return }
        if response.cutAfter != nil, response.reset {
            // SO_LINGER with a zero timeout makes close() send a reset instead of a FIN.
            var linger = SocketLinger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<SocketLinger>.size))
        }
    }

    /// Waits for what `response` is held for (see `holdUntilActive`, `holdUntilRequested`, `holdForMore`), at most
    /// 20 s.
    private func hold(until response: TestResponse) {
        guard response.holdUntilActive != nil || response.holdUntilRequested != nil else { return }
        let deadline = Date().addingTimeInterval(20)
        lock.lock()
        defer { lock.unlock() }
        // Each condition, once met, stays met: the others may finish (and `active` fall) while this one waits on.
        var enough = false
        var requested = false
        func released() -> Bool {
            // The peak, not the count now: a waiter woken late, after another released one finished, still
            // sees that the requests were answered side by side.
            enough = enough || response.holdUntilActive.map { mostActive >= $0 } ?? true
            requested =
                requested || response.holdUntilRequested.map { path in recorded.contains { $0.path == path } } ?? true
            return stopped || (enough && requested)
        }
        while !released() {
            if !lock.wait(until: deadline) { return }
        }
        // Held on for one more to join: a peak above the one waited for ends this wait at once.
        guard let more = response.holdForMore, let active = response.holdUntilActive else { return }
        let end = min(deadline, Date().addingTimeInterval(more))
        while !stopped, mostActive <= active {
            if !lock.wait(until: end) { return }
        }
    }

    /// Waits `seconds` of simulated network time; returns true when the server was stopped meanwhile.
    private func pause(_ seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        lock.lock()
        defer { lock.unlock() }
        while !stopped, lock.wait(until: deadline) {}
        return stopped
    }

    private func write(_ data: Data, to client: Int32) -> Bool {
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let count = socketSend(client, buffer.baseAddress! + offset, buffer.count - offset, Self.sendFlags)
                if count <= 0 { return false }
                offset += count
            }
            return true
        }
    }

    #if canImport(Glibc)
        private static let sendFlags = Int32(MSG_NOSIGNAL)
    #else
        private static let sendFlags: Int32 = 0
    #endif
}

private final class WeakServer: @unchecked Sendable {
    weak var server: TestHTTPServer?
}
