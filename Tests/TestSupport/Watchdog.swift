// Runs async work that might hang under a watchdog: the test fails after a time limit instead of hanging the
// whole suite. The work runs in a task of its own, so a wait that never ends is left behind, not waited for.
import Foundation

public struct WatchdogTimeout: Error, CustomStringConvertible {
    public let seconds: TimeInterval
    public var description: String { "still running after \(seconds) s: it hangs" }
}

/// The result of `body`, or `WatchdogTimeout` thrown (failing the test) when it takes more than `seconds`.
public func withWatchdog<T: Sendable>(
    seconds: TimeInterval, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let box = WatchdogBox<T>()
    let work = Task { box.deliver(await Result { try await body() }) }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
        box.deliver(.failure(WatchdogTimeout(seconds: seconds)))
    }
    let result = await withCheckedContinuation { box.wait($0) }
    if case .failure(is WatchdogTimeout) = result { work.cancel() }
    return try result.get()
}

extension Result where Failure == Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}

private final class WatchdogBox<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var result: Result<T, Error>?
    private var continuation: CheckedContinuation<Result<T, Error>, Never>?

    func wait(_ continuation: CheckedContinuation<Result<T, Error>, Never>) {
        let ready = lock.withLock { () -> Result<T, Error>? in
            if result == nil { self.continuation = continuation }
            return result
        }
        if let ready { continuation.resume(returning: ready) }
    }

    func deliver(_ outcome: Result<T, Error>) {
        let waiting = lock.withLock { () -> CheckedContinuation<Result<T, Error>, Never>? in
            guard result == nil else { return nil }
            result = outcome
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume(returning: outcome)
    }
}

/// Resumes a continuation once, whoever asks first (the bytes arriving, a cancellation, the server stopping).
final class OnceResume: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Bool, Never>?

    init(_ continuation: CheckedContinuation<Bool, Never>) { self.continuation = continuation }

    func callAsFunction(_ value: Bool) {
        lock.withLock { () -> CheckedContinuation<Bool, Never>? in
            defer { continuation = nil }
            return continuation
        }?.resume(returning: value)
    }
}
