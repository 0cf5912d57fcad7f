// The subscription records of an archive root and the secrets kept for them elsewhere: finding a show's record
// from any spelling of its feed URL, subscribing, recording how a sync ended, changing a show's URL, and
// unsubscribing. A record is rewritten only by the sync holding its show's lock, or by `add`/`remove`.
import Foundation

/// A subscription with what its requests need: the feed as it is fetched, and the credentials it carries.
public struct ResolvedSubscription: Sendable, Equatable {
    /// The record.
    public var record: Subscription
    /// The feed to fetch (its real URL: the secret in it included).
    public var source: FeedSource
    /// The login and headers its requests carry, wherever they are kept.
    public var credentials: ShowCredentials?
}

/// Reads and writes the subscriptions of archive roots.
struct SubscriptionStore: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let writer: any AtomicFileWriting
    let clock: SyncClock
    let secrets: CredentialStore
    /// The identities read, by root path: an archive's identity never changes once made, and a run of 500 shows
    /// would otherwise read and decode `archive.json` twice for each.
    let identities = Locked<[String: ArchiveIdentity]>([:])

    /// The file the secrets of the show `show` of the archive `archive` are kept in (see `CredentialStore`).
    func secretsFile(archive: String, show: String) throws -> URL { try secrets.url(archive: archive, show: show) }

    // MARK: - The root's state folder

    /// The archive at `root`, its state folder (`<root>/.podarchive`) refused when it is a link: nothing of the
    /// archive's is written through one.
    func archive(_ root: URL) throws -> ArchiveRoot {
        let archive = ArchiveRoot(root)
        if attributes.isSymbolicLink(atPath: archive.stateFolder.path) {
            throw ArchiveError.storage(path: archive.stateFolder.path, reason: ArchiveError.linkRefusal)
        }
        return archive
    }

    /// The archive's identity; made (once, whoever asks first) when `create` and the archive has none.
    func identity(of root: URL, create: Bool) throws -> ArchiveIdentity? {
        if let known = identities.withLock({ $0[root.path] }) { return known }
        let file = try archive(root).identity
        let url = file.url
        // Read under the lock: shows opened at once read the file once between them.
        let read = try identities.withLock { known -> ArchiveIdentity? in
            if let identity = known[root.path] { return identity }
            switch file.read(files) {
            case .none: return nil
            case .damaged:
                throw ArchiveError.storage(path: url.path, reason: "it is not an archive identity (damaged?)")
            case .record(let identity):
                known[root.path] = identity
                return identity
            }
        }
        if let read { return read }
        guard create else { return nil }
        do {
            try files.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: nil)
            // Two processes may make one at once: the first link wins and both read it.
            _ = try file.create(ArchiveIdentity.random(), writer)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
        return try identity(of: root, create: false)
    }

    // MARK: - Reading

    /// Every subscription of `root` in subscription order, and the records that could not be read.
    func all(in root: URL) -> SubscriptionSet {
        guard let folder = try? archive(root).subscriptionsFolder else {
            return SubscriptionSet(shows: [], damaged: [])
        }
        secureLegacyRecords(in: root)
        // Temporary files killed processes left of the records, the identity and the site settings go first.
        let names = TemporaryFiles.swept(folder, andAbove: true, files: files).filter(ArchiveLayout.isSubscriptionFile)
        var shows: [Subscription] = []
        var damaged: [SubscriptionSet.DamagedRecord] = []
        let archive = ArchiveRoot(root)
        for name in names.sorted() {
            let file = archive.subscription(ArchiveLayout.subscriptionID(ofFile: name))
            let path = file.path
            switch read(file) {
            case .success(let record): shows.append(record)
            case .failure(let problem): damaged.append(.init(path: path, reason: problem.reason))
            }
        }
        var set = SubscriptionSet(shows: shows.sorted(by: Subscription.inOrder), damaged: damaged)
        mergeShowsOfOneFolder(&set, in: root)
        return set
    }

    struct Problem: Error {
        var reason: String
    }

    /// The record in `file`, its ID the file's name.
    func read(_ file: RecordFile<Subscription>) -> Result<Subscription, Problem> {
        var record: Subscription
        switch file.read(files) {
        case .none: return .failure(Problem(reason: "it cannot be read"))
        case .damaged: return .failure(Problem(reason: "it is not a subscription record"))
        case .record(let read): record = read
        }
        record.id = ArchiveLayout.subscriptionID(ofFile: file.url.lastPathComponent)
        guard !FileNamer.sanitize(record.folder).isEmpty, WebScheme.of(record.feed) != nil || record.feed.hasPrefix("/")
        else { return .failure(Problem(reason: "it names no usable feed and folder")) }
        return .success(record)
    }

    private func record(id: String, in root: URL) -> Subscription? {
        guard let file = try? archive(root).subscription(id) else { return nil }
        return try? read(file).get()
    }

    /// The subscription of `source` in `root`, whatever the spelling of its URL, with its real feed and
    /// credentials; nil when `root` does not follow it.
    /// - Throws: `CredentialError` when the record keeps its secrets in the configuration folder and they cannot
    ///   be read there.
    func find(_ source: FeedSource, in root: URL) throws -> ResolvedSubscription? {
        let wanted = source.displayName
        let shown = URLSecrets.redacted(wanted)
        // Most records are named by a hash of their URL (redacted when it carries a secret): no listing needed.
        for id in Set([StableName.of(wanted), StableName.of(shown)]) {
            if let record = record(id: id, in: root), let resolved = try resolve(record, ifItIs: wanted, in: root) {
                return resolved
            }
        }
        for record in all(in: root).shows {
            if let resolved = try resolve(record, ifItIs: wanted, in: root) { return resolved }
        }
        return nil
    }

    /// The subscription whose show is archived in `folder` (a name in the root), if any.
    func subscription(inFolder folder: String, in root: URL) -> Subscription? {
        all(in: root).shows.first { FileNamer.sanitize($0.folder) == folder }
    }

    /// `record` with its feed and credentials, when its feed is `wanted`.
    private func resolve(_ record: Subscription, ifItIs wanted: String, in root: URL) throws -> ResolvedSubscription? {
        let stored = FeedAddress.normalized(record.feed)
        if record.secretFeed == true {
            guard stored == URLSecrets.redacted(wanted) else { return nil }
        } else if stored != wanted {
            return nil
        }
        let resolved = try resolve(record, in: root)
        // An address exported redacted names the show whose real URL redacts to it.
        if URLSecrets.carriesRedaction(wanted) {
            return FeedAddress.normalized(URLSecrets.redacted(resolved.source.displayName)) == wanted ? resolved : nil
        }
        return resolved.source.displayName == wanted ? resolved : nil
    }

    /// `record` with its real feed and its credentials.
    /// - Throws: `CredentialError.missing` when the configuration folder lacks what the record says it keeps.
    func resolve(_ record: Subscription, in root: URL) throws -> ResolvedSubscription {
        var feed = record.feed
        var credentials = record.credentials
        if record.secretFeed == true || record.storedCredentials == true {
            let identity = try identity(of: root, create: false)
            let kept = try identity.flatMap { try secrets.load(archive: $0.id, show: record.id) }?.read(
                byRecordRemembering: record.earlierFeed != nil)
            let path = (try? secrets.url(archive: identity?.id ?? "<archive ID>", show: record.id).path) ?? "?"
            if record.secretFeed == true {
                guard let real = kept?.feed else {
                    throw CredentialError.missing(show: record.folder, feed: record.shownFeed, path: path)
                }
                feed = real
            }
            if record.storedCredentials == true {
                guard let stored = kept?.credentials else {
                    throw CredentialError.missing(show: record.folder, feed: record.shownFeed, path: path)
                }
                credentials = credentials.map { $0.overlaid(by: stored) } ?? stored
            }
        }
        let source = try FeedSource(feed, currentDirectory: root.path)
        return ResolvedSubscription(record: record, source: source, credentials: credentials)
    }

    // MARK: - Writing

    /// Subscribes `source` to `folder`: a new record, or the show's own updated (its folder, then each of
    /// `settings` and `credentials` given replacing the saved one, the others kept; `separate` keeps it apart from now on, and a feed kept apart given no `existing` record
    /// gets one of its own, never the record its URL took over: see `Takeovers`). Secrets go to the configuration
    /// folder, never into the record.
    @discardableResult
    func subscribe(
        _ source: FeedSource, folder: String, in root: URL, settings: ShowSettings? = nil,
        credentials: ShowCredentials? = nil, existing: Subscription? = nil,
        separate: Bool = false, home: Origin? = nil
    ) throws -> Subscription {
        let shown = URLSecrets.redacted(source.displayName)
        // A show found on a web page of another origin was subscribed at the page's (see `Subscription.home`).
        var record =
            try existing ?? (separate ? nil : find(source, in: root)?.record)
            ?? Subscription(
                feed: shown, folder: folder, added: FeedDate.iso8601(clock.now()), id: try newID(for: shown, in: root),
                home: home ?? source.origin)
        record.folder = folder
        if separate { record.separate = true }
        if let settings {
            let merged = (record.settings ?? ShowSettings()).removing(settings.cleared).overlaid(by: settings)
                .withoutClearedFilters
            record.settings = merged.isEmpty ? nil : merged
        }
        try keep(&record, source: source, credentials: credentials, in: root)
        try save(record, in: root)
        return record
    }

    /// Puts the secrets of `record` where they belong: its real feed (when it carries a secret) and the
    /// credentials given (over those kept) in the configuration folder, and the record left without them.
    /// Nothing is written to the configuration folder for a show with no secret.
    func keep(
        _ record: inout Subscription, source: FeedSource, credentials given: ShowCredentials?, moving: Bool = false,
        in root: URL
    ) throws {
        // Where it was first subscribed is kept before another address takes its place (0.1.0's: the feed it had).
        if record.home == nil { record.home = Origin(record.feed)?.description }
        let secretFeed = URLSecrets.hasSecret(source.displayName)
        let legacy = record.credentials
        // A record an earlier version kept secrets in keeps them until they are moved out on purpose
        // (`credentials --move`), or replaced by new ones given here.
        guard secretFeed || given != nil || record.secretFeed == true || record.storedCredentials == true,
            moving || given != nil || !record.holdsSecrets
        else {
            record.feed = source.displayName
            return
        }
        let identity = try identity(of: root, create: true)!
        var kept = try secrets.load(archive: identity.id, show: record.id) ?? ShowSecrets()
        kept.feed = secretFeed ? source.displayName : nil
        var merged = kept.credentials ?? legacy
        if let given { merged = merged.map { $0.overlaid(by: given) } ?? given }
        kept.credentials = merged.flatMap { $0.isEmpty ? nil : $0 }
        try secrets.save(kept, archive: identity.id, show: record.id)
        record.feed = URLSecrets.redacted(source.displayName)
        record.secretFeed = secretFeed ? true : nil
        record.storedCredentials = kept.credentials != nil ? true : nil
        record.credentials = nil
    }

    /// An ID no other record has, from a hash of the (redacted) feed URL.
    private func newID(for shown: String, in root: URL) throws -> String {
        let archive = try archive(root)
        for counter in 1...1000 {
            let id = StableName.of(counter == 1 ? shown : "\(shown)#\(counter)")
            if !archive.subscription(id).exists(files) { return id }
        }
        throw ArchiveError.storage(
            path: archive.subscriptionsFolder.path, reason: "no free name for a new subscription record")
    }

    /// Writes `record` as `<id>.json` (0600, in a 0700 folder).
    func save(_ record: Subscription, in root: URL) throws {
        let archive = try archive(root)
        let folder = archive.subscriptionsFolder
        do {
            try files.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ArchiveError.cannotCreateFolder(path: folder.path, reason: ArchiveError.describe(error))
        }
        var record = record
        record.version = Subscription.currentVersion
        try archive.subscription(record.id).save(record, writer)
    }

    /// The show of `record` is fetched from `target` from now on (a move, a mirror, a rotated token): the same
    /// record, folder, settings and shard. `moved` records it as a move (shown by `feeds`).
    func replaceFeed(
        of record: Subscription, with target: FeedSource, credentials: ShowCredentials?, moved: Bool, in root: URL
    ) throws -> Subscription {
        if let other = try find(target, in: root)?.record, other.id != record.id, other.folder != record.folder {
            throw ArchiveError.storage(
                path: try archive(root).subscription(other.id).path,
                reason: "\(target.shownName) is subscribed already, into \(other.folder)")
        }
        var updated = record
        if moved {
            updated.movedFrom = record.shownFeed
            updated.moved = FeedDate.iso8601(clock.now())
        }
        updated.refusedMove = nil
        try keep(&updated, source: target, credentials: credentials, in: root)
        try save(updated, in: root)
        return updated
    }

    /// Records how the last sync of the show `id` ended (the sync holds the show's lock), and the show's
    /// `podcast:guid` when its feed said one. With the show's `lock`, the time goes into the lock file in place,
    /// and the record is rewritten only when something else changed: a nightly run with nothing new renames no
    /// file (`Archiver.status` reads whichever is newer).
    /// `known` is the record as this run read it, when it has it: only the sync holding the lock writes how a sync
    /// ended, so a known record that already says the same ending spares reading the file again.
    func recordSync(
        _ lastSync: LastSync, of id: String, known: Subscription? = nil, podcastGUID: String? = nil, in root: URL,
        lock: (any HeldLock)? = nil
    ) {
        func unchanged(_ record: Subscription) -> Bool {
            guard let last = record.lastSync, last.sameEnding(as: lastSync) else { return false }
            return podcastGUID == nil || podcastGUID == record.podcastGUID
        }
        if let lock, let note = try? JSONEncoder.records.encode(lastSync) {
            lock.keep(note)
            if let known, known.id == id, unchanged(known) { return }
        }
        guard var record = record(id: id, in: root) else { return }
        if lock != nil, unchanged(record) { return }
        record.lastSync = lastSync
        record.podcastGUID = podcastGUID ?? record.podcastGUID
        try? save(record, in: root)
    }

    /// Removes the subscription whose feed URL or folder name is `text`, and its secrets; its files stay.
    /// - Throws: `ArchiveError.unknownShow` when none matches; `CredentialError` when its secrets cannot be
    ///   removed (the record is removed first).
    func remove(_ text: String, in root: URL) throws -> Subscription {
        let set = all(in: root)
        let source = try? FeedSource(text, currentDirectory: root.path)
        let byFeed = try source.flatMap { try find($0, in: root)?.record }
        guard
            let show = byFeed
                ?? set.shows.first(where: { $0.folder == text || $0.folder == FileNamer.sanitize(text) })
        else { throw ArchiveError.unknownShow(text, known: set.shows.map(\.folder)) }
        let url = try archive(root).subscription(show.id).url
        do {
            try files.removeItem(at: url)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
        if show.keepsSecrets,
            let identity = try identity(of: root, create: false)
        {
            try secrets.remove(archive: identity.id, show: show.id)
        }
        return show
    }
}
