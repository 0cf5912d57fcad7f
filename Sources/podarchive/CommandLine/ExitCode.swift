// The exit codes podarchive promises to scripts and cron. Documented in `--help` and the README.

/// How a run ended, as a process exit status.
enum ExitCode: Int32, Equatable, Sendable {
    /// Everything archived, or nothing new.
    case success = 0
    /// The feed was read but some episodes failed (they are retried next run); for `verify`, problems remain.
    case episodesFailed = 1
    /// The command line was wrong; usage was printed.
    case usage = 2
    /// The feed could not be fetched or read.
    case feedFailed = 3
    /// Another podarchive process is syncing the same feed (and `--wait` ran out).
    case locked = 4
    /// The archive could not be written or used: a full disk, an unwritable folder, a damaged index.
    case archiveFailed = 5
    /// Stopped by Ctrl-C (SIGINT, 128 + 2, as shells report it): partial downloads kept, lock released.
    case interrupted = 130
    /// Stopped by SIGTERM (128 + 15: `systemctl stop`, `kill`): the same clean stop.
    case terminated = 143
}
