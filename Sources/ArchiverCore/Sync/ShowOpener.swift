// Opening a show for a sync: its folder found (or chosen, for a new feed) and locked, its feed fetched, its
// subscription saved.
import Foundation

/// Finds (or chooses), locks and opens a show's folder, and fetches its feed.
struct ShowOpener: Sendable {
    /// The subscriptions, where a show is found and saved.
    let store: SubscriptionStore
    /// Show folders chosen and opened.
    let folders: FeedFolders
    /// A damaged journal folded.
    let indexes: IndexStore
    /// The feed fetched.
    let loader: FeedLoader
    /// A folder at a name the site writes, renamed (`SiteWriter.freeSiteName`, given by the wiring: the site is a
    /// command over the archive, above the sync, so the sync names the step, not the site).
    let freeSiteName:
        @Sendable (_ record: Subscription, _ root: URL, _ lockWait: TimeInterval, _ onEvent: (SyncEvent) -> Void)
            async throws -> Subscription
    /// Each index kept as `SecretForms` says.
    let secrets: ArchiveSecrets
    /// The date of a failure recorded.
    let clock: SyncClock
    /// What another show's requests carry, when its document is read (see `sameShow`).
    let access: ShowAccess

    /// Finds and locks the show's folder and fetches its feed. A feed synced before (`known`): lock first, then ask
    /// whether it changed. A new feed: fetch it, then choose its folder from its title and subscribe it. Either
    /// way the settings and credentials to save are saved with the subscription. A folder named like a file the
    /// site writes at the root is renamed first (see `freeSiteName`; said through `onEvent`).
    func open(
        _ source: FeedSource, known: Subscription?, in root: URL, options: SyncOptions,
        forms: () throws -> SecretForms, conditional: Bool = true, onEvent: (SyncEvent) -> Void = { _ in }
    ) async throws -> (FeedFolder, FeedFetch, Subscription) {
        if var record = known {
            if ArchiveLayout.isReservedAtRoot(FileNamer.sanitize(record.folder)) {
                record = try await freeSiteName(record, root, options.lockWait, onEvent)
            }
            let folder = ArchiveRoot(root).showFolder(record.folder)
            let locked = try await folders.lock(folder: folder, lockWait: options.lockWait)
            // The request goes out once the lock is held and the validators are read; the index (and the rest a
            // killed run may have left) is read while it is under way.
            let asked = conditional ? locked.conditional(for: options.wants) : nil
            async let answer = loader.load(
                source, ifChangedSince: asked, descriptions: true, limits: options.feedLimits)
            var show = try folders.read(locked, source: source, wants: options.wants)
            do {
                try foldDamagedJournal(of: &show)
                if options.saveSettings != nil || options.saveCredentials != nil
                    || (options.separate && record.separate != true)
                {
                    record = try store.subscribe(
                        source, folder: record.folder, in: root, settings: options.saveSettings,
                        credentials: options.saveCredentials, existing: record, separate: options.separate)
                }
                try secrets.secureIndex(of: &show, forms: forms())
                try keepApart(&show, as: record)
                var fetch = try await answer
                // The index said a 304 could hide work (see `FeedFolders.read`): the feed is read in full.
                if case .notModified = fetch, asked != nil, show.validators == nil {
                    fetch = try await loader.load(
                        source, ifChangedSince: nil, descriptions: true, limits: options.feedLimits)
                }
                return (show, fetch, record)
            } catch {
                if !Task.isCancelled { recordFailure(error, of: record.id, in: root) }
                show.lock.unlock()
                throw error
            }
        }
        let fetch = try await loader.load(
            source, ifChangedSince: nil, descriptions: true, limits: options.feedLimits)
        guard case .changed(let feed, _) = fetch else {
            throw FeedError.httpStatus(url: source.displayName, status: 304)
        }
        // A show already followed at another address (a rotated token, a mirror, a move): its subscription is
        // given this address, in its folder; nothing is downloaded twice. Not for a feed kept apart (`separate`),
        // nor into the folder of one.
        if !options.separate, let same = await sameShow(as: feed, source: source, in: root, options: options) {
            let folder = ArchiveRoot(root).showFolder(same.folder)
            var show = try await folders.open(
                folder: folder, source: source, lockWait: options.lockWait, wants: options.wants)
            let claims = Self.trustsClaims(of: source, for: same, netrc: options.profile.netrc)
            if Self.isSameShow(feed, indexed: show.index, claims: claims) {
                try secure(&show, forms: forms)
                return try readdress(same, to: source, show: show, fetch: fetch, in: root, options: options, onEvent)
            }
            show.lock.unlock()
        }
        // Chosen before the lock: another show of the same title may have taken the folder while this run
        // waited for it. Under the lock the choice is made again, until the folder is this show's.
        for _ in 0..<100 {
            let use = Self.folderUse(separate: options.separate, shows: store.all(in: root).shows)
            let folder = try folders.chooseFolder(
                for: feed, source: source, in: root, named: options.folderName(for: feed, source: source), use: use)
            var show = try await folders.open(
                folder: folder, source: source, lockWait: options.lockWait, wants: options.wants)
            guard FeedFolders.belongs(feed, source: source, to: show.index, use: use(folder.lastPathComponent)) else {
                show.lock.unlock()
                continue
            }
            try secure(&show, forms: forms)
            if let same = store.subscription(inFolder: folder.lastPathComponent, in: root) {
                return try readdress(same, to: source, show: show, fetch: fetch, in: root, options: options, onEvent)
            }
            do {
                try foldDamagedJournal(of: &show)
                let record = try store.subscribe(
                    source, folder: folder.lastPathComponent, in: root,
                    settings: options.saveSettings ?? ShowSettings(), credentials: options.saveCredentials,
                    separate: options.separate, home: options.namedAt)
                try keepApart(&show, as: record)
                // Found on a page of another origin: the default login stays with the page's, and that is said.
                if options.namedAt != nil, let origin = source.origin, let home = options.profile.home,
                    options.profile.withholdsDefaultLogin(from: origin)
                {
                    onEvent(.defaultLoginStays(home: home.description, host: origin.host))
                }
                return (show, fetch, record)
            } catch {
                show.lock.unlock()
                throw error
            }
        }
        throw ArchiveError.cannotCreateFolder(
            path: root.appendingPathComponent(FileNamer.sanitize(feed.title ?? "")).path,
            reason: "other shows keep taking it")
    }

    /// Keeps the index of `show` as `forms` says (see `ArchiveSecrets.secureIndex`), the lock given back if that
    /// fails: what a folder found for a new address holds is re-keyed before anything looks it up.
    private func secure(_ show: inout FeedFolder, forms: () throws -> SecretForms) throws {
        do {
            try secrets.secureIndex(of: &show, forms: forms())
        } catch {
            show.lock.unlock()
            throw error
        }
    }

    /// Whether `feed` is the show whose index is `index`: the same title (when its author's `claims` are trusted,
    /// see `trustsClaims`), or an episode GUID in common. (A `podcast:guid` or self link alone is what the feed's
    /// author says; with nothing else in common it could claim any show.)
    static func isSameShow(_ feed: Feed, indexed index: ArchiveIndex, claims: Bool = true) -> Bool {
        if claims, let title = feed.title, title == index.title { return true }
        return feed.episodes.contains { $0.guid != nil && index.entry(for: $0)?.guid == $0.guid }
    }

    /// The subscription `same` is fetched from `source` from now on (the lock of its folder, `show`, held), with
    /// the settings and credentials given; the URL it had is remembered, so that both can be kept (`Takeovers`);
    /// said in one line.
    private func readdress(
        _ same: Subscription, to source: FeedSource, show: FeedFolder, fetch: FeedFetch, in root: URL,
        options: SyncOptions, _ onEvent: (SyncEvent) -> Void
    ) throws -> (FeedFolder, FeedFetch, Subscription) {
        var show = show
        do {
            try foldDamagedJournal(of: &show)
            var record = try Takeovers(store: store).takeOver(
                same, by: source, credentials: options.saveCredentials, in: root)
            if let settings = options.saveSettings {
                record = try store.subscribe(
                    source, folder: record.folder, in: root, settings: settings, existing: record)
            }
            onEvent(.readdressed(from: same.shownFeed, to: source.shownName))
            return (show, fetch, record)
        } catch {
            show.lock.unlock()
            throw error
        }
    }

    /// Records in the subscription how a sync that held the show's lock failed.
    func recordFailure(_ error: Error, of id: String, in root: URL) {
        let outcome: LastSync.Outcome = error is FeedError ? .feedFailed : .archiveFailed
        store.recordSync(
            LastSync(
                finished: FeedDate.iso8601(clock.now()), outcome: outcome,
                error: error.reasonText),
            of: id, in: root)
    }

    /// Marks the index of a show kept apart (`Subscription.separate`) as such (`ArchiveIndex.keptApart`), once: it
    /// is then written in a version an older podarchive refuses, rather than let another URL of the show take its
    /// folder over.
    private func keepApart(_ show: inout FeedFolder, as record: Subscription) throws {
        guard record.separate == true, !show.index.keptApart else { return }
        show.index.keptApart = true
        try indexes.save(&show)
    }

    /// Folds a journal with a torn or damaged record before the sync appends to it (`IndexStore.save` says so and
    /// marks the feed to be read in full). The episodes those records held are new again to this sync, which reads
    /// the feed in full: adopted from the folder, or fetched.
    private func foldDamagedJournal(of show: inout FeedFolder) throws {
        try indexes.foldDamagedJournal(of: &show)
    }
}
