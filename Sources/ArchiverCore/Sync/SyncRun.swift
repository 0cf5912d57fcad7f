// The serial half of one sync of one show, on the sync's own task: what is reported when the feed is read, what
// happens as each download is settled in feed order (into place and the index, or recorded as a failure), and
// what the run saves when it ends. Downloads themselves run beside it (see `ShowArchiver.archive`).
import Foundation

/// What the serial half of a sync works with: the archiver's parts, for one `SyncRun`.
struct SyncParts: Sendable {
    let placer: EpisodePlacer
    let metadata: MetadataWriter
    let companions: CompanionKeeper
    let indexes: IndexStore
    let records: ShowRecords
    let files: any FileStore
    let clock: SyncClock
}

/// One sync of one show, from the feed read to the saved validators.
struct SyncRun {
    private let placer: EpisodePlacer
    private let metadata: MetadataWriter
    private let companions: CompanionKeeper
    private let indexes: IndexStore
    private let records: ShowRecords
    private let files: any FileStore
    private let clock: SyncClock
    private let options: SyncOptions
    private let onEvent: @Sendable (SyncEvent) -> Void
    /// The show's folder, locked, its index as this run changes it.
    private(set) var show: FeedFolder
    private var names: NameAllocator
    private(set) var report: SyncReport
    /// With `--metadata`: the episodes as the feed describes them (show notes and all), for their sidecars.
    private var described: [String: Episode] = [:]
    /// The index as the run found it: with nothing to do, it is saved only when it changed.
    private let loadedIndex: ArchiveIndex
    /// What the folder held when the run began (one listing, see `WorkPlan`).
    private let present: Set<String>
    private var failuresSaved: Date
    private var unsavedFailures = false
    /// The walk of the feed's pages, reported after the feed's own line.
    private let pages: PageWalk?
    /// Companions that could not be kept: the next run fetches the feed in full to try them again.
    private var companionsFailed = 0
    /// Appends the settled episodes to the journal in the background (group commit).
    private let committer: JournalCommitter
    /// Whether `index.json` exists: until it does, the index is written whole (a journal needs an index).
    private var indexWritten: Bool
    /// Set by a 304 that took the show's author or cover from the history (`takeFromHistory`); `finish` marks it.
    private var tookFromHistory = false
    /// Set when the cover URL the history keeps is redacted: `finish` asks the next run to read the feed in full.
    private var coverNeedsTheFeed = false

    init(
        show: FeedFolder, loadedIndex: ArchiveIndex, present: Set<String>, parts: SyncParts, options: SyncOptions,
        pages: PageWalk?, onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) {
        placer = parts.placer
        metadata = parts.metadata
        companions = parts.companions
        indexes = parts.indexes
        records = parts.records
        files = parts.files
        clock = parts.clock
        self.options = options
        self.onEvent = onEvent
        self.show = show
        self.loadedIndex = loadedIndex
        self.present = present
        names = NameAllocator(taken: present.union(show.index.fileNames), sidecars: options.metadata)
        report = SyncReport(feedTitle: show.title, folder: show.folder)
        self.pages = pages
        report.pages = pages?.pages ?? 1
        report.pageProblem = pages?.problem
        failuresSaved = clock.now()
        // The opener folded a journal read with damage (`ShowOpener.foldDamagedJournal`): appends go after whole
        // records only.
        assert(show.journal?.damaged.isEmpty != false, "a damaged journal is folded before a sync appends to it")
        committer = JournalCommitter(indexes: indexes, records: records, journal: show.journalURL)
        indexWritten = files.fileExists(atPath: show.indexURL.path)
    }

    /// Reports the feed as read and what is skipped; with `--metadata`, writes the sidecars archived episodes
    /// lack and fetches the artwork if the folder has none.
    mutating func begin(
        _ fetch: FeedFetch, of source: FeedSource, work: [WorkItem], skipped: [(Episode, String)],
        present: Set<String>
    ) async throws {
        // A hook owed is written before anything is fetched (see `HookRunner.owe`).
        if options.hook != nil {
            try HookRunner(records: records).owe(work.filter(\.isNew).map(\.episode.identity), in: show)
        }
        if case .changed = fetch {
            report.alreadyArchived = skipped.count
        } else {
            report.alreadyArchived = show.index.episodes.count - work.count { !$0.isNew }
            report.feedUnchanged = true
        }
        let feed: Feed?
        if case .changed(let changed, _) = fetch { feed = changed } else { feed = nil }
        report.itemsWithoutMedia = feed?.itemsWithoutMedia ?? 0
        // An unchanged feed lists what it listed when last read (forgotten episodes, and those its filter left out,
        // included), not what the index holds.
        onEvent(
            .feedRead(
                title: report.feedTitle, folder: show.folder,
                episodes: feed?.episodes.count ?? show.validators?.listed ?? report.alreadyArchived + work.count,
                new: work.count, source: source.displayName, withoutMedia: feed?.itemsWithoutMedia ?? 0,
                sharedGUIDs: feed?.sharedGUIDs ?? 0))
        report.skippedItems = feed?.skippedItems ?? []
        if !report.skippedItems.isEmpty { onEvent(.itemsSkipped(report.skippedItems)) }
        if let pages { onEvent(.pagesRead(pages.pages, notFollowed: pages.elsewhere)) }
        for title in feed?.titlesWithoutMedia ?? [] { onEvent(.itemWithoutMedia(title: title)) }
        for (episode, file) in skipped { onEvent(.skipped(episode, file: file)) }
        for item in work where item.isNew {
            let missing = options.filter.missing(item.episode)
            if !missing.isEmpty { onEvent(.keptWithout(item.episode, missing: missing)) }
        }
        guard let feed else { return try await takeFromHistory(source: source, present: present) }
        if options.metadata {
            described = Dictionary(feed.episodes.map { ($0.identity, $0) }, uniquingKeysWith: { first, _ in first })
            for (episode, file) in skipped where present.contains(file) {
                guard !present.contains(ArchiveNames.sidecarName(for: file)),
                    let entry = show.index.entry(for: episode)
                else { continue }
                try metadata.writeSidecar(for: episode, entry: entry, in: show)
            }
        }
        if let image = feed.imageURL, lacksCover(present) {
            let nextRun = FeedValidators.triesCoverNextRun(afterFailures: show.artworkFailures + 1)
            try await keepCover(image, triedAgain: nextRun ? .nextRun : .whenTheFeedChanges)
        }
    }

    /// Whether the run keeps the show's artwork and the folder has none: kept by every sync (with `--metadata`
    /// only, before 0.2), once, for the site and the library; `--no-companions` keeps none, unless `--metadata`
    /// asks for it.
    private func lacksCover(_ present: Set<String>) -> Bool {
        guard options.metadata || options.companions else { return false }
        let indexed = show.index.fileNames
        return !present.contains(where: { ArchiveLayout.isCover($0) && !indexed.contains($0) })
    }

    /// Fetches the show's artwork from `image` into the folder, and reports it, or why not and when it is tried
    /// again.
    private mutating func keepCover(_ image: String, triedAgain: SyncEvent.ArtworkRetry) async throws {
        switch try await metadata.fetchArtwork(image, in: show, names: &names, options: options) {
        case .success(let file):
            report.artwork = file
            onEvent(.artwork(file: file))
        case .failure(let failure):
            report.artworkFailure = failure.reason
            onEvent(.artworkFailed(url: image, failure, triedAgain: triedAgain))
        }
    }

    /// A feed answering 304 is not read: what the show's record lacks of the show itself (its author; its cover,
    /// when the run keeps one), as an archive of an earlier version lacks both, is taken from the document the
    /// history keeps as current, once (`FeedValidators.showRead`, marked by `finish`, as a run that reads the feed
    /// in full marks it): a cover that fails is tried again when the feed is next read in full, not each night. A
    /// cover URL whose secret the history redacted is fetched by the next run, which reads the feed in full for it.
    private mutating func takeFromHistory(source: FeedSource, present: Set<String>) async throws {
        guard show.validators != nil, show.validators?.showRead != true else { return }
        let wantsCover = lacksCover(present)
        guard show.index.author == nil || wantsCover else { return }
        let kept = HistoryStore.lastRead(by: show.state, files: files, url: source.url)
        if show.index.author == nil { show.index.author = kept?.author }
        if wantsCover, let image = kept?.imageURL {
            if URLSecrets.carriesRedaction(image) {
                coverNeedsTheFeed = true
            } else {
                try await keepCover(image, triedAgain: .whenTheFeedChanges)
            }
        }
        tookFromHistory = true
    }

    /// Hands the episodes settled since the last commit to the committer, which appends and syncs them with the
    /// others settled meanwhile (see `JournalCommitter`). The first ones of a show without an index file are
    /// written into a whole index instead, and a journal past `IndexJournal.foldSize` is folded.
    /// - Throws: `ArchiveError` when committing failed; the run stops.
    mutating func commit() throws {
        if let failure = committer.failed { throw failure }
        guard !show.unjournaled.isEmpty else { return }
        guard indexWritten else { return try saveIndex() }
        committer.submit(show.unjournaled)
        show.unjournaled = []
        if committer.journalSize > IndexJournal.foldSize { try saveIndex() }
    }

    /// Writes the index whole, folding the journal, once every episode handed to the committer is synced.
    private mutating func saveIndex() throws {
        try committer.drain()
        try indexes.save(&show)
        committer.journalFolded()
        indexWritten = true
    }

    /// Waits for the committer and removes the download records of the episodes it synced. Runs however the run
    /// ends (`ShowArchiver.archive` defers it), so one cancelled or stopped by an error still leaves every episode it
    /// settled in the journal, rather than for the next run to adopt from its download record.
    func waitForCommits() {
        try? committer.drain()
        committer.removeCommittedRecords()
        records.closeDownloadLog(of: show.state)
    }

    /// Settles one finished download, in feed order: into place, the index and the report, or recorded as a
    /// failure (saved at most once a second).
    /// - Throws: `ArchiveError` when the run must stop (a full disk...), never for one episode's failure.
    mutating func settle(_ sourced: Result<EpisodeSources.Sourced, Error>, item listed: WorkItem) throws {
        // What the index records of the episode, and the file's origin, is the file and source that served its
        // bytes.
        let item = (try? sourced.get()).map { listed.served(as: $0.episode) } ?? listed
        let outcome = sourced.map(\.fetched)
        for passed in (try? sourced.get())?.passedOver ?? [] {
            onEvent(.passedOver(item.episode, url: passed.url, passed.kind))
        }
        let skipped = PreferredFile.skippedSources(of: item.episode)
        if !skipped.isEmpty { onEvent(.sourcesSkipped(item.episode, skipped)) }
        if let value = IntegrityGate.unreadable(for: item.episode) {
            onEvent(.integrityUnreadable(item.episode, value))
        }
        do {
            let fetched = try outcome.get()
            let verdict = try judge(fetched, item: item)
            let entry = try placer.complete(fetched, item: item, in: &show, names: &names, template: options.names) {
                $0.publisher =
                    IntegrityGate.record(of: item, verdict: verdict, fetchedFrom: fetched.url) ?? $0.publisher
            }
            if let verdict, let received = verdict.mismatch {
                onEvent(.integrityKept(item.episode, expected: verdict.expected, received: received))
            }
            if options.metadata {
                try metadata.writeSidecar(
                    for: described[item.episode.identity] ?? item.episode, entry: entry, in: show)
            }
            let file = show.folder.appendingPathComponent(entry.file, isDirectory: false)
            report.archived.append(file)
            report.bytes += entry.size
            onEvent(.archived(item.episode, file: file, bytes: entry.size))
        } catch let failure as EpisodeFailure {
            try recordFailure(failure, of: item.episode)
        }
    }

    /// The publisher's hash applied to a download before it is placed (see `IntegrityGate`).
    private func judge(_ fetched: EpisodeFetcher.Fetched, item: WorkItem) throws -> IntegrityGate.Verdict? {
        guard case .downloaded(let result) = fetched else { return nil }
        let key = item.episode.identity
        return try IntegrityGate.judge(
            result, of: item.episode, partial: show.partial(key), previous: show.index.failures.first { $0.key == key },
            records: records)
    }

    private mutating func recordFailure(_ failure: EpisodeFailure, of episode: Episode) throws {
        let now = clock.now()
        let key = episode.identity
        let previous = show.index.failures.first { $0.key == key }
        var record = ArchiveIndex.Failure(episode: episode, reason: failure.reason, failed: FeedDate.iso8601(now))
        switch failure {
        case .httpStatus(let status): record.status = status
        // What the next run needs to know: the size that, coming again, is the file; what is offered in place of
        // media, not asked for again while the feed offers it there.
        case .shortOfFeedLength(_, let received): record.shortBody = received
        case .notMedia(let kind): record.notMedia = kind.rawValue
        default: break
        }
        record.carryHistory(from: previous, at: now)
        record.publisher = IntegrityGate.record(for: failure, of: episode, previous: previous)
        show.index.failures.removeAll { $0.key == key }
        show.index.failures.append(record)
        // Failures are saved at most once a second (and when the run ends): rewriting the index for each of
        // 50,000 failing episodes made a run quadratic. A crash loses only failure records, and those episodes
        // are tried again anyway.
        if now.timeIntervalSince(failuresSaved) >= 1 {
            try saveIndex()
            failuresSaved = now
        }
        unsavedFailures = true
        if let since = record.missingSince, record.gone != nil {
            // Reported once, in the run that gives up on it; no failure of the run.
            report.gone.append((episode, failure, since: since))
            onEvent(.gone(episode, failure, since: since))
        } else {
            report.failed.append((episode, failure))
            onEvent(.failed(episode, failure))
        }
    }

    /// Keeps the transcripts, chapters and artwork of the archived episodes that the folder lacks (see
    /// `CompanionKeeper`), when the feed was read.
    mutating func keepCompanions(_ fetch: FeedFetch) async throws {
        guard options.companions, case .changed(let feed, _) = fetch else { return }
        try committer.drain()  // the keeper writes the index whole
        let (failed, updated) = try await companions.keep(
            feed, in: &show, present: present, options: options, onEvent: onEvent)
        companionsFailed += failed
        // Sidecars name what is kept beside their file: those of episodes that gained some are written again.
        guard options.metadata else { return }
        for entry in show.index.episodes where updated.contains(entry.key) {
            guard let episode = described[entry.key] else { continue }
            try metadata.writeSidecar(for: episode, entry: entry, in: show)
        }
    }

    /// Runs the hook (`SyncOptions.hook`), when there is one, for what `report` archived and what it failed for
    /// on earlier runs (see `HookRunner`); `report` with what failed.
    /// An episode whose file a hook moved or removed is recorded as handed off (journal, then the index).
    mutating func runHooks(after report: SyncReport) async -> SyncReport {
        guard let hook = options.hook else { return report }
        var report = report
        let outcome = await HookRunner(records: records, indexes: indexes, clock: clock).run(
            hook, in: show, archived: report.archived, onEvent: onEvent)
        report.hookProblems = outcome.problems
        if !outcome.handedOff.isEmpty {
            for entry in outcome.handedOff { show.index.setAway(entry.away, forKey: entry.key) }
            // The journal holds them already; folded now, as a run ends (a failure leaves them to the next fold).
            try? indexes.save(&show)
        }
        return report
    }

    /// Saves what is left to save: failures not yet saved, an index that changed with nothing to do, and the
    /// feed's validators. Only a completed run earns the right to skip the feed next time it is unchanged.
    mutating func finish(_ fetch: FeedFetch, hadWork: Bool, leftOut: Int) throws -> SyncReport {
        // The archived episodes are in the journal; the run folds it into the index (failures may wait for this).
        try committer.drain()
        let journaled = !show.unjournaled.isEmpty || files.fileExists(atPath: show.journalURL.path)
        if journaled || unsavedFailures || (!hadWork && (show.index != loadedIndex || !indexWritten)) {
            #if PODARCHIVE_TEST_HOOKS
                if journaled { placer.faults?(.beforeFold) }
            #endif
            try saveIndex()
        }
        report.leftOut = leftOut
        if case .changed(let feed, var validators) = fetch {
            // A page that could not be read left work undone as well (marked before the run, see `walkPages`); so
            // does a failure whose URL's secret only the feed holds (see `SecretForms`): the next run asks for the
            // feed in full at once, never first conditionally (its request goes out before the index is read).
            let coverFailures = report.artworkFailure == nil ? 0 : show.artworkFailures + 1
            let undone =
                validators.incomplete == true
                || (coverFailures > 0 && FeedValidators.triesCoverNextRun(afterFailures: coverFailures))
                || companionsFailed > 0
                || show.index.failures.contains { URLSecrets.carriesRedaction($0.url) }
            // What the filter left out is left out again by a run that wants the same of an unchanged document: that
            // run trusts a 304 (`FeedValidators.covers`); one that wants something else reads the feed in full.
            validators.incomplete = undone || leftOut > 0
            validators.leftOutOnly = !undone && leftOut > 0 ? true : nil
            validators.wants = options.wants.fingerprint
            validators.listed = feed.episodes.count
            validators.sidecars = options.metadata
            validators.showRead = true
            validators.artworkFailures = coverFailures > 0 ? coverFailures : nil
            validators.fetched = FeedDate.iso8601(clock.now())
            try show.state.validators.save(validators, records.writer)
        } else if tookFromHistory, var validators = show.state.validators.load(files) {
            // Read again: a mark saved since the run began (a folded journal's) stays.
            validators.showRead = true
            try show.state.validators.save(validators, records.writer)
            if coverNeedsTheFeed {
                try FeedValidators.readInFullNextTime(show.state.validators, files: files, writer: records.writer)
            }
        }
        return report
    }
}
