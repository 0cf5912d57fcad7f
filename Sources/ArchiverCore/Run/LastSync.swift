// How a show's last sync ended: kept in its subscription record and, while a run holds the show, in its lock file
// (see `ShowLocks`), the later of the two being the one that counts.
import Foundation

/// How a show's last sync ended.
public struct LastSync: Codable, Equatable, Sendable {
    /// How it ended.
    public enum Outcome: String, Codable, Sendable {
        /// Everything the feed listed was archived (or skipped as archived).
        case ok
        /// Some episodes failed; they are tried again next run.
        case episodesFailed = "episodes-failed"
        /// The feed could not be fetched or read.
        case feedFailed = "feed-failed"
        /// The archive could not be written (a full disk...).
        case archiveFailed = "archive-failed"
    }

    /// When it ended (RFC 3339).
    public var finished: String
    /// How it ended.
    public var outcome: Outcome
    /// Episodes archived by that sync.
    public var archived: Int
    /// Why it failed, for the failed outcomes.
    public var error: String?

    /// A record of one sync.
    public init(finished: String, outcome: Outcome, archived: Int = 0, error: String? = nil) {
        self.finished = finished
        self.outcome = outcome
        self.archived = archived
        self.error = error
    }
    /// True when `other` ended as this one did, at another time perhaps and with another count: what a
    /// subscription record needs rewriting for (the time and the count are the lock's note's, see `latest`).
    func sameEnding(as other: LastSync) -> Bool {
        (outcome, error) == (other.outcome, other.error)
    }

    /// The newer of the subscription record's `recorded` and the show lock's `note` (see `HeldLock.keep`):
    /// records written before notes, and syncs that ended before the lock was held, have only the former.
    static func latest(recorded: LastSync?, note: Data?) -> LastSync? {
        guard let note, let kept = try? JSONDecoder().decode(LastSync.self, from: note) else { return recorded }
        guard let recorded else { return kept }
        return kept.finished > recorded.finished ? kept : recorded
    }
}
