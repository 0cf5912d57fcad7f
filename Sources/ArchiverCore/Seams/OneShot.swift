// A result handed to one waiting task exactly once, whichever comes first: the result or the wait.
//
// URLSession's delegate calls and Swift's cancellation race each other: a task cancelled before it is resumed
// may report its completion before anyone waits for it, and a completion that corelibs never delivers would
// leave a continuation waiting forever. A OneShot keeps an early result until the wait starts, ignores every
// result after the first, and so lets a fallback (a timer, an explicit stop) end the wait without a race.
import Foundation

final class OneShot<Value: Sendable>: Sendable {
    /// The result once delivered, and the wait once it started.
    private let state = Locked<(result: Result<Value, Error>?, continuation: CheckedContinuation<Value, Error>?)>(
        (nil, nil))

    /// Waits for the result (returns at once when it is already there). Called at most once.
    func value() async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            let ready = state.withLock { state -> Result<Value, Error>? in
                if let result = state.result { return result }
                state.continuation = continuation
                return nil
            }
            if let ready { continuation.resume(with: ready) }
        }
    }

    /// Hands over the result; false (and nothing happens) when one was handed over before.
    @discardableResult
    func deliver(_ outcome: Result<Value, Error>) -> Bool {
        let (first, waiting) = state.withLock { state -> (Bool, CheckedContinuation<Value, Error>?) in
            guard state.result == nil else { return (false, nil) }
            state.result = outcome
            defer { state.continuation = nil }
            return (true, state.continuation)
        }
        waiting?.resume(with: outcome)
        return first
    }
}
