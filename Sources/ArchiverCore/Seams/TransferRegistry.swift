// The transfers a session delegate is running, found by task, and the two ways a transfer is let go: stopped
// here, or cancelled by its caller with a fallback. Shared by the downloader and the feed session, so the one
// mechanism that keeps a cancelled transfer from waiting forever is written once.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class TransferRegistry<Item: AnyObject & Sendable>: Sendable {
    /// How long a cancelled task gets to report its own completion before its transfer is ended without it.
    static var cancelGrace: TimeInterval { 2 }

    /// The running transfers by task, and the tasks their callers cancelled.
    private let state = Locked<(transfers: [Int: Item], cancelled: Set<Int>)>(([:], []))
    private let serialQueue = Locked<DispatchQueue?>(nil)

    /// The session's serial delegate queue, where every transfer is touched (set when the session is made).
    var serial: DispatchQueue? {
        get { serialQueue.current }
        set { serialQueue.set(newValue) }
    }

    func register(_ transfer: Item, for task: URLSessionTask) {
        state.withLock { $0.transfers[task.taskIdentifier] = transfer }
    }

    /// The task's transfer, while it runs.
    func transfer(_ task: URLSessionTask) -> Item? {
        state.withLock { $0.transfers[task.taskIdentifier] }
    }

    /// The task's transfer, taken out: whatever corelibs reports for the task later finds none and is ignored.
    func remove(_ task: URLSessionTask) -> Item? {
        state.withLock { state in
            state.cancelled.remove(task.taskIdentifier)
            return state.transfers.removeValue(forKey: task.taskIdentifier)
        }
    }

    /// True once the task's caller cancelled it, or its transfer ended: a throttled transfer stops waiting.
    func isOver(_ task: URLSessionTask) -> Bool {
        state.withLock { $0.cancelled.contains(task.taskIdentifier) || $0.transfers[task.taskIdentifier] == nil }
    }

    /// The caller was cancelled (a deadline, a failed run): cancel the task, and `end` its transfer a little later
    /// if corelibs never reports the cancelled task's completion.
    func cancel(_ task: URLSessionTask, end: @escaping @Sendable (Item) -> Void) {
        state.withLock { _ = $0.cancelled.insert(task.taskIdentifier) }
        Self.cancelOffQueue(task)
        serial?.asyncAfter(deadline: .now() + Self.cancelGrace) { [weak self] in
            if let transfer = self?.remove(task) { end(transfer) }
        }
    }

    /// cancel() does workQueue.sync in corelibs, and libcurl's thread may be waiting right now for a slot on the
    /// bounded delegate queue: cancel from elsewhere, or the two would wait for each other forever.
    static func cancelOffQueue(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }
}
