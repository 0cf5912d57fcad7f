// What a sync of several shows tells while it runs, and what it comes to. Events carry the position of the show
// they concern, so a caller running shows side by side can keep each show's lines together; the report holds each
// show's outcome, with the status the run decided for it and for the whole.
import Foundation

/// Something a sync of several shows did or met, as it happens.
public enum SyncRunEvent: Sendable {
    /// A show named was found: a directory link looked up, or a web page followed to its feed (`followed`: a
    /// page followed once reading the address found no feed; `show`: the position of the show being synced then,
    /// nil while the names are read).
    case found(ResolvedFeed, followed: Bool, show: Int?)
    /// A login or headers given with a web page stay with it: the feed the page names is on another origin and is
    /// read without them (`show`: as for `found`).
    case accessLeftBehind(ResolvedFeed, headers: Bool, show: Int?)
    /// A show named led to no feed; it is not synced (its outcome is in the report, before the shows').
    case unfound(ShowOutcome)
    /// A problem met choosing the shows.
    case problem(SelectionProblem)
    /// Two records of one show were merged (an archive made before addresses were normalised).
    case merged(SubscriptionSet.Merge)
    /// This many subscriptions still keep secrets inside the archive.
    case secretsInside(shows: Int)
    /// The shows to sync, in order; the positions of the events below index them.
    case chosen([SyncTarget])
    /// The show at this position starts.
    case started(show: Int)
    /// What the sync of the show at this position did.
    case show(Int, SyncEvent)
    /// The show at this position is done.
    case ended(show: Int, ShowOutcome)
    /// The site was written again after the shows synced (`site` in the request, or saved).
    case site(SiteReport, SiteSettings)
    /// Writing the site failed.
    case siteFailed(Error)
    /// The library was refreshed after the shows synced (`library` in the request, or saved).
    case library(LibraryReport)
    /// Refreshing the library failed.
    case libraryFailed(Error)
}

/// How one show of a sync ended.
public struct ShowOutcome: Sendable {
    /// What it came to.
    public enum Result: Sendable {
        /// Synced: what was archived and what failed.
        case synced(SyncReport)
        /// A dry run: what a sync would fetch.
        case planned(SyncPlan)
        /// Subscribed without downloading (`add`).
        case subscribed(Subscription)
        /// It failed before or while syncing (its feed, its settings, the archive).
        case failed(Error)
        /// The run was stopped while its feed was being found (`finding`) or read; nothing was saved for it.
        case interrupted(finding: Bool)
    }

    /// The show as named (its feed's display name, secrets redacted).
    public var feed: String
    /// Its feed, once known.
    public var source: FeedSource?
    /// The settings it synced with, in layers.
    public var settings: SettingsLayers?
    /// What it came to.
    public var result: Result
    /// The status it ends with.
    public var status: RunStatus
    /// How long it took, in seconds.
    public var seconds: TimeInterval

    /// An outcome.
    public init(
        feed: String, source: FeedSource? = nil, settings: SettingsLayers? = nil, result: Result, status: RunStatus,
        seconds: TimeInterval
    ) {
        self.feed = feed
        self.source = source
        self.settings = settings
        self.result = result
        self.status = status
        self.seconds = seconds
    }

    /// The error it failed with, as one line; nil when it did not fail.
    public var error: Error? {
        if case .failed(let error) = result { return error }
        return nil
    }
}

/// What a sync of several shows came to.
public struct SyncRunReport: Sendable {
    /// The outcome of each show named that led to no feed, then of each show synced, in order; nil when the run
    /// stopped before any show (a problem with the request or the archive's subscriptions: see the events).
    public var outcomes: [ShowOutcome]?
    /// How the run ended, as the process's exit status: the worst of its parts, or `interrupted`.
    public var status: RunStatus
    /// What telling the run's end came to (`SyncRequest.Notice`).
    public var notices = Notices()

    /// A report.
    public init(outcomes: [ShowOutcome]?, status: RunStatus) {
        self.outcomes = outcomes
        self.status = status
    }
}

extension SyncReport {
    /// The status a show that synced ends with: `episodesFailed` while anything is left to try again next run (a
    /// failed episode, a page that could not be read, a hook that failed, or a damaged journal record the sync
    /// folded: `damaged`).
    public func status(damaged: Bool) -> RunStatus {
        failed.isEmpty && pageProblem == nil && hookProblems.isEmpty && !damaged
            && !retained.contains { $0.failed != nil }
            ? .success : .episodesFailed
    }
}
