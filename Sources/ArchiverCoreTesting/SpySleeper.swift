// Records every wait the archiver asks for and returns at once: retries are tested without real time passing.
import ArchiverCore
import Foundation

/// A `sleep` that returns at once and remembers each delay asked for.
public final class SpySleeper: Sendable {
    private let recorded: Locked<[TimeInterval]> = Locked([])

    /// A sleeper that has recorded nothing yet.
    public init() {}

    /// Every delay asked for, in order.
    public var delays: [TimeInterval] { recorded.current }

    /// Records `seconds`; returns at once.
    public func sleep(_ seconds: TimeInterval) async throws {
        recorded.withLock { recorded in recorded.append(seconds) }
    }
}
