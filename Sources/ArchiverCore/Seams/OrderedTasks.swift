// "Run N at once, settle in order", said once: the episodes of a sync, the companions of a show, the origins
// `verify --upstream` asks and the shows of `sync --feed-jobs` each run side by side, and each is settled on the
// caller's task in the order it was listed, whatever finished first.
import Foundation

/// Runs operations side by side, at most `width` at once, started in the order listed; hands each result to
/// `settle` in that order on the caller's task.
///
/// Every wait here ends: `run` waits only for operations it started, and an operation that is cancelled (the
/// caller's task was) is expected to end soon after; none is started once the caller's task is cancelled.
enum OrderedTasks {
    /// Runs `operation(0)` to `operation(count - 1)`, at most `width` (at least 1) at once.
    ///
    /// On the caller's task, in this order for each: `starting` just before an operation starts; `finished` as it
    /// ends (in the order they end, with its result); `settle` once it and every operation before it have ended
    /// (in the order listed); `settled` after each round of settling.
    ///
    /// - An error thrown by `operation` or `finished` ends the run at once: the operations still running are
    ///   cancelled, and the error is thrown.
    /// - An error thrown by `settle` or `settled` stops new operations from starting, but those running are still
    ///   awaited and settled (a download already complete is still put in place); the first such error is thrown
    ///   when they all have been.
    /// - Cancelled (the caller's task), it starts nothing more, awaits and settles the operations running (each
    ///   sees the cancellation), then throws `CancellationError` if any operation was never started.
    public static func run<Output: Sendable>(
        count: Int, width: Int,
        starting: (Int) -> Void = { _ in },
        operation: @escaping @Sendable (Int) async throws -> Output,
        finished: (Int, Output) throws -> Void = { _, _ in },
        settle: (Int, Output) throws -> Void,
        settled: () throws -> Void = {}
    ) async throws {
        guard count > 0 else { return }
        try await withThrowingTaskGroup(of: (position: Int, output: Output).self) { group in
            var started = 0
            var stop: Error?
            func startNext() {
                let position = started
                started += 1
                starting(position)
                group.addTask { (position, try await operation(position)) }
            }
            while started < min(max(1, width), count), !Task.isCancelled { startNext() }
            var waiting: [Int: Output] = [:]
            var next = 0
            while let ended = try await group.next() {
                try finished(ended.position, ended.output)
                waiting[ended.position] = ended.output
                if stop == nil, started < count, !Task.isCancelled { startNext() }
                while let output = waiting.removeValue(forKey: next) {
                    do {
                        try settle(next, output)
                    } catch {
                        stop = stop ?? error
                    }
                    next += 1
                }
                do {
                    try settled()
                } catch {
                    stop = stop ?? error
                }
            }
            if let stop { throw stop }
            // Cancelled before every operation started: the run is not whole, and never looks it.
            if started < count { throw CancellationError() }
        }
    }
}
