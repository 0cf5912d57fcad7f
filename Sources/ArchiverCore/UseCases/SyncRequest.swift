// What `podarchive sync` asks, as one value: which shows (the feeds named and listed, else every subscription, and
// a shard of them), the settings given for them, and how the run goes. `Archiver.sync(_:onEvent:)` takes it and
// answers with events as they happen and a report whose status is the process's exit status.
import Foundation

/// A sync of several shows.
public struct SyncRequest: Sendable {
    /// The archive.
    public var root: URL
    /// Which shows: the feeds named (as typed: a feed, a web page, an Apple Podcasts link), the lists, the headers
    /// given for the feeds named, the shard. Its `given` settings are not read: `settings.given` is.
    public var selection: ShowSelection
    /// The settings given (saved with the feeds named) and the configuration file's (never saved).
    public var settings: CommandSettings
    /// Retries, deadlines, the lock wait, downloads at once and the bandwidth cap.
    public var transfer = TransferSettings()
    /// How many shows sync at once (`--jobs` still caps their downloads in all).
    public var feedJobs = 1
    /// Only say what would be downloaded: nothing is fetched but feeds, nothing written.
    public var dryRun = false
    /// Also try episodes recorded as gone upstream.
    public var retryGone = false
    /// The largest feed document read.
    public var maximumFeedSize = FeedLimits.defaultMaximumBytes
    /// The command run after each archived episode; never saved.
    public var hook: EpisodeHook?
    /// `--site` (true) or `--no-site` (false), saved for the archive; nil keeps what is saved. When the saved
    /// answer is yes, the site is written after the shows sync (not on a dry run, nor once interrupted).
    public var site: Bool?
    /// `--library DIR` (the folder, absolute) or `--no-library` (""), saved for the archive; nil keeps what is
    /// saved. With a folder saved, the library is refreshed after the shows sync (and after the site), as
    /// `export --library` writes it (not on a dry run, nor once interrupted).
    public var library: String?
    /// The directory Apple Podcasts links are looked up in.
    public var directory = PodcastDirectory.apple
    /// What to tell once the run has ended (`--notify`, `--exec-after-run`); never saved.
    public var notice = Notice()

    /// A sync of the shows `selection` names in `root`, with `settings`.
    public init(root: URL, selection: ShowSelection, settings: CommandSettings) {
        self.root = root
        self.selection = selection
        self.settings = settings
    }

    /// How a feed named is read while finding it: within the run's deadline and size cap, with its User-Agent
    /// (the command line's, else the configuration file's, else podarchive's) and bandwidth cap.
    func findingLimits(throttle: Throttle?) -> FeedLimits {
        FeedLimits(
            maximumBytes: maximumFeedSize, timeout: transfer.timeout, policy: settings.findingPolicy(throttle: throttle)
        )
    }
}
