// Time as the archive layer sees it: what the date is, and waiting. One seam, so a test moves a clock of its own
// instead of waiting for the real one.
import Foundation

/// The date now, and a wait that a cancelled task cuts short.
struct SyncClock: Sendable {
    /// The date now: recorded in the index, and the start of each deadline.
    let now: @Sendable () -> Date
    /// Waits `seconds` (between retries, while polling a lock); throws when the task is cancelled.
    let sleep: @Sendable (TimeInterval) async throws -> Void
    /// Waits out an episode's deadline (see `Deadline`): apart from `sleep`, so a test can skip every wait
    /// between retries and still choose the moment a deadline passes.
    let timer: @Sendable (TimeInterval) async throws -> Void
}
