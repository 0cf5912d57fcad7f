// The sync pipeline. For one feed: find its folder, lock it, fetch the feed (conditionally), and archive every
// episode that is new, failed before, or whose file has gone missing:
//   download to a hidden file in the feed folder (resuming what an earlier run left), retry what may succeed
//   later, check it, record that it is complete, rename it into place, date it, record it in the index.
// Downloads run side by side; everything after the download happens on the sync's own task, in feed order.
// A crash at any point leaves the archive consistent, and the next run continues where this one stopped.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One show's sync: opened, its feed's links followed, its work planned, and its episodes fetched side by side and
/// settled in feed order.
struct ShowArchiver: Sendable {
    /// A feed fetched again when its 304 hides a URL's secret.
    let loader: FeedLoader
    /// The subscription of the show, and how its sync ended.
    let store: SubscriptionStore
    /// What a show's folder holds.
    let contents: FolderContents
    /// Checked downloads into place, in feed order.
    let placer: EpisodePlacer
    /// One episode's download, beside the others.
    let fetcher: EpisodeFetcher
    /// The dates recorded.
    let clock: SyncClock
    /// The credentials a show's requests carry.
    let access: ShowAccess
    /// The show's folder found, locked and opened, and its feed fetched.
    let opener: ShowOpener
    /// The feed's pages, moves and history.
    let follower: FeedFollower
    /// What the index keeps of secrets.
    let secrets: ArchiveSecrets
    /// What the serial half of the sync works with.
    let parts: SyncParts

    /// Archives every episode of the feed at `source` that `root` does not hold yet, retries those that failed
    /// before, and fetches again files that went missing.
    ///
    /// - Returns: what was archived and what failed (each is also reported through `onEvent` as it happens).
    /// - Throws: `FeedError` when the feed cannot be fetched or read; `ArchiveError` when the archive cannot be
    ///   used (`.locked` by another sync, `.storage` for a full disk or unwritable folder, a damaged index).
    ///   Nothing already archived is touched in either case.
    ///   Cancelled (the caller's task), it stops at once, keeps partial downloads for the next run, records no
    ///   failure for what the cancellation cut short, and throws `ArchiveError.interrupted`.
    func sync(
        _ source: FeedSource, into root: URL, options: SyncOptions = SyncOptions(), known: ResolvedSubscription? = nil,
        onEvent: @escaping @Sendable (SyncEvent) -> Void = { _ in }
    ) async throws -> SyncReport {
        do {
            let report = try await archive(source, into: root, options: options, known: known, onEvent: onEvent)
            try Task.checkCancellation()
            return report
        } catch  where Task.isCancelled {
            let folder = (try? store.find(source, in: root))?.map {
                ArchiveRoot(root).showFolder($0.record.folder)
            }
            let partials = folder.map { contents.partialDownloads(in: $0, records: parts.records) }
            throw ArchiveError.interrupted(resuming: partials?.resuming ?? 0, startingAgain: partials?.again ?? 0)
        }
    }

    private func archive(
        _ source: FeedSource, into root: URL, options given: SyncOptions, known read: ResolvedSubscription?,
        onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        // The subscription the caller read for this source (a run over every subscription has read them all).
        let read = read?.source == source ? read : nil
        guard let known = try read ?? store.find(source, in: root) else {
            return try await archiveNew(source, into: root, options: given, onEvent: onEvent)
        }
        return try await archive(known.source, known: known, into: root, options: given, onEvent: onEvent)
    }

    /// A feed no subscription of `root` is: never one whose URL carries the redaction marker.
    private func archiveNew(
        _ source: FeedSource, into root: URL, options given: SyncOptions,
        onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        guard !URLSecrets.carriesRedaction(source.displayName) else {
            throw FeedError.lacksSecret(url: source.displayName)
        }
        return try await archive(source, known: nil, into: root, options: given, onEvent: onEvent)
    }

    private func archive(
        _ source: FeedSource, known: ResolvedSubscription?, into root: URL, options given: SyncOptions,
        onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        let options = try access.withAccess(given, saved: known?.credentials, of: known?.record, at: source)
        // Everything the show supplies is redacted as its taint says, wherever it is written (see `Taint`).
        return try await options.taint.run {
            try await archive(source, known: known, into: root, accessed: options, onEvent: onEvent)
        }
    }

    private func archive(
        _ source: FeedSource, known: ResolvedSubscription?, into root: URL, accessed options: SyncOptions,
        onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        // The archive's identity is made once a feed has been read: a failed first sync creates nothing.
        var (show, first, record) = try await opener.open(
            source, known: known?.record, in: root, options: options, forms: { try secrets.secretForms(of: root) },
            onEvent: onEvent)
        let lock = show.lock
        defer { lock.unlock() }
        do {
            // Files of an earlier version at names the site writes move before anything looks at the folder.
            for move in try placer.freeSiteNames(in: &show) { onEvent(.siteName(move)) }
            let forms = try secrets.secretForms(of: root)
            let index = show.index
            // A show that moved is archived from its new home in the same run.
            let (home, moved) = await follower.relocate(
                first, of: source, record: &record, show: &show, in: root, options: options, onEvent: onEvent)
            let (fetch, pages) = await follower.walkPages(
                follower.keepHistory(moved, in: show, onEvent: onEvent), of: home,
                known: { index.entry(for: forms.episode($0)) != nil },
                archived: show.archives, archiveLinks: show.archiveLinks, refusedBefore: show.refusedPage,
                options: options,
                onEvent: onEvent)
            var report = try await archive(
                &show, forms.fetch(fetch), of: home, pages: pages, options: options, forms: forms, onEvent: onEvent)
            if home != source { report.movedTo = home.shownName }
            // The show's saved retention, with the lock still held: a rolling window each night.
            if let rule = try RetentionRule.of(options.retentionSettings) {
                report.retained = try EpisodeOffloader(folders: opener.folders, clock: clock).apply(
                    rule.keep, target: rule.target, to: &show, dryRun: false)
            }
            store.recordSync(
                LastSync(
                    finished: FeedDate.iso8601(clock.now()),
                    outcome: report.failed.isEmpty ? .ok : .episodesFailed,
                    archived: report.archived.count),
                of: record.id, known: record, podcastGUID: fetch.feed?.podcastGUID, in: root, lock: lock)
            return report.shown()
        } catch  where !Task.isCancelled {
            opener.recordFailure(error, of: record.id, in: root)
            throw error
        }
    }

    /// The sync of a show whose folder is open and locked, and whose feed is fetched.
    private func archive(
        _ show: inout FeedFolder, _ given: FeedFetch, of source: FeedSource, pages: PageWalk?, options: SyncOptions,
        forms: SecretForms, onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport {
        var fetch = given
        // A 304 leaves work for the index alone to describe; one whose URL's secret is kept only by the feed (a file
        // gone missing, see `SecretForms`) needs the feed after all.
        if case .notModified = fetch, show.index.episodes.contains(where: { URLSecrets.carriesRedaction($0.url) }) {
            let present = contents.presentFiles(in: show.folder, index: show.index)
            if show.index.episodes.contains(where: { !present.contains($0.file) && URLSecrets.carriesRedaction($0.url) }
            ) {
                fetch = forms.fetch(
                    try await loader.load(source, ifChangedSince: nil, descriptions: true, limits: options.feedLimits))
            }
        }
        // A login the publisher wrote into the feed's URLs goes with the requests to its own origin.
        var withLogins = options
        if case .changed(let feed, _) = fetch { withLogins.profile.credentials += feed.logins }
        // `{number}`: every episode numbered, durably, before the first name that uses one is given.
        if withLogins.names.usesNumbers {
            withLogins.names.numbers = try parts.records.numbered(
                fetch.feed?.episodes ?? [], index: show.index, of: show.state, save: true)
        }
        let options = withLogins
        let loadedIndex = show.index
        // Only a sync that read the whole feed can tell which episodes the feed no longer lists.
        let removals =
            pages?.complete == false
            ? nil : Removals(now: FeedDate.iso8601(clock.now()), lastSeen: show.lastFetched)
        let planned = WorkPlan.make(
            fetch, index: &show.index, folder: show.folder, options: options, contents: contents, removals: removals)
        // A folder whose index was rebuilt (or whose files were copied in) already holds some episodes: adopt
        // them rather than keep each twice.
        let (work, adoptedInFilter) = try placer.adoptUnindexedFiles(
            planned.work, in: &show, template: options.names)
        // An episode a torn or damaged journal record held, folded away since the feed was last read in full (by this
        // run or another command), is taken back from the folder even when the filter leaves it out now: its file is
        // archived, and only adoption (which fetches nothing) knows it.
        let adoptedOutside =
            show.rederive || parts.indexes.folds.damages.contains(where: { $0.journal == show.journalURL })
            ? try placer.adoptUnindexedFiles(
                planned.leftOutEpisodes.map(WorkItem.new), in: &show, template: options.names
            ).adopted : []
        let adopted = adoptedInFilter + adoptedOutside
        var run = SyncRun(
            show: show, loadedIndex: loadedIndex, present: planned.present, parts: parts, options: options,
            pages: pages, onEvent: onEvent)
        defer { run.waitForCommits() }  // however the run ends, before the lock goes
        try await run.begin(
            fetch, of: source, work: work, skipped: planned.skipped + adopted, present: planned.present)
        for item in work where item.isNew {
            if let why = planned.preferred[item.episode.identity] { onEvent(.preferred(item.episode.shown, why)) }
        }

        // Downloads run side by side; naming, renaming, the index and the events stay on this task.
        let paths = show.state
        let sources = EpisodeSources(fetcher: fetcher)
        let others = planned.others
        // The size of a body that ended with its connection short of the feed's length, as the last run recorded
        // it: the same size again is the file (see `DownloadCheck`).
        let shortBefore = Dictionary(
            show.index.failures.compactMap { failure in failure.shortBody.map { (failure.key, $0) } },
            uniquingKeysWith: { first, _ in first })
        do {
            // Finished downloads wait, hidden and recorded as complete, until every earlier episode is settled:
            // names, the index and the output then follow the feed's order, whatever finished first. An error that
            // stops the run (a full disk) starts nothing new, but downloads already complete are still put in place
            // (a rename needs no space) before it is thrown.
            // With a budget, its slots cap the transfers (`jobs` in all), so twice as many episodes are under way:
            // one whose transfer ended gives its slot back before its fsync, and the next episode, already waiting
            // for a slot, downloads while it syncs (as episodes of several shows already wait on one budget).
            // Without one, `jobs` is the only cap; and `jobs` 1 is one episode at a time, each settled before the
            // next starts.
            try await OrderedTasks.run(
                count: work.count, width: options.budget != nil && options.jobs > 1 ? options.jobs * 2 : options.jobs,
                starting: { onEvent(.started(work[$0].episode, position: $0, total: work.count)) },
                operation: { position in
                    await Result {
                        let episode = work[position].episode
                        return try await sources.fetch(
                            episode, otherwise: others[episode.identity] ?? [], in: paths, options: options,
                            shortBefore: shortBefore[episode.identity],
                            waiting: { onEvent(.waitingToRetry(episode, seconds: $0, $1)) }
                        ) { received, expected in
                            onEvent(.progress(position: position, received: received, expected: expected))
                        }
                    }
                },
                finished: { position, _ in
                    // Cancelled: what the cancellation cut short is no failure to record; stop here.
                    try Task.checkCancellation()
                    onEvent(.finished(position: position))
                },
                settle: { position, outcome in try run.settle(outcome, item: work[position]) },
                // Settled episodes go to the journal together, synced in the background (group commit).
                settled: { try run.commit() })
        } catch let stop where !(stop is CancellationError) {
            throw SpaceRefusal.stopping(stop) { contents.partialBytes(of: paths) }
        }
        try await run.keepCompanions(fetch)
        let report = await run.runHooks(
            after: try run.finish(fetch, hadWork: !work.isEmpty, leftOut: planned.leftOut - adoptedOutside.count))
        // The show as the run left it (its index saved): what the show's retention works on next.
        show = run.show
        return report
    }
}

extension Result where Failure == Error {
    /// The result of an async throwing `body`.
    init(catching body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
