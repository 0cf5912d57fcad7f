// Records every wait the archiver asks for and returns at once: retries are tested without real time passing.
import Foundation

/// A `sleep` that returns at once and remembers each delay asked for.
public final class SpySleeper: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [TimeInterval] = []

    /// A sleeper that has recorded nothing yet.
    public init() {}

    /// Every delay asked for, in order.
    public var delays: [TimeInterval] { lock.withLock { recorded } }

    /// Records `seconds`; returns at once.
    public func sleep(_ seconds: TimeInterval) async throws {
        lock.withLock { recorded.append(seconds) }
    }
}
