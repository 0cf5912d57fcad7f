// A clock a test moves by hand: days pass between two syncs, or a throttle sees time go by, without waiting.
import Foundation

/// A clock the test sets or advances; read from any thread.
public final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date

    /// A clock showing `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = start }

    /// The time it shows.
    public var now: Date {
        get { lock.withLock { current } }
        set { lock.withLock { current = newValue } }
    }

    /// Moves it on by `seconds`.
    public func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}
