// Sync events as they were reported, from whichever thread reported them.
import ArchiverCore
import Foundation

/// Collects events from any thread.
public final class EventLog: Sendable {
    private let events: Locked<[SyncEvent]> = Locked([])

    /// A log with no events yet.
    public init() {}

    /// Every event, in the order reported.
    public var all: [SyncEvent] { events.current }
    /// Records `event`.
    public func append(_ event: SyncEvent) { events.withLock { events in events.append(event) } }
}
