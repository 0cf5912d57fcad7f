// Sync events as they were reported, from whichever thread reported them.
import ArchiverCore
import Foundation

/// Collects events from any thread.
public final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SyncEvent] = []

    /// A log with no events yet.
    public init() {}

    /// Every event, in the order reported.
    public var all: [SyncEvent] { lock.withLock { events } }
    /// Records `event`.
    public func append(_ event: SyncEvent) { lock.withLock { events.append(event) } }
}
