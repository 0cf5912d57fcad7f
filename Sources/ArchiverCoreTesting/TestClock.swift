// A clock a test moves by hand: days pass between two syncs, or a throttle sees time go by, without waiting.
import ArchiverCore
import Foundation

/// A clock the test sets or advances; read from any thread.
public final class TestClock: Sendable {
    private let current: Locked<Date>

    /// A clock showing `start`.
    public init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { current = Locked(start) }

    /// The time it shows.
    public var now: Date {
        get { current.current }
        set { current.withLock { current in current = newValue } }
    }

    /// Moves it on by `seconds`.
    public func advance(_ seconds: TimeInterval) { current.withLock { current in current += seconds } }
}
