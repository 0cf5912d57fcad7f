// A total deadline for work URLSession cannot bound itself (its resource timeout is ignored on Linux).
import Foundation

enum Deadline {
    /// `body` did not finish within the time given.
    struct Exceeded: Error {}

    /// Waits out a deadline of the given seconds; thrown out of when cancelled (the work finished first).
    typealias Timer = @Sendable (TimeInterval) async throws -> Void

    /// Why a server's `Retry-After` of `asked` seconds was not waited for: it is more than the `left` seconds left
    /// of the `deadline` the `subject` ("episode", "feed") may take. Said by episodes and feeds alike.
    static func waitRefusal(asked: TimeInterval, left: TimeInterval, deadline: TimeInterval, of subject: String)
        -> String
    {
        let limit =
            asked >= deadline
            ? "the \(seconds(deadline))"
            : "the \(seconds(max(0, left.rounded(.down)))) left of the \(seconds(deadline))"
        return
            "asked to wait \(seconds(asked.rounded(.up))) before another try, longer than \(limit) the \(subject) may "
            + "take"
    }

    /// `value` seconds as a reader takes them: "3600 s", "0.5 s".
    private static func seconds(_ value: TimeInterval) -> String { String(format: "%g s", value) }

    /// `1 second`, `2.5 seconds`: a deadline as messages say it.
    static func describe(_ seconds: TimeInterval) -> String {
        String(format: "%g", seconds) + (seconds == 1 ? " second" : " seconds")
    }

    /// The wall clock's timer.
    static let realTime: Timer = { seconds in
        try await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0), 1e9) * 1e9))
    }

    /// Runs `body`, cancelling it when `timer` says `seconds` passed first, and then throws `Exceeded`. `body` must
    /// end when cancelled (the downloader and the feed session do, within a few seconds, whatever libcurl does).
    static func run<T: Sendable>(
        seconds: TimeInterval, timer: @escaping Timer, _ body: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await timer(seconds)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Exceeded() }
            return value
        }
    }
}
