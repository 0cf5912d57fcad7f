// Which subscription a feed read from a new URL is the same show as, before that show's first sync too: its index
// then holds no episode to share, so the rule that finds the same show by the folder it would take (the same title,
// an episode in common: `FeedFolders.belongs`) is applied to what the other feed's own document lists.
import Foundation

extension ShowOpener {
    /// The subscription `feed` (read from `source`, a URL no record has) is the same show as: one its document
    /// names (`SubscriptionStore.sameShow`: the same `podcast:guid`, a self link), else one not synced yet whose
    /// folder it would take (the same title) and whose own document, read now with that show's access, shares an
    /// episode with it. Never one kept apart. Nil when there is none.
    func sameShow(as feed: Feed, source: FeedSource, in root: URL, options: SyncOptions) async -> Subscription? {
        let shows = store.all(in: root).shows.filter { $0.separate != true }
        if let named = Self.named(by: feed, among: shows) { return named }
        guard let title = feed.title, !feed.episodes.isEmpty else { return nil }
        let stem = options.folderName(for: feed, source: source)
        // The folders a show of this title could have been given ("Title", "Title (2)"...): only their indexes are
        // read, not every show's.
        for record in shows {
            let name = FileNamer.sanitize(record.folder)
            guard name == stem || name.hasPrefix(stem + " (") else { continue }
            let folder = root.appendingPathComponent(name, isDirectory: true)
            guard let index = try? indexes.loadIndex(at: ShowState(folder: folder).index), index.episodes.isEmpty,
                index.failures.isEmpty, index.title == title, index.feed != URLSecrets.redacted(source.displayName),
                let document = await document(of: record, in: root, options: options)
            else { continue }
            let listed = ArchiveIndex(
                feed: index.feed, title: index.title,
                episodes: document.episodes.map {
                    ArchiveIndex.Entry(archiving: $0, file: "", size: 0, sha256: "", at: .distantPast)
                })
            if FeedFolders.belongs(feed, source: source, to: listed, use: .join) { return record }
        }
        return nil
    }

    /// The subscription among `shows` that `feed`'s document says it is: the same `podcast:guid`, or an
    /// `atom:link rel="self"` (JSON Feed `feed_url`) naming its feed. (Whether it is the same show is then judged
    /// by what the feeds share: `isSameShow`.)
    static func named(by feed: Feed, among shows: [Subscription]) -> Subscription? {
        if let guid = feed.podcastGUID, let show = shows.first(where: { $0.podcastGUID == guid }) { return show }
        guard let selfURL = feed.links.selfURL else { return nil }
        let named = URLSecrets.redacted(FeedAddress.normalized(URLSecrets.withoutUserinfo(selfURL)))
        return shows.first { URLSecrets.redacted(FeedAddress.normalized($0.feed)) == named }
    }

    /// Whether what a new URL's author says (its `podcast:guid`, self link and title) may make it the show of
    /// `record`: not when `record` is private (its feed needs a secret: a token in its URL, a login or headers
    /// kept for it, a `.netrc` login for its host) and `source` is on another origin, where anyone could copy
    /// them. Such a URL is the same show only with an episode GUID in common.
    static func trustsClaims(of source: FeedSource, for record: Subscription, netrc: Netrc?) -> Bool {
        guard let origin = Origin(record.feed), source.origin != origin else { return true }
        let home = record.home.flatMap { Origin($0) } ?? origin
        let netrcLogin = netrc.map { $0.machine(forHost: origin.host) != nil || ($0.fallback != nil && home == origin) }
        return !(record.secretFeed == true || record.hasCredentials || record.holdsSecrets || netrcLogin == true)
    }

    /// What a new feed may do with a folder of its title (see `FolderUse`), given every subscription: one kept
    /// apart (`separate`) takes no folder another subscription has; none continues the show of one kept apart.
    static func folderUse(separate: Bool, shows: [Subscription]) -> (String) -> FolderUse {
        if separate {
            let claimed = Set(shows.map { FileNamer.sanitize($0.folder) })
            return { claimed.contains($0) ? .never : .own }
        }
        let keptApart = Set(shows.filter { $0.separate == true }.map { FileNamer.sanitize($0.folder) })
        return { keptApart.contains($0) ? .own : .join }
    }

    /// The feed of `record` as its own requests read it (its credentials, never those given for this run's feed);
    /// nil when it cannot be read.
    private func document(of record: Subscription, in root: URL, options: SyncOptions) async -> Feed? {
        var own = options
        own.profile.credentials = []
        own.saveCredentials = nil
        guard let resolved = try? store.resolve(record, in: root),
            let options = try? access.withAccess(own, saved: resolved.credentials, of: record, at: resolved.source),
            case .changed(let feed, _)? = try? await loader.load(
                resolved.source, ifChangedSince: nil, limits: options.feedLimits)
        else { return nil }
        return feed
    }
}
