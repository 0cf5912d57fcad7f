// How an archiver is put together: each seam given (a test's) or the live system's, and the stores and workers
// built from them, each handed what it uses.
import Foundation

extension Archiver {
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
        let (files, attributes, mover, writer) = (
            fileSystem.files, fileSystem.attributes, fileSystem.mover, fileSystem.writer
        )
        let (locker, hasher) = (fileSystem.locker, fileSystem.hasher)
        store = SubscriptionStore(
            files: files, attributes: attributes, writer: writer, clock: clock,
            secrets: CredentialStore(folder: configuration, files: files, attributes: attributes, writer: writer))
        loader = FeedLoader(fetcher: network.fetcher, files: files, timer: clock.timer)
        (self.files, self.attributes, self.mover, self.writer) = (files, attributes, mover, writer)
        locks = ShowLocks(locker: locker, clock: clock)
        indexes = IndexStore(files: files, attributes: attributes, writer: writer)
        records = ShowRecords(files: files, writer: writer)
        history = HistoryStore(files: files, writer: writer)
        contents = FolderContents(files: files, attributes: attributes, mover: mover)
        folders = FeedFolders(
            files: files, attributes: attributes, mover: mover, locks: locks, indexes: indexes, records: records)
        self.fetcher = EpisodeFetcher(
            downloader: network.downloader, hasher: hasher, files: files, records: records, contents: contents,
            clock: clock)
        placer = EpisodePlacer(
            files: files, attributes: attributes, mover: mover, writer: writer, hasher: hasher, indexes: indexes,
            records: records, contents: contents, clock: clock)
        metadata = MetadataWriter(
            fetcher: self.fetcher, files: files, mover: mover, writer: writer, records: records, contents: contents)
        companions = CompanionKeeper(
            fetcher: self.fetcher, placer: placer, files: files, writer: writer, hasher: hasher, indexes: indexes,
            records: records, contents: contents)
        self.clock = clock
        verifier = Verifier(
            folders: folders, indexes: indexes, records: records, history: history, contents: contents, files: files,
            mover: mover, fetcher: self.fetcher, placer: placer, hasher: hasher)
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

    /// What the serial half of each sync works with.
    var syncParts: SyncParts {
        SyncParts(
            placer: placer, metadata: metadata, companions: companions, indexes: indexes, records: records,
            files: files, clock: clock)
    }

    // The parts that use the subscriptions, made from `store` when asked (`using(configuration:)` replaces it).

    /// Which credentials, User-Agent and `.netrc` logins a show's requests carry.
    var showAccess: ShowAccess { ShowAccess(store: store, files: files) }

    /// What a show's files keep of the secrets in its URLs.
    var secrets: ArchiveSecrets {
        ArchiveSecrets(store: store, indexes: indexes, contents: contents, files: files, writer: writer)
    }

    /// A show's folder found, locked and opened, and its feed fetched.
    var opener: ShowOpener {
        ShowOpener(
            store: store, folders: folders, indexes: indexes, loader: loader, site: site, secrets: secrets,
            clock: clock)
    }

    /// A fetched feed's pages, moves and history.
    var follower: FeedFollower { FeedFollower(loader: loader, store: store, history: history, clock: clock) }

    /// One show's sync.
    var showArchiver: ShowArchiver {
        ShowArchiver(
            loader: loader, store: store, contents: contents, placer: placer, fetcher: fetcher, clock: clock,
            access: showAccess, opener: opener, follower: follower, secrets: secrets, parts: syncParts)
    }

    /// `sync --dry-run`.
    var planner: SyncPlanner {
        SyncPlanner(
            store: store, access: showAccess, loader: loader, folders: folders, indexes: indexes, records: records,
            contents: contents, follower: follower)
    }

    /// Subscribing, and what each show holds.
    var shows: ShowSubscriptions {
        ShowSubscriptions(
            store: store, indexes: indexes, files: files, access: showAccess, opener: opener, secrets: secrets)
    }

    /// `credentials --move`, and where secrets are kept.
    var credentialMover: CredentialMover {
        CredentialMover(
            store: store, folders: folders, secrets: secrets, files: files, attributes: attributes, writer: writer)
    }

    /// `verify`, with each show's access and real URLs.
    var verification: Verification {
        Verification(verifier: verifier, store: store, access: showAccess, loader: loader)
    }

    /// This archiver keeping credentials in `configuration` (see `init`).
    public func using(configuration: ConfigurationFolder?) -> Archiver {
        var copy = self
        copy.store = SubscriptionStore(
            files: files, attributes: attributes, writer: writer, clock: clock,
            secrets: CredentialStore(
                folder: configuration, files: files, attributes: attributes, writer: writer))
        return copy
    }
}
