// How an archiver is put together: each seam given (a test's) or the live system's, and the stores and workers
// built from them, each handed what it uses.
import Foundation

extension Archiver {
    /// Every seam is given: a test that forgets one does not compile (it never falls through to the real disk).
    /// The live wiring is `Archiver.live(...)`.
    /// - Parameters:
    ///   - fetcher: fetches feeds (live: `FeedSession`, which refuses non-http(s) redirects).
    ///   - downloader: streams episodes to disk (live: `URLSessionDownloader`).
    ///   - mover, attributes, files: the file system (live: `FileManager.default`).
    ///   - writer: atomic, durable replacement of small files (live: `DurableFileWriter`).
    ///   - locker: per-feed locks (live: `FlockLocker`).
    ///   - hasher: hashes files already on disk (live: `StreamingFileHasher`).
    ///   - now: the clock, for dates recorded in the index.
    ///   - sleep: waits between retries and lock polls.
    ///   - timer: waits out the deadlines of feed fetches and episodes, and is cancelled when the work ends first.
    ///   - jitter: a random number in [0, 1) for backoff jitter.
    ///   - faults: called at each `FaultPoint` (tests only).
    ///   - configuration: where the credentials of private feeds are kept (see `ConfigurationFolder`); nil when
    ///     none can be named: a show that needs one then fails with `CredentialError.noFolder`.
    public init(
        fetcher: any URLDataFetcher,
        downloader: any FileDownloading,
        mover: any FileMovement,
        attributes: any FileAttributes,
        files: any FileStore,
        writer: any AtomicFileWriting,
        locker: any FileLocking,
        hasher: any FileHashing,
        now: @escaping @Sendable () -> Date,
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void,
        timer: @escaping @Sendable (TimeInterval) async throws -> Void,
        jitter: @escaping @Sendable () -> Double,
        faults: (@Sendable (FaultPoint) -> Void)? = nil,
        configuration: ConfigurationFolder? = nil
    ) {
        let clock = SyncClock(now: now, sleep: sleep, timer: timer)
        store = SubscriptionStore(
            files: files, attributes: attributes, writer: writer, clock: clock,
            secrets: CredentialStore(folder: configuration, files: files, attributes: attributes, writer: writer))
        loader = FeedLoader(fetcher: fetcher, files: files, timer: timer)
        (self.files, self.attributes, self.mover, self.writer) = (files, attributes, mover, writer)
        locks = ShowLocks(locker: locker, clock: clock)
        indexes = IndexStore(files: files, attributes: attributes, writer: writer)
        records = ShowRecords(files: files, writer: writer)
        history = HistoryStore(files: files, writer: writer)
        contents = FolderContents(files: files, attributes: attributes, mover: mover)
        folders = FeedFolders(
            files: files, attributes: attributes, mover: mover, locks: locks, indexes: indexes, records: records)
        self.fetcher = EpisodeFetcher(
            downloader: downloader, hasher: hasher, files: files, records: records, contents: contents, clock: clock,
            jitter: jitter)
        placer = EpisodePlacer(
            files: files, attributes: attributes, mover: mover, writer: writer, hasher: hasher, indexes: indexes,
            records: records, contents: contents, clock: clock, faults: faults)
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
        faults: (@Sendable (FaultPoint) -> Void)? = nil, configuration: ConfigurationFolder? = nil
    ) -> Archiver {
        Archiver(
            fetcher: fetcher, downloader: downloader, mover: FileManager.default, attributes: FileManager.default,
            files: files, writer: writer, locker: FlockLocker(), hasher: StreamingFileHasher(), now: now, sleep: sleep,
            timer: timer ?? Deadline.realTime, jitter: jitter, faults: faults)
    }

    /// What the serial half of each sync works with.
    var syncParts: SyncParts {
        SyncParts(
            placer: placer, metadata: metadata, companions: companions, indexes: indexes, records: records,
            files: files, clock: clock)
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
