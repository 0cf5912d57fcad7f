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

extension ExitCode {
    /// Which code wins when feeds end differently, worst first: an unusable archive (5), then a usage error such
    /// as a bad feed-list line (2: it needs the user to change something), then a failed feed (3), then a locked
    /// one (4), then failed episodes (1); an interrupted run above all. Help, README and man page say this order
    /// (a test checks).
    var severity: Int {
        switch self {
        case .success: return 0
        case .episodesFailed: return 1
        case .locked: return 2
        case .feedFailed: return 3
        case .usage: return 4
        case .archiveFailed: return 5
        case .interrupted, .terminated: return 6
        }
    }

    /// The codes a run can end with, worst first: "5, 2, 3, 4, 1".
    static let worstFirst = [ExitCode.episodesFailed, .usage, .feedFailed, .locked, .archiveFailed]
        .sorted { $0.severity > $1.severity }.map { String($0.rawValue) }.joined(separator: ", ")
}
