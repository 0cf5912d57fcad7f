// The archiver the executable holds: built from its parts (`ArchiveParts`: the stores and workers over the seams
// it is given), it hands each command to the part that does it. Each method here is a call into one part:
//   a sync: `ShowArchiver` (with `ShowOpener`, `FeedFollower`, `SyncRun`), its dry run: `SyncPlanner`;
//   subscriptions: `ShowSubscriptions`, `SubscriptionStore`, `ShowAccess`, `CredentialMover`;
//   `verify`: `Verification`, `UpstreamChecker`; `export`: `WARCExport`; the site: `SiteWriter`.
import Foundation

/// Archives podcast feeds. Every effect goes through the injected seams.
public struct Archiver: Sendable {
    /// The stores and workers, built from the seams.
    var parts: ArchiveParts

    /// An archiver built from three groups of seams: a test that forgets one does not compile (it never falls
    /// through to the real disk). The live wiring is `Archiver.live(...)`.
    /// - Parameters:
    ///   - fileSystem: files, attributes, moves, atomic writes, locks and hashing.
    ///   - network: feeds (`fetcher`) and downloads (`downloader`).
    ///   - clock: the dates recorded, waits between retries and lock polls, deadlines, backoff jitter.
    ///   - configuration: where the credentials of private feeds are kept (see `ConfigurationFolder`); nil when
    ///     none can be named: a show that needs one then fails with `CredentialError.noFolder`.
    public init(
        fileSystem: FileSystemSeams, network: NetworkSeams, clock: SyncClock, configuration: ConfigurationFolder? = nil
    ) {
        parts = ArchiveParts(fileSystem: fileSystem, network: network, clock: clock, configuration: configuration)
    }

    /// The archiver with the live system: URLSession, FileManager, flock, the wall clock. The one place the live
    /// seams are chosen; each can be replaced for a test that wants the real thing but for one part (`timer`: nil
    /// is the wall clock's).
    public static func live(
        fetcher: any URLDataFetcher = FeedSession(),
        downloader: any FileDownloading = URLSessionDownloader(),
        files: any FileStore = FileManager.default,
        writer: any AtomicFileWriting = DurableFileWriter(),
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
        },
        timer: (@Sendable (TimeInterval) async throws -> Void)? = nil,
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        configuration: ConfigurationFolder? = nil
    ) -> Archiver {
        Archiver(
            fileSystem: .live(files: files, writer: writer),
            network: NetworkSeams(fetcher: fetcher, downloader: downloader),
            clock: SyncClock(now: now, sleep: sleep, timer: timer ?? Deadline.realTime, jitter: jitter),
            configuration: configuration)
    }

    /// The damaged journals this archiver folded into their indexes so far, for the command to say (see
    /// `IndexStore.save`: every command that writes an index folds through it).
    public var journalFolds: JournalFolds { parts.indexes.folds }

    /// This archiver keeping credentials in `configuration` (see `init`).
    public func using(configuration: ConfigurationFolder?) -> Archiver {
        var copy = self
        copy.parts = parts.using(configuration: configuration)
        return copy
    }

    /// Reads the feed at `source` without archiving anything: with `allPages`, the episodes of every page and
    /// archive document it links to as well (a page that cannot be read ends the walk; see `PageWalk`).
    public func list(_ source: FeedSource, limits: FeedLimits = FeedLimits(), allPages: Bool = false) async throws
        -> Feed
    {
        try await listPages(source, limits: limits, allPages: allPages).feed
    }

    /// `list` with what the walk of the pages found.
    public func listPages(_ source: FeedSource, limits: FeedLimits = FeedLimits(), allPages: Bool = true)
        async throws -> PageWalk
    {
        // With the show notes, which `--match-in description` reads.
        let first = try await parts.loader.load(source, descriptions: true, limits: limits)
        guard allPages else { return PageWalk(feed: first) }
        return await parts.loader.walkPages(from: first, of: source, descriptions: true, limits: limits)
    }

    /// Reads a subscription list from disk: OPML when `opml` is true, else one feed a line.
    public func subscriptions(atPath path: String, opml: Bool) throws -> [String] {
        try parts.loader.subscriptions(atPath: path, opml: opml)
    }

    /// Archives every episode of the feed at `source` that `root` does not hold yet, retries those that failed
    /// before, and fetches again files that went missing.
    ///
    /// - Returns: what was archived and what failed (each is also reported through `onEvent` as it happens).
    /// - Throws: `FeedError` when the feed cannot be fetched or read; `ArchiveError` when the archive cannot be
    ///   used (`.locked` by another sync, `.storage` for a full disk or unwritable folder, a damaged index).
    ///   Nothing already archived is touched in either case.
    ///   Cancelled (the caller's task), it stops at once, keeps partial downloads for the next run, records no
    ///   failure for what the cancellation cut short, and throws `ArchiveError.interrupted`.
    public func sync(
        _ source: FeedSource, into root: URL, options: SyncOptions = SyncOptions(), known: ResolvedSubscription? = nil,
        onEvent: @escaping @Sendable (SyncEvent) -> Void = { _ in }
    ) async throws -> SyncReport {
        try await parts.showArchiver.sync(source, into: root, options: options, known: known, onEvent: onEvent)
    }

    /// What `sync` with `options` would do for the feed at `source` (its pages and archive documents walked as a
    /// sync walks them, its filter, and the names its template gives), without downloading, creating, locking or
    /// writing anything.
    public func plan(_ source: FeedSource, into root: URL, options: SyncOptions = SyncOptions()) async throws
        -> SyncPlan
    {
        try await parts.planner.plan(source, into: root, options: options)
    }

    /// How a request for `source` is made: the credentials given in `options` over those saved for it in `root`
    /// (when it is subscribed there), and the `.netrc` file read; for reading a feed outside a sync (`list`).
    /// - Throws: `NetrcError` when a `.netrc` file asked for by name cannot be read; `CredentialError` when the
    ///   show's saved credentials cannot be read.
    public func access(_ options: SyncOptions, for source: FeedSource, in root: URL?) throws -> SyncOptions {
        try parts.showAccess.access(options, for: source, in: root)
    }

    /// Rechecks the archive at `directory`: one feed folder, or an archive root holding many.
    ///
    /// - Parameter repair: download again every missing, resized or changed file (the damaged file is kept aside
    ///   until its replacement is in place).
    /// - Throws: `ArchiveError.noArchive` when `directory` holds no index; `.locked` when a sync holds a feed.
    public func verify(
        _ directory: URL, repair: Bool, options: SyncOptions = SyncOptions(),
        onEvent: @Sendable (VerifyEvent) -> Void = { _ in }
    ) async throws -> VerifyReport {
        try await parts.verification.verify(directory, repair: repair, options: options, onEvent: onEvent)
    }

    /// Asks the origin of every episode archived in `directory` (a show's folder, or a root holding shows)
    /// whether it still exists, `jobs` at a time and at most 4 to one host; reports each as it is answered. Each
    /// show is asked with its saved credentials; `access` gives this run's User-Agent and `.netrc` file.
    /// - Throws: `ArchiveError.noArchive` when `directory` holds no index; a damaged index's error.
    public func checkUpstream(
        _ directory: URL, jobs: Int, limits: FeedLimits = FeedLimits(timeout: 60), access: SyncOptions = SyncOptions(),
        onCheck: @escaping @Sendable (UpstreamCheck) -> Void = { _ in }
    ) async throws -> UpstreamReport {
        try await parts.upstream.checkUpstream(directory, jobs: jobs, limits: limits, access: access, onCheck: onCheck)
    }

    /// Writes the shows in `shows` (every show of `root` when nil) to `file` as WARC 1.1, each record a gzip
    /// member of its own when the name ends in `.gz`.
    /// - Throws: `ArchiveError.noArchive` when `root` holds no show; the error of an index that cannot be read;
    ///   `ExportError` when a file cannot be read or the export cannot be written (nothing is then left under
    ///   `file`'s name), or `file` is inside a show's folder.
    /// - Parameter access: the `.netrc` file the run would read: a private show's companion that holds one of its
    ///   secrets is left out (`ExportReport.withheld`).
    public func exportWARC(
        _ root: URL, shows: [URL]? = nil, to file: URL, options: ExportOptions = ExportOptions(),
        access: SyncOptions = SyncOptions(), progress: (ExportProgress) -> Void = { _ in }
    ) throws -> ExportReport {
        try parts.export.exportWARC(
            root, shows: shows, to: file, options: options,
            privateShows: privateShows(in: root, shows: shows, access: access), progress: progress)
    }
}
