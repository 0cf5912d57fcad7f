// What choosing the shows of a sync came to: the shows, or none when the run cannot go on, and each problem met,
// in the order met, with the status it leaves the run in.
import Foundation

/// A problem met while choosing the shows of a sync.
public enum SelectionProblem: Equatable, Sendable {
    /// Headers were given without the feeds they are for named one by one.
    case headersWithoutNamedFeeds
    /// A subscription record could not be read; its show is skipped.
    case damagedRecord(path: String, reason: String)
    /// The archive follows no show and none was named.
    case noSubscriptions
    /// A subscription's secrets kept outside the archive are missing; its show is skipped.
    case credentialsMissing(reason: String)
    /// A subscription's secrets are in a file others could have changed (`UntrustedFile`); its show is skipped.
    case untrustedFile(reason: String)
    /// A subscription's feed is no feed address; its show is skipped.
    case unusableSubscription(feed: String)
    /// A feed given is no feed address: nothing runs.
    case invalidFeed(reason: String)
    /// A feed list could not be read: nothing runs.
    case unreadableList(reason: String)
    /// A line of a feed list is no feed address; it is skipped.
    case invalidListLine(list: String, reason: String)
    /// The lists name no feed, and none was given.
    case emptyLists
    /// The subscription of a feed given could not be looked up (its secrets unreadable); it is skipped.
    case lookupFailed(reason: String)

    /// The status the problem leaves the run in.
    public var status: RunStatus {
        switch self {
        case .headersWithoutNamedFeeds, .noSubscriptions, .invalidFeed, .unreadableList, .invalidListLine,
            .emptyLists:
            return .usage
        case .damagedRecord, .unusableSubscription, .untrustedFile: return .archiveFailed
        case .credentialsMissing, .lookupFailed: return .feedFailed
        }
    }
}

/// The shows chosen for a sync, and the problems met choosing them.
public struct ShowChoice: Equatable, Sendable {
    /// The shows to sync, in order; nil when the run stops before any (the last problem says why).
    public var shows: [SyncTarget]? = []
    /// Every problem met, in order.
    public private(set) var problems: [SelectionProblem] = []

    /// No show yet, no problem.
    public init() {}

    /// The worst status the problems leave the run in; `success` for none.
    public var status: RunStatus { RunStatus.worst(of: problems.map(\.status)) }

    /// Records `problem`, met on the way.
    mutating func meet(_ problem: SelectionProblem) {
        problems.append(problem)
    }

    /// This choice ended by `problem`: no show runs.
    func stopped(by problem: SelectionProblem) -> ShowChoice {
        var stopped = self
        stopped.meet(problem)
        stopped.shows = nil
        return stopped
    }
}
