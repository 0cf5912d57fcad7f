// The shows an archive follows: subscribing without downloading, unsubscribing without deleting, and what each
// show holds, read from its index alone.
import Foundation

/// What `podarchive feeds` shows of one subscription.
public struct ShowStatus: Sendable, Equatable {
    /// The subscription.
    public var subscription: Subscription
    /// The show's title (else its folder's name).
    public var title: String
    /// The show's folder.
    public var folder: URL
    /// Episodes archived.
    public var episodes: Int
    /// Their bytes.
    public var bytes: Int64
    /// The newest publication date of an archived episode (RFC 3339).
    public var newest: String?
    /// Episodes failing (tried again each run).
    public var failing: Int
    /// Episodes given up on as gone upstream.
    public var gone: Int
    /// Archived episodes the feed no longer lists (pruned or deleted by the publisher; the files stay).
    public var removedUpstream = 0
    /// Archived episodes whose files are away on purpose (offloaded, deleted by retention, handed off): not in
    /// `bytes`, which counts what the show's folder holds.
    public var away = 0
    /// Why the show's index could not be read, when it could not (the other fields are then empty).
    public var problem: String?
}

/// Subscribing to a show, and what each show holds, read from its index.
struct ShowSubscriptions: Sendable {
    /// The subscriptions.
    let store: SubscriptionStore
    /// Each show's index.
    let indexes: IndexStore
    /// Whether a show's index exists yet.
    let files: any FileStore
    /// The credentials a show's requests carry.
    let access: ShowAccess
    /// The show's folder found or chosen, and its feed fetched.
    let opener: ShowOpener
    /// The archive's identity, for what the index keeps of secrets.
    let secrets: ArchiveSecrets
    /// The show folders' locks, whose files hold how each show's last sync ended.
    let locks: ShowLocks

    /// The archived episodes of the show in `folder` (its title, and each index entry, removed upstream or not),
    /// from its index alone.
    /// - Throws: `ArchiveError.noArchive` when the folder holds no index; a damaged index's error.
    func archivedEpisodes(in folder: URL) throws -> (title: String, episodes: [ArchiveIndex.Entry]) {
        guard let index = try indexes.loadIndex(at: ShowState(folder: folder).index) else {
            throw ArchiveError.noArchive(path: folder.path)
        }
        return (ArchiveNames.showTitle(index.title, folder: folder), index.episodes)
    }

    /// Subscribes `root` to the feed at `source` without downloading anything: the feed is fetched and read, the
    /// show's folder chosen and created with an empty index, and `settings` merged into those saved
    /// before, as a sync merges them (each given replaces its saved value; the others stay).
    /// - Throws: `FeedError` when the feed cannot be fetched or read (nothing is saved then); `ArchiveError`.
    func subscribe(
        _ source: FeedSource, into root: URL, settings: ShowSettings, options: SyncOptions = SyncOptions(),
        onEvent: (SyncEvent) -> Void = { _ in }
    ) async throws -> Subscription {
        // Either URL of a subscription another URL took over, kept apart: both are kept (see `keepBoth`).
        if options.separate, let takeover = try Takeovers(store: store).takenOver(naming: source, in: root) {
            return try await keepBoth(
                takeover, named: source, into: root, settings: settings, options: options,
                onEvent: onEvent)
        }
        let found = try store.find(source, in: root)
        guard found != nil || !URLSecrets.carriesRedaction(source.displayName) else {
            throw FeedError.lacksSecret(url: source.displayName)
        }
        let source = found?.source ?? source
        let options = try access.withAccess(options, saved: found?.credentials, of: found?.record, at: source)
        return try await options.taint.run {
            try await open(
                source, known: found?.record, into: root, settings: settings, options: options,
                onEvent: onEvent)
        }
    }

    /// Opens (or chooses, for a new feed) the show's folder with `options`' access, its feed read, and saves its
    /// subscription: its index made or its title updated, the settings given saved (none keeps those it has).
    func open(
        _ source: FeedSource, known: Subscription?, into root: URL, settings: ShowSettings, options: SyncOptions,
        onEvent: (SyncEvent) -> Void
    ) async throws -> Subscription {
        var options = options
        options.saveSettings = nil
        var (show, fetch, record) = try await opener.open(
            source, known: known, in: root, options: options, forms: { try secrets.secretForms(of: root) },
            conditional: false, onEvent: onEvent)
        defer { show.lock.unlock() }
        let opened = show.index
        if case .changed(let feed, _) = fetch { show.index.title = feed.title ?? show.index.title }
        if show.index != opened || !files.fileExists(atPath: show.indexURL.path) {
            try indexes.save(&show)
        }
        // Given no settings (new credentials only, or the same URL again), a show keeps those it has.
        return try store.subscribe(
            source, folder: show.folder.lastPathComponent, in: root, settings: settings.isEmpty ? nil : settings,
            existing: record)
    }

    /// What the show of `subscription` holds, from its index (no network, no lock: the index is replaced whole).
    func status(of subscription: Subscription, in root: URL) -> ShowStatus {
        let folder = ArchiveRoot(root).showFolder(subscription.folder)
        var status = ShowStatus(
            subscription: subscription, title: subscription.folder, folder: folder, episodes: 0, bytes: 0,
            newest: nil, failing: 0, gone: 0)
        status.subscription.lastSync = locks.lastSync(recorded: subscription.lastSync, folder: folder)
        do {
            guard let index = try indexes.loadIndex(at: ShowState(folder: folder).index) else { return status }
            status.title = ArchiveNames.showTitle(index.title, folder: folder)
            status.episodes = index.episodes.count
            status.bytes = index.episodes.reduce(0) { $0 + ($1.isHere ? $1.size : 0) }
            status.away = index.episodes.count { !$0.isHere }
            // RFC 3339 in UTC sorts as text.
            status.newest = index.episodes.compactMap(\.published).max()
            status.failing = index.failures.count { $0.gone == nil }
            status.gone = index.failures.count { $0.gone != nil }
            status.removedUpstream = index.episodes.count { $0.removedUpstream != nil }
        } catch {
            status.problem = error.reasonText
        }
        return status
    }
}
