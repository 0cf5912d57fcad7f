// The sync pipeline. For one feed: find its folder, lock it, fetch the feed (conditionally), and archive every
// episode that is new, failed before, or whose file has gone missing, one at a time:
//   download to a hidden file in the feed folder (resuming what an earlier run left), retry what may succeed
//   later, check it, record that it is complete, rename it into place, date it, record it in the index.
// A crash at any point leaves the archive consistent, and the next run continues where this one stopped.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// How a sync behaves.
public struct SyncOptions: Sendable, Equatable {
    /// How often a failing download is tried again within this run, and how long to wait between tries.
    public var retry: RetryPolicy
    /// Each episode must be complete within this many seconds, all attempts and waits included.
    public var episodeTimeout: TimeInterval
    /// How long to wait for another process syncing the same feed (0: fail at once with `locked`).
    public var lockWait: TimeInterval
    /// How many episodes download at once.
    public var jobs: Int
    /// Which of the feed's episodes this sync considers (new ones, earlier failures, missing files).
    public var filter: EpisodeFilter
    /// How new files are named (`--name`); files already archived keep their names.
    public var names: NameTemplate
    /// Write a JSON sidecar beside each archived file, and fetch the feed's artwork once (`--metadata`).
    public var metadata: Bool
    /// The largest feed document read (decompressed), in bytes.
    public var maximumFeedSize: Int64
    /// Also try episodes recorded as gone upstream (see `ArchiveIndex.Failure.goneAfter`).
    public var retryGone: Bool

    /// Sync options; the defaults are the command line's.
    public init(
        retry: RetryPolicy = RetryPolicy(), episodeTimeout: TimeInterval = 3600, lockWait: TimeInterval = 0,
        jobs: Int = 4, filter: EpisodeFilter = EpisodeFilter(), names: NameTemplate = .standard,
        metadata: Bool = false, maximumFeedSize: Int64 = FeedLimits.defaultMaximumBytes, retryGone: Bool = false
    ) {
        self.retry = retry
        self.episodeTimeout = episodeTimeout
        self.lockWait = lockWait
        self.jobs = jobs
        self.filter = filter
        self.names = names
        self.metadata = metadata
        self.maximumFeedSize = maximumFeedSize
        self.retryGone = retryGone
    }

    /// What a feed fetch may take: the size cap, and the same total time an episode gets.
    public var feedLimits: FeedLimits { FeedLimits(maximumBytes: maximumFeedSize, timeout: episodeTimeout) }
}

/// Points where tests make the process die, to prove a crash there loses nothing.
public enum FaultPoint: String, Sendable, CaseIterable {
    /// The download is complete and checked; the rename into place is next.
    case beforeRename = "before-rename"
    /// The file is in place; the index does not list it yet.
    case afterRename = "after-rename"
}

/// Archives podcast feeds. Every effect goes through the injected seams.
public struct Archiver: Sendable {
    let loader: FeedLoader
    let downloader: any FileDownloading
    let mover: any FileMovement
    let attributes: any FileAttributes
    let files: any FileStore
    let writer: any AtomicFileWriting
    let locker: any FileLocking
    let hasher: any FileHashing
    let now: @Sendable () -> Date
    let sleep: @Sendable (TimeInterval) async throws -> Void
    let jitter: @Sendable () -> Double
    let faults: (@Sendable (FaultPoint) -> Void)?
    /// The registry, locks, index and records of feed folders.
    let folders: FeedFolders
    /// One episode's download, beside the others.
    let fetcher: EpisodeFetcher
    /// Checked downloads into place, in feed order.
    let placer: EpisodePlacer

    /// - Parameters:
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
    ///   - jitter: a random number in [0, 1) for backoff jitter.
    ///   - faults: called at each `FaultPoint` (tests only).
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
        jitter: @escaping @Sendable () -> Double,
        faults: (@Sendable (FaultPoint) -> Void)? = nil
    ) {
        self.loader = FeedLoader(fetcher: fetcher, files: files)
        self.downloader = downloader
        self.mover = mover
        self.attributes = attributes
        self.files = files
        self.writer = writer
        self.locker = locker
        self.hasher = hasher
        self.now = now
        self.sleep = sleep
        self.jitter = jitter
        self.faults = faults
        let folders = FeedFolders(
            files: files, attributes: attributes, mover: mover, writer: writer, locker: locker, sleep: sleep)
        self.folders = folders
        self.fetcher = EpisodeFetcher(
            downloader: downloader, hasher: hasher, folders: folders, now: now, sleep: sleep, jitter: jitter)
        self.placer = EpisodePlacer(mover: mover, hasher: hasher, folders: folders, now: now, faults: faults)
    }

    /// The archiver with the live system: URLSession, FileManager, flock, the wall clock. The one place the live
    /// seams are chosen; each can be replaced for a test that wants the real thing but for one part.
    public static func live(
        fetcher: any URLDataFetcher = FeedSession(),
        downloader: any FileDownloading = URLSessionDownloader(),
        files: any FileStore = FileManager.default,
        writer: any AtomicFileWriting = DurableFileWriter(),
        now: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (TimeInterval) async throws -> Void = { seconds in
            try await Task.sleep(nanoseconds: UInt64(max(0, seconds) * 1e9))
        },
        jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        faults: (@Sendable (FaultPoint) -> Void)? = nil
    ) -> Archiver {
        Archiver(
            fetcher: fetcher, downloader: downloader, mover: FileManager.default, attributes: FileManager.default,
            files: files, writer: writer, locker: FlockLocker(), hasher: StreamingFileHasher(), now: now, sleep: sleep,
            jitter: jitter, faults: faults)
    }

    /// Reads the feed at `source` without archiving anything.
    public func list(_ source: FeedSource, limits: FeedLimits = FeedLimits()) async throws -> Feed {
        try await loader.load(source, limits: limits)
    }

    // MARK: - sync

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
        _ source: FeedSource, into root: URL, options: SyncOptions = SyncOptions(),
        onEvent: @escaping @Sendable (SyncEvent) -> Void = { _ in }
    ) async throws -> SyncReport {
        do {
            let report = try await archive(source, into: root, options: options, onEvent: onEvent)
            try Task.checkCancellation()
            return report
        } catch  where Task.isCancelled {
            throw ArchiveError.interrupted(partialDownloads: partialDownloads(of: source, in: root))
        }
    }

    /// How many downloads of the feed's folder wait to be resumed.
    private func partialDownloads(of source: FeedSource, in root: URL) -> Int {
        guard let folder = try? folders.registeredFolder(for: source, in: root) else { return 0 }
        let state = folder.appendingPathComponent(ArchiveIndex.stateFolderName)
        let names = (try? files.contentsOfDirectory(atPath: state.path)) ?? []
        return names.count { $0.hasPrefix("download-") && $0.hasSuffix(".part") }
    }

    private func archive(
        _ source: FeedSource, into root: URL, options: SyncOptions, onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        var context: FeedContext
        let fetch: FeedFetch
        if let known = try folders.registeredFolder(for: source, in: root) {
            // A feed synced before: lock first, then ask whether it changed.
            context = try await folders.open(folder: known, source: source, options: options)
            fetch = try await loader.load(
                source, ifChangedSince: context.validators, descriptions: options.metadata, limits: options.feedLimits)
        } else {
            let first = try await loader.load(
                source, ifChangedSince: nil, descriptions: options.metadata, limits: options.feedLimits)
            guard case .changed(let feed, _) = first else {
                throw FeedError.httpStatus(url: source.displayName, status: 304)
            }
            var folder = try folders.chooseFolder(for: feed, source: source, in: root)
            context = try await folders.open(folder: folder, source: source, options: options)
            // Chosen before the lock: another show of the same title may have taken the folder while this run
            // waited for it. Under the lock the choice is made again, until the folder is this show's.
            var attempts = 0
            while !FeedFolders.belongs(feed, source: source, to: context.index) {
                context.lock.unlock()
                attempts += 1
                guard attempts < 100 else {
                    throw ArchiveError.cannotCreateFolder(path: folder.path, reason: "other shows keep taking it")
                }
                folder = try folders.chooseFolder(for: feed, source: source, in: root)
                context = try await folders.open(folder: folder, source: source, options: options)
            }
            try folders.register(source, folder: folder.lastPathComponent, in: root)
            fetch = first
        }
        defer { context.lock.unlock() }
        let loadedIndex = context.index

        let planned = WorkPlan.make(
            fetch, index: &context.index, folder: context.folder, filter: options.filter,
            retryGone: options.retryGone, folders: folders)
        let (present, leftOut) = (planned.present, planned.leftOut)
        // A folder whose index was rebuilt (or whose files were copied in) already holds some episodes: adopt
        // them rather than keep each twice.
        let (work, adopted) = try adoptUnindexedFiles(planned.work, in: &context, options: options)
        let skipped = planned.skipped + adopted

        let title =
            context.index.title.flatMap { FileNamer.sanitize($0).isEmpty ? nil : $0 }
            ?? context.folder.lastPathComponent
        var report = SyncReport(feedTitle: title, folder: context.folder)
        if case .changed = fetch {
            report.alreadyArchived = skipped.count
        } else {
            report.alreadyArchived = context.index.episodes.count - work.count { !$0.isNew }
            report.feedUnchanged = true
        }
        var withoutMedia = 0
        var sharedGUIDs = 0
        if case .changed(let feed, _) = fetch {
            withoutMedia = feed.itemsWithoutMedia
            sharedGUIDs = feed.sharedGUIDs
        }
        onEvent(
            .feedRead(
                title: title, folder: context.folder, episodes: report.alreadyArchived + work.count, new: work.count,
                source: source.displayName, withoutMedia: withoutMedia, sharedGUIDs: sharedGUIDs))
        for (episode, file) in skipped { onEvent(.skipped(episode, file: file)) }

        let indexedFiles = context.index.fileNames
        var names = NameAllocator(taken: present.union(indexedFiles), sidecars: options.metadata)
        // With --metadata: episodes as the feed describes them (show notes and all), sidecars that are missing, and
        // the artwork if the folder has none.
        var described: [String: Episode] = [:]
        if options.metadata, case .changed(let feed, _) = fetch {
            described = Dictionary(feed.episodes.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
            for (episode, file) in skipped where present.contains(file) {
                let sidecar = Self.sidecarName(for: file)
                guard !present.contains(sidecar), let entry = context.index.entry(for: episode) else { continue }
                try writeSidecar(for: episode, entry: entry, feedTitle: title, in: context)
            }
            if let image = feed.imageURL, !present.contains(where: { Self.isArtwork($0) && !indexedFiles.contains($0) })
            {
                switch try await fetchArtwork(image, in: context, names: &names, options: options) {
                case .success(let file):
                    report.artwork = file
                    onEvent(.artwork(file: file))
                case .failure(let failure):
                    report.artworkFailure = failure.reason
                    onEvent(.artworkFailed(url: image, failure))
                }
            }
        }
        let paths = context.paths
        let jobs = max(1, options.jobs)
        var failuresSaved = now()
        var unsavedFailures = false
        // Downloads run side by side; naming, renaming, the index and the events stay on this task.
        let items = work
        try await withThrowingTaskGroup(of: FetchOutcome.self) { group in
            var started = 0
            func start(_ position: Int, in group: inout ThrowingTaskGroup<FetchOutcome, Error>) {
                onEvent(.started(items[position].episode, position: position, total: items.count))
                launch(items[position], at: position, in: paths, options: options, group: &group) {
                    received, expected in
                    onEvent(.progress(position: position, received: received, expected: expected))
                }
            }
            while started < min(jobs, items.count) {
                start(started, in: &group)
                started += 1
            }
            // Finished downloads wait here, hidden and recorded as complete, until every earlier episode is
            // placed: names, the index and the output then follow the feed's order, whatever finished first.
            var finished: [Int: Result<Fetched, Error>] = [:]
            var nextToPlace = 0
            while let done = try await group.next() {
                // Cancelled: what the cancellation cut short is no failure to record; stop here.
                try Task.checkCancellation()
                finished[done.position] = done.result
                onEvent(.finished(position: done.position))
                if started < items.count {
                    start(started, in: &group)
                    started += 1
                }
                while let outcome = finished.removeValue(forKey: nextToPlace) {
                    let item = items[nextToPlace]
                    nextToPlace += 1
                    do {
                        let entry = try complete(try outcome.get(), item: item, in: &context, names: &names)
                        if options.metadata {
                            let episode = described[item.episode.identity] ?? item.episode
                            try writeSidecar(for: episode, entry: entry, feedTitle: title, in: context)
                        }
                        let file = context.folder.appendingPathComponent(entry.file)
                        report.archived.append(file)
                        report.bytes += entry.size
                        onEvent(.archived(item.episode, file: file, bytes: entry.size))
                    } catch let failure as EpisodeFailure {
                        let key = item.episode.identity
                        let previous = context.index.failures.first { $0.key == key }
                        var record = ArchiveIndex.Failure(
                            episode: item.episode, reason: failure.reason, failed: FeedDate.iso8601(now()))
                        if case .httpStatus(let status) = failure { record.status = status }
                        record.carryHistory(from: previous, at: now())
                        context.index.failures.removeAll { $0.key == key }
                        context.index.failures.append(record)
                        // Failures are saved at most once a second (and when the run ends): rewriting the index
                        // for each of 50,000 failing episodes made a run quadratic. A crash loses only failure
                        // records, and those episodes are tried again anyway.
                        if now().timeIntervalSince(failuresSaved) >= 1 {
                            try folders.save(context.index, to: context.indexURL)
                            failuresSaved = now()
                        }
                        unsavedFailures = true
                        if let since = record.missingSince, record.gone != nil {
                            // Reported once, in the run that gives up on it; no failure of the run.
                            report.gone.append((item.episode, failure, since: since))
                            onEvent(.gone(item.episode, failure, since: since))
                        } else {
                            report.failed.append((item.episode, failure))
                            onEvent(.failed(item.episode, failure))
                        }
                    }
                }
            }
        }
        // Each archived episode saved the index as it finished; failures may wait for this; with nothing to do,
        // save only what changed.
        if unsavedFailures
            || (work.isEmpty && (context.index != loadedIndex || !files.fileExists(atPath: context.indexURL.path)))
        {
            try folders.save(context.index, to: context.indexURL)
        }
        // Only a completed run earns the right to skip the feed next time it is unchanged.
        if case .changed(_, var validators) = fetch {
            validators.incomplete = report.artworkFailure != nil || leftOut > 0
            validators.sidecars = options.metadata
            try folders.saveRecord(validators, to: context.validatorsURL)
        }
        return report
    }

    /// New episodes whose file is already in the folder but not in the index, as the feed describes it: at the
    /// name this episode would get, with the size the feed gives. Each is hashed and recorded, not downloaded.
    /// (A file whose size the feed does not give is compared with the download instead; see `place`.)
    private func adoptUnindexedFiles(
        _ work: [WorkItem], in context: inout FeedContext, options: SyncOptions
    ) throws -> (work: [WorkItem], adopted: [(Episode, String)]) {
        var remaining: [WorkItem] = []
        var adopted: [(Episode, String)] = []
        var claimed = context.index.fileNames
        for item in work {
            guard case .new(let episode) = item, let length = episode.length, length > 0,
                let name = folders.unindexedFile(for: episode, in: context, template: options.names),
                !claimed.contains(name),
                let hashed = try? hasher.sha256(ofFileAtPath: context.folder.appendingPathComponent(name).path),
                hashed.size == length
            else {
                remaining.append(item)
                continue
            }
            claimed.insert(name)
            context.index.record(entry(for: episode, file: name, size: hashed.size, sha256: hashed.digest))
            adopted.append((episode, name))
        }
        if !adopted.isEmpty { try folders.save(context.index, to: context.indexURL) }
        return (remaining, adopted)
    }

    /// What `sync` with `options` would do for the feed at `source` (its filter, and the names its template
    /// gives), without downloading, creating, locking or writing anything.
    public func plan(_ source: FeedSource, into root: URL, options: SyncOptions = SyncOptions()) async throws
        -> SyncPlan
    {
        let fetch = try await loader.load(source, ifChangedSince: nil, limits: options.feedLimits)
        guard case .changed(let feed, _) = fetch else {
            throw FeedError.httpStatus(url: source.displayName, status: 304)
        }
        let folder =
            try folders.registeredFolder(for: source, in: root)
            ?? folders.chooseFolder(for: feed, source: source, in: root)
        let indexURL = folder.appendingPathComponent(ArchiveIndex.stateFolderName).appendingPathComponent(
            ArchiveIndex.fileName)
        var index = try folders.loadIndex(at: indexURL) ?? ArchiveIndex(feed: source.displayName, title: nil)
        let planned = WorkPlan.make(
            fetch, index: &index, folder: folder, filter: options.filter, retryGone: options.retryGone,
            folders: folders)
        let (work, skipped, present) = (planned.work, planned.skipped, planned.present)
        let title = index.title.flatMap { FileNamer.sanitize($0).isEmpty ? nil : $0 } ?? folder.lastPathComponent
        var names = NameAllocator(taken: present.union(index.fileNames), sidecars: options.metadata)
        let downloads = work.map { item -> SyncPlan.Download in
            if case .missing(let entry) = item {
                return SyncPlan.Download(episode: item.episode, missingFile: entry.file, file: entry.file)
            }
            // The same claim as `place` makes, so the dry run names files as the sync will.
            let file = names.claim(
                for: item.episode, template: options.names, feedTitle: index.title ?? folder.lastPathComponent)
            return SyncPlan.Download(episode: item.episode, missingFile: nil, file: file)
        }
        return SyncPlan(feedTitle: title, folder: folder, downloads: downloads, alreadyArchived: skipped.count)
    }

    /// Starts fetching `item` (number `position` in the work list) as a child task of `group`.
    private func launch(
        _ item: WorkItem, at position: Int, in paths: FolderPaths, options: SyncOptions,
        group: inout ThrowingTaskGroup<FetchOutcome, Error>, progress: @escaping ProgressHandler
    ) {
        group.addTask {
            do {
                let fetched = try await self.fetch(item, in: paths, options: options, progress: progress)
                return FetchOutcome(position: position, result: .success(fetched))
            } catch {
                return FetchOutcome(position: position, result: .failure(error))
            }
        }
    }

    /// What one child task hands back. A class, so only a reference crosses the task group: returning the
    /// (Int, Result) tuple by value came back corrupted in optimised builds (Swift 6.3.1, Linux).
    final class FetchOutcome: Sendable {
        let position: Int
        let result: Result<Fetched, Error>

        init(position: Int, result: Result<Fetched, Error>) {
            self.position = position
            self.result = result
        }
    }

    /// A locked feed folder and what it holds.
    struct FeedContext {
        var folder: URL
        var stateFolder: URL
        var index: ArchiveIndex
        var validators: FeedValidators?
        var lock: any HeldLock
        /// How new files are named.
        var names: NameTemplate

        var indexURL: URL { stateFolder.appendingPathComponent(ArchiveIndex.fileName) }
        var paths: FolderPaths { FolderPaths(folder: folder, stateFolder: stateFolder) }
        var validatorsURL: URL { stateFolder.appendingPathComponent("feed.json") }
    }

    // MARK: - Names

    /// A name for a feed without a title: its host and path ("example.com/podcast/feed").
    static func fallbackTitle(for source: FeedSource) -> String {
        switch source {
        case .remote(let url):
            let path = url.deletingPathExtension().path
            return (url.host ?? "feed") + (path == "/" ? "" : path)
        case .local(let path):
            return URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        }
    }

    /// The episode file's stem: its title, else the enclosure's file name, else its GUID.
    static func stem(for episode: Episode) -> String {
        let candidates = [
            episode.title,
            URL(string: episode.url).map { $0.deletingPathExtension().lastPathComponent },
            episode.guid,
        ]
        for case let candidate? in candidates {
            let name = FileNamer.sanitize(candidate, maximumBytes: 200)
            if !name.isEmpty { return name }
        }
        return "Episode \(StableName.of(episode.identity))"
    }
}
