// A total deadline for work URLSession cannot bound itself (its resource timeout is ignored on Linux).
import Foundation

enum Deadline {
    /// `body` did not finish within the time given.
    struct Exceeded: Error {}

    /// Runs `body`, cancelling it when `seconds` pass first, and then throws `Exceeded`. `body` must end when
    /// cancelled (the downloader and the feed session do, within a few seconds, whatever libcurl does).
    static func run<T: Sendable>(seconds: TimeInterval, _ body: @escaping @Sendable () async throws -> T)
        async throws -> T
    {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0), 1e9) * 1e9))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Exceeded() }
            return value
        }
    }
}
