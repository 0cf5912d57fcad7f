// The loop every crash test runs: a command killed at its first effect, then its second, and so on, each kill
// checked, until a run gets past its last effect.
import Foundation

extension CrashShim {
    /// A command killed at each point in turn.
    public struct EveryPoint {
        /// How many points it was killed at before a run completed.
        public let points: Int
        /// The run that completed.
        public let completed: ProcessResult
    }

    /// Runs `command(point)` after `prepare()`, for point 1, 2, 3..., calling `killed(point, run)` after each run
    /// the library killed (SIGKILL), until one is not killed. Nil when every run up to `limit` was killed.
    public static func atEveryPoint(
        limit: Int = 400, prepare: () throws -> Void, command: (Int) throws -> ProcessResult,
        killed: (Int, ProcessResult) throws -> Void
    ) throws -> EveryPoint? {
        for point in 1...limit {
            try prepare()
            let run = try command(point)
            guard run.status == 128 + SIGKILL else { return EveryPoint(points: point - 1, completed: run) }
            try killed(point, run)
        }
        return nil
    }
}
