// A value behind a lock: the one box that the classes shared between threads keep their mutable state in, so that
// they are Sendable as the compiler checks it, not by assertion. `Synchronization.Mutex` is the same thing but
// needs macOS 15, and the package supports macOS 13.
import Foundation

/// A value that threads share, read and changed only while holding its lock.
public final class Locked<Value>: @unchecked Sendable {
    // Safe to share: `value` is reached only through `withLock`, under `lock`, and the value goes in and comes out
    // as `sending` (as with `Mutex`), so no thread keeps a reference into it that bypasses the lock.
    private let lock = NSLock()
    private var value: Value

    /// A box holding `value`.
    public init(_ value: sending Value) {
        self.value = value
    }

    /// Runs `body` with the value while holding the lock, and returns what `body` returns.
    public func withLock<Result>(_ body: (inout sending Value) throws -> sending Result) rethrows -> sending Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

extension Locked where Value: Sendable {
    /// The value now (a copy: changing it changes nothing here).
    public var current: Value { withLock { $0 } }

    /// Replaces the value.
    public func set(_ newValue: Value) { withLock { $0 = newValue } }
}
