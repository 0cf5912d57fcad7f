// How a run ended, and which outcome decides it when its parts end differently. The raw values are the process
// exit statuses podarchive promises to scripts and cron: its help, README and man page document them and the
// order below, so neither changes.
import Foundation

/// How a run, or one show of it, ended; the raw value is the exit status a process reports it with.
public enum RunStatus: Int32, Equatable, Sendable, CaseIterable {
    /// Everything archived, or nothing new.
    case success = 0
    /// The feed was read but some episodes failed (they are retried next run); for a check, problems remain.
    case episodesFailed = 1
    /// What was asked cannot be done as asked (a bad feed address, an unknown show): the user must change it.
    case usage = 2
    /// The feed could not be fetched or read.
    case feedFailed = 3
    /// Another process is syncing the same feed (and the wait for it ran out).
    case locked = 4
    /// The archive could not be written or used: a full disk, an unwritable folder, a damaged index.
    case archiveFailed = 5
    /// Stopped by SIGINT (128 + 2, as shells report it): partial downloads kept, lock released.
    case interrupted = 130
    /// Stopped by SIGTERM (128 + 15): the same clean stop.
    case terminated = 143

    /// Which status wins when parts of a run end differently, worst first: an unusable archive, then a request
    /// the user must change (it stops nothing else but needs them), then a failed feed, then a locked one, then
    /// failed episodes; a stopped run above all.
    public var severity: Int {
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

    /// The statuses a finished run can fail with, worst first (5, 2, 3, 4, 1).
    public static let failuresWorstFirst = [RunStatus.episodesFailed, .usage, .feedFailed, .locked, .archiveFailed]
        .sorted { $0.severity > $1.severity }

    /// This status, or `other` when it is worse; of two equally bad, the one met first stays.
    public func worsened(by other: RunStatus) -> RunStatus {
        other.severity > severity ? other : self
    }

    /// Makes this status `other` when `other` is worse.
    public mutating func include(_ other: RunStatus) {
        self = worsened(by: other)
    }

    /// The worst of `statuses`; `success` for none.
    public static func worst<Statuses: Sequence>(of statuses: Statuses) -> RunStatus
    where Statuses.Element == RunStatus {
        statuses.reduce(.success) { $0.worsened(by: $1) }
    }

    /// How a whole run ended from how its parts did: `interrupted` when one of them was, or the run was stopped
    /// (`cancelled`) before all of them ran; else the worst of them.
    public static func overall<Statuses: Sequence>(of statuses: Statuses, cancelled: Bool) -> RunStatus
    where Statuses.Element == RunStatus {
        let all = Array(statuses)
        if cancelled || all.contains(.interrupted) { return .interrupted }
        return worst(of: all)
    }

    /// The status an operation that threw `error` ends with: a feed address or `.netrc` file that cannot be
    /// used, and a show the archive does not hold, are the user's to change; a feed that cannot be read (or
    /// whose saved credentials are missing) failed; a locked show is locked; a stopped one interrupted; anything
    /// else (the archive, or the configuration folder beside it, unwritable or untrustworthy) leaves the archive
    /// unusable.
    public init(for error: Error) {
        switch error {
        case FeedError.unsupportedScheme, FeedError.invalidSource, is NetrcError, DirectoryError.notWebURL:
            self = .usage
        case is FeedError: self = .feedFailed
        // The directory that names a show's feed is asked as the feed itself would be.
        case is DirectoryError: self = .feedFailed
        // Without its credentials the show's feed cannot be fetched; the configuration folder is the archive's
        // other half: not writable, or not to be trusted, nothing can be kept.
        case CredentialError.missing, CredentialError.earlierMissing: self = .feedFailed
        case is CredentialError: self = .archiveFailed
        case ArchiveError.locked: self = .locked
        case ArchiveError.noArchive, ArchiveError.unknownShow, ExportError.insideShow, ExportError.insideArchiveState,
            is SiteOutInsideArchive, LibraryError.insideArchive,
            is ForgetError, is OffloadError:
            self = .usage
        case ArchiveError.interrupted, ExportError.interrupted: self = .interrupted
        default: self = .archiveFailed
        }
    }
}
