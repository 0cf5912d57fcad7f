// Sync events as they were reported, from whichever thread reported them.
import ArchiverCore
import Foundation

/// Collects events from any thread.
final class EventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [SyncEvent] = []

    var all: [SyncEvent] { lock.withLock { events } }
    func append(_ event: SyncEvent) { lock.withLock { events.append(event) } }
}
