// What a sync reports: per-episode events as they happen, a report at the end, and what a dry run would do.
import Foundation

/// Something that happened during a sync, reported as it happens.
public enum SyncEvent: Sendable, Equatable {
    /// The feed at `source` was read: how many episodes it lists, how many of them are new, how many of its
    /// items have nothing to download (left out), and how many share a GUID with an earlier item (kept apart).
    case feedRead(
        title: String, folder: URL, episodes: Int, new: Int, source: String = "", withoutMedia: Int = 0,
        sharedGUIDs: Int = 0)
    /// Episode number `position` (from 0) of the `total` this sync fetches has started downloading.
    case started(Episode, position: Int, total: Int)
    /// Bytes of download `position` so far (a resumed download counts what it kept), and the size it should
    /// reach when the server or the feed said. Reported from the transfer's thread, often: keep handling cheap.
    case progress(position: Int, received: Int64, expected: Int64?)
    /// Download `position` ended, complete or not; `archived` or `failed` follows in feed order.
    case finished(position: Int)
    /// Items of the feed in a shape its format does not read (see `Feed.skippedItems`): left out, each with why.
    case itemsSkipped([SkippedItem])
    /// An episode of the feed is archived already (as `file`), so it was skipped.
    case skipped(Episode, file: String)
    /// An item of the feed has nothing to download (no enclosure): not an episode; named here, counted in the
    /// report.
    case itemWithoutMedia(title: String)
    /// An episode to fetch that filters could not be applied to (it gives no duration, number or date): kept; the
    /// settings are those (`EpisodeFilter.missing`).
    case keptWithout(Episode, missing: [ShowSettings.Key])
    /// An episode to fetch whose file `--prefer` chose among several, and why; no preference matched any file when
    /// its `preference` is nil (then the enclosure is archived).
    case preferred(Episode, PreferredRendition)
    /// An episode was downloaded, checked and moved into place.
    case archived(Episode, file: URL, bytes: Int64)
    /// An episode failed; it will be tried again next time.
    case failed(Episode, EpisodeFailure)
    /// The hook failed for an archived episode (which stays archived); tried again on the next run unless given up.
    case hookFailed(HookProblem)
    /// The hook succeeded for an archived episode (its title, else its file's name) and printed `output`: said only
    /// when asked (`-v`), so that an unattended run whose hooks did their work is quiet.
    case hookSaid(episode: String, file: String, output: String)
    /// An attempt at an episode failed in a way worth another: it is tried again after `seconds` (the backoff, or
    /// the server's `Retry-After`).
    case waitingToRetry(Episode, seconds: TimeInterval, EpisodeFailure)
    /// An episode answered 404/410 on every run since `since` (`YYYY-MM-DDTHH:MM:SSZ`), long enough to be taken
    /// as deleted by its publisher: recorded as gone upstream, no longer retried by default. Reported once.
    case gone(Episode, EpisodeFailure, since: String)
    /// The feed's artwork was saved (`--metadata`).
    case artwork(file: URL)
    /// The feed's artwork could not be fetched; it is tried again as `triedAgain` says. Episodes are not affected.
    case artworkFailed(url: String, EpisodeFailure, triedAgain: ArtworkRetry = .nextRun)
    /// The feed's further pages were walked: how many documents were read in all, and a page on another host
    /// that was not followed.
    case pagesRead(Int, notFollowed: String?)
    /// A page of the feed could not be read; the walk stopped there and the next run walks again.
    case pageFailed(PageProblem)
    /// A page link is not http(s) (`file:`, `javascript:`): not followed, said once (the walk ends there).
    case pageRefused(url: String)
    /// A page was linked a second time; the walk ended there.
    case pageCycle(url: String)
    /// The show moved to a new feed URL (a 301/308, or an announced new URL that answers): its subscription now
    /// follows it; folder, index and settings stay.
    case moved(from: String, to: String)
    /// After a move (or for a feed found on a page of another origin), the `.netrc` `default` login is not sent to
    /// the show's host `host`: it stays with `home`, the origin the show was first subscribed at (a `machine` entry
    /// for `host` would be sent).
    case defaultLoginStays(home: String, host: String)
    /// The feed given is a show already followed at another address (the same `podcast:guid`, self link, or
    /// title and episodes): its subscription now uses this one; folder, index and settings stay.
    case readdressed(from: String, to: String)
    /// Both feeds of a subscription another URL took over are kept (`add`, kept apart): `feed` is fetched into
    /// `folder` (the feed whose files it holds), and `apart` has a subscription and folder of its own,
    /// `apartFolder`, kept apart.
    case keptBoth(feed: String, folder: String, apart: String, apartFolder: String)
    /// The feed announced a new URL that did not answer with a feed (or could not be taken): nothing changed.
    case moveRefused(url: String, reason: String)
    /// The episode's file still did not match the publisher's hash on the run that keeps it anyway (hosts that
    /// insert ads never serve the bytes hashed): archived, recorded as not matching. Both digests in SRI form.
    case integrityKept(Episode, expected: String, received: String)
    /// Sources of the alternate enclosure the episode is archived as that are not http(s) (`ipfs:`): not fetched.
    case sourcesSkipped(Episode, [String])
    /// A source of the episode answered with the way to the media (a torrent, a playlist) rather than the media:
    /// passed over for the next source, or the episode's next file, which gave the file. Said before `archived`.
    case passedOver(Episode, url: String, NotMedia)
    /// The publisher's hash for the episode's file names no known algorithm with a well-formed digest: the file is
    /// archived unchecked.
    case integrityUnreadable(Episode, String)
    /// The feed's document could not be kept in the show's history; the sync goes on.
    case historyFailed(reason: String)
    /// A transcript, chapters document or artwork was kept beside its episode.
    case companion(file: URL)
    /// One could not be fetched or kept; the episode is not affected, and it is tried again next run.
    case companionFailed(episode: Episode, url: String, EpisodeFailure)
    /// One is given up, for `reason`: it answered 404 or 410 on `CompanionMisses.giveUpAfter` runs in a row, or
    /// it is no valid chapters document. Not tried again (unless gone episodes are retried); reported once.
    case companionGivenUp(episode: Episode, url: String, reason: String)
    /// An archived file or the show's folder had a name the site writes (an archive made before the site kept
    /// its names): it was moved to a free one, or could not be (then nothing changed).
    case siteName(SiteNameMove)

    /// When the show's artwork that could not be fetched is tried again.
    public enum ArtworkRetry: Sendable, Equatable {
        /// By the next run, which reads the feed in full for it.
        case nextRun
        /// When the feed is next read in full (it changed): the artwork was named by the document the history
        /// keeps, for a feed that answered 304 (see `FeedValidators.showRead`).
        case whenTheFeedChanges
    }
}

/// A file (or show folder) moved off a name the site writes, where it stood in the way of the site's own file.
public struct SiteNameMove: Sendable, Equatable {
    /// Where it was.
    public var from: URL
    /// Where it is now (or was to go).
    public var to: URL
    /// Why it could not be moved, when it could not: it stays where it was, and the index and records as well.
    public var failure: String?

    /// True when the file moved because a web server would run it (`Pilot.html`), not for a name the site needs.
    public var isLiveContent = false

    /// A move from `from` to `to`, failed for `failure` when given.
    public init(from: URL, to: URL, failure: String? = nil) {
        self.from = from
        self.to = to
        self.failure = failure
    }
}

/// The outcome of syncing one feed.
public struct SyncReport: Sendable, Equatable {
    /// The feed's title (else its folder's name).
    public var feedTitle: String
    /// The feed folder.
    public var folder: URL
    /// Files archived by this sync, in feed order.
    public var archived: [URL] = []
    /// Episodes that failed, in feed order, each with why.
    public var failed: [(episode: Episode, failure: EpisodeFailure)] = []
    /// Episodes recorded as gone upstream by this sync (see `SyncEvent.gone`); they do not fail the run.
    public var gone: [(episode: Episode, failure: EpisodeFailure, since: String)] = []
    /// Episodes skipped because they were archived before.
    public var alreadyArchived = 0
    /// Bytes of the files archived by this sync.
    public var bytes: Int64 = 0
    /// The server said the feed had not changed (`304`); only earlier failures and missing files were tried.
    public var feedUnchanged = false
    /// The feed's artwork, when this sync saved it (`--metadata`).
    public var artwork: URL?
    /// Why the feed's artwork could not be fetched, when it could not.
    public var artworkFailure: String?
    /// Documents of the feed read (1 unless it has further pages).
    public var pages = 1
    /// A page that could not be read: the episodes on it and after it wait for the next run.
    public var pageProblem: PageProblem?
    /// The show's new feed URL, when it moved during this sync.
    public var movedTo: String?
    /// Episodes the feed lists, not archived, that the filter (`limit`, `since`, `match`) left out.
    public var leftOut = 0
    /// Items of the feed with nothing to download (no enclosure): not episodes, counted so a summary can say so.
    public var itemsWithoutMedia = 0
    /// Items of the feed left out because their shape is not the format's (see `Feed.skippedItems`).
    public var skippedItems: [SkippedItem] = []
    /// The hooks that failed on this run (see `EpisodeHook`): the run failed, its episodes did not.
    public var hookProblems: [HookProblem] = []
    /// The episodes the show's saved retention moved or deleted after the sync (see `OffloadedEpisode`); those
    /// with `failed` stayed, and fail the run.
    public var retained: [OffloadedEpisode] = []

    /// An empty report for the feed in `folder`.
    public init(feedTitle: String, folder: URL) {
        self.feedTitle = feedTitle
        self.folder = folder
    }

    public static func == (lhs: SyncReport, rhs: SyncReport) -> Bool {
        lhs.feedTitle == rhs.feedTitle && lhs.folder == rhs.folder && lhs.archived == rhs.archived
            && lhs.alreadyArchived == rhs.alreadyArchived && lhs.bytes == rhs.bytes
            && lhs.failed.map(\.episode) == rhs.failed.map(\.episode)
            && lhs.failed.map(\.failure) == rhs.failed.map(\.failure)
            && lhs.gone.map(\.episode) == rhs.gone.map(\.episode) && lhs.gone.map(\.since) == rhs.gone.map(\.since)
            && lhs.feedUnchanged == rhs.feedUnchanged && lhs.artwork == rhs.artwork
            && lhs.artworkFailure == rhs.artworkFailure && lhs.pages == rhs.pages
            && lhs.pageProblem == rhs.pageProblem && lhs.movedTo == rhs.movedTo
            && lhs.skippedItems == rhs.skippedItems && lhs.retained == rhs.retained
    }
}

/// What a sync would do (`sync --dry-run`).
public struct SyncPlan: Sendable, Equatable {
    /// One download the sync would make.
    public struct Download: Sendable, Equatable {
        /// The episode to fetch.
        public var episode: Episode
        /// The archived file this fetches again because it went missing; nil for a new or failed episode.
        public var missingFile: String?
        /// Where the file would go, inside the feed folder (a sync can still pick `Title (2)` if a file of
        /// that name appears before it runs).
        public var file: String
        /// Which of the episode's files `--prefer` chose and why, when it had a choice (see `SyncEvent.preferred`).
        public var preferred: PreferredRendition?
    }

    /// The feed's title (else the name its folder has or would get).
    public var feedTitle: String
    /// The feed folder, existing or to be created.
    public var folder: URL
    /// Every download the sync would make: new episodes, earlier failures, and files gone missing.
    public var downloads: [Download]
    /// Episodes a sync would skip because they are archived.
    public var alreadyArchived: Int
    /// Listed episodes, not archived, the filter leaves out, each with the setting that does (in the feed's order).
    public var leftOut: [LeftOut] = []
    /// Episodes it would fetch although a filter could not be applied to them, each with the settings (`EpisodeFilter.missing`).
    public var keptWithout: [(episode: Episode, missing: [ShowSettings.Key])] = []
    /// Archived episodes (and ones it would fetch) the show's retention would offload or delete after it.
    public var retained: [OffloadedEpisode] = []

    /// An episode a filter leaves out, and which.
    public struct LeftOut: Sendable, Equatable {
        /// The episode (shown as the show's taint says).
        public var episode: Episode
        /// The setting that leaves it out.
        public var by: ShowSettings.Key
    }

    public static func == (lhs: SyncPlan, rhs: SyncPlan) -> Bool {
        lhs.feedTitle == rhs.feedTitle && lhs.folder == rhs.folder && lhs.downloads == rhs.downloads
            && lhs.alreadyArchived == rhs.alreadyArchived && lhs.leftOut == rhs.leftOut
            && lhs.keptWithout.map(\.episode) == rhs.keptWithout.map(\.episode)
            && lhs.keptWithout.map(\.missing) == rhs.keptWithout.map(\.missing) && lhs.retained == rhs.retained
    }
}

extension SyncReport {
    /// The report as it may be shown: its episodes' URLs redacted as the show's taint says (made on the show's task,
    /// before the report leaves it: what prints it later knows no taint).
    func shown() -> SyncReport {
        var report = self
        report.failed = failed.map { ($0.episode.shown, $0.failure) }
        report.gone = gone.map { ($0.episode.shown, $0.failure, $0.since) }
        return report
    }
}
