// `sync --dry-run`: what a sync would fetch and the names it would give, without downloading, creating,
// locking or writing anything.
import Foundation

/// `sync --dry-run`: reads, never writes.
struct SyncPlanner: Sendable {
    /// The show's subscription and its archive's identity.
    let store: SubscriptionStore
    /// The credentials its requests carry.
    let access: ShowAccess
    /// The feed fetched.
    let loader: FeedLoader
    /// The folder a new show would take.
    let folders: FeedFolders
    /// The index read.
    let indexes: IndexStore
    /// The validators read.
    let records: ShowRecords
    /// What the folder holds.
    let contents: FolderContents
    /// The pages walked as a sync walks them.
    let follower: FeedFollower
    /// Now, for a retention by age.
    let clock: SyncClock

    /// What `sync` with `options` would do for the feed at `source` (its pages and archive documents walked as a
    /// sync walks them, its filter, and the names its template gives), without downloading, creating, locking or
    /// writing anything.
    func plan(_ source: FeedSource, into root: URL, options given: SyncOptions = SyncOptions()) async throws
        -> SyncPlan
    {
        let known = try store.find(source, in: root)
        let options = try access.withAccess(given, saved: known?.credentials, of: known?.record, at: source)
        // What the show supplies is planned and shown as its taint says, as its sync would.
        return try await options.taint.run { try await plan(source, known: known, into: root, options: options) }
    }

    private func plan(_ source: FeedSource, known: ResolvedSubscription?, into root: URL, options: SyncOptions)
        async throws -> SyncPlan
    {
        let first = try await loader.load(
            source, ifChangedSince: nil, descriptions: options.filter.readsDescriptions, limits: options.feedLimits)
        guard case .changed(let feed, _) = first else {
            throw FeedError.httpStatus(url: source.displayName, status: 304)
        }
        let folder =
            try known.map { ArchiveRoot(root).showFolder($0.record.folder) }
            ?? folders.chooseFolder(
                for: feed, source: source, in: root, named: options.folderName(for: feed, source: source),
                use: ShowOpener.folderUse(separate: false, shows: store.all(in: root).shows))
        let state = ShowState(folder: folder)
        let indexURL = state.index
        var index = try indexes.loadIndex(at: indexURL) ?? ArchiveIndex(feed: source.displayName, title: nil)
        // The same walk of the pages as a sync makes (archive documents it read in full are not read again).
        let identity = try? store.identity(of: root, create: false)
        let stored: @Sendable (Episode) -> Episode = { episode in
            identity.map { SecretForms(identity: $0).episode(episode) } ?? episode
        }
        let indexed = index
        let validators = state.validators.load(records.files)
        let (walked, _) = await follower.walkPages(
            first, of: source, known: { indexed.entry(for: stored($0)) != nil },
            archived: Set(validators?.archives ?? []), archiveLinks: validators?.archiveLinks ?? [:],
            refusedBefore: validators?.refusedPage, options: options, onEvent: { _ in })
        let fetch = identity.map { SecretForms(identity: $0).fetch(walked) } ?? walked
        let planned = WorkPlan.make(fetch, index: &index, folder: folder, options: options, contents: contents)
        let title = ArchiveNames.showTitle(index.title, folder: folder)
        var options = options
        if options.names.usesNumbers {
            options.names.numbers = try records.numbered(
                fetch.feed?.episodes ?? [], index: index, of: state, save: false)
        }
        var names = NameAllocator(taken: planned.present.union(index.fileNames), sidecars: options.metadata)
        let downloads = planned.work.map { item -> SyncPlan.Download in
            // Shown as the show's taint says (the plan is printed after it has left the show's task).
            let shown = item.episode.shown
            if case .missing(let entry) = item {
                return SyncPlan.Download(episode: shown, missingFile: entry.file, file: entry.file, preferred: nil)
            }
            // The same claim as `EpisodePlacer` makes, so the dry run names files as the sync will.
            let file = names.claim(for: item.episode, template: options.names, feedTitle: title)
            return SyncPlan.Download(
                episode: shown, missingFile: nil, file: file, preferred: planned.preferred[item.episode.identity])
        }
        var plan = SyncPlan(
            feedTitle: title, folder: folder, downloads: downloads, alreadyArchived: planned.skipped.count)
        let leftOut = Set(planned.leftOutEpisodes.map(\.identity))
        plan.leftOut = options.filter.leftOut(of: feed.episodes).filter { leftOut.contains($0.episode.identity) }.map {
            SyncPlan.LeftOut(episode: $0.episode.shown, by: $0.by)
        }
        plan.keptWithout = planned.work.filter(\.isNew).compactMap { item in
            let missing = options.filter.missing(item.episode)
            return missing.isEmpty ? nil : (item.episode.shown, missing)
        }
        if let rule = try RetentionRule.of(options.retentionSettings) {
            plan.retained = retained(by: rule, index: index, downloads: downloads, folder: folder)
        }
        return plan
    }

    /// What the show's retention would let go once the sync's downloads are archived (the sync applies it then,
    /// see `ShowArchiver`): the same choice, made over the index as the sync would leave it.
    private func retained(
        by rule: RetentionRule, index: ArchiveIndex, downloads: [SyncPlan.Download], folder: URL
    ) -> [OffloadedEpisode] {
        let now = clock.now()
        let fetched = downloads.filter { $0.missingFile == nil }.map {
            ArchiveIndex.Entry(archiving: $0.episode, file: $0.file, size: 0, sha256: "", at: now)
        }
        return EpisodeOffloader.planned(
            index.episodes + fetched, retention: rule.keep, target: rule.target, show: folder, now: now)
    }
}
