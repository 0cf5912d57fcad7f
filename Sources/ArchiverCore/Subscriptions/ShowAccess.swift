// Which credentials, User-Agent and .netrc logins a show's requests carry: those given for this run, over those
// saved for its subscription (in the configuration folder, or an earlier version's record), over the defaults.
// Resolved once per show, before its first request.
import Foundation

/// Which credentials, User-Agent and `.netrc` logins a show's requests carry.
struct ShowAccess: Sendable {
    /// The subscriptions, and the credentials kept for them.
    let store: SubscriptionStore
    /// Where named `.netrc` files are read.
    let files: any FileStore
    /// Who owns them and may write them (`TrustedFiles`).
    let attributes: any FileAttributes

    /// How a request for `source` is made: the credentials given in `options` over those saved for it in `root`
    /// (when it is subscribed there), and the `.netrc` file read; for reading a feed outside a sync (`list`).
    /// - Throws: `NetrcError` when a `.netrc` file asked for by name cannot be read; `CredentialError` when the
    ///   show's saved credentials cannot be read.
    func access(_ options: SyncOptions, for source: FeedSource, in root: URL?) throws -> SyncOptions {
        let known = try root.flatMap { try store.find(source, in: $0) }
        return try withAccess(options, saved: known?.credentials, of: known?.record, at: source)
    }

    /// The one origin a `.netrc` `default` login goes to for `source`: where its subscription `record` was first
    /// subscribed (kept through its moves), else where the user named it this run (`SyncOptions.namedAt`), else
    /// the feed's own.
    static func home(of record: Subscription?, _ source: FeedSource, _ options: SyncOptions) -> Origin? {
        guard let record else { return options.namedAt ?? source.origin }
        return record.home.flatMap { Origin($0) } ?? source.origin
    }

    /// `options` with `saved` (a show's credentials) under those given for this run, its `.netrc` file read, and
    /// a `.netrc` `default` login allowed for the show's `home` only: the origin `record` was first subscribed at
    /// (the feed `source`'s, for a show not subscribed yet, unless it was named at another: see `home`).
    /// - Throws: `NetrcError` when a `.netrc` file asked for by name cannot be read; `UntrustedFile` when others
    ///   could have changed it.
    func withAccess(_ options: SyncOptions, saved: ShowCredentials?, of record: Subscription?, at source: FeedSource?)
        throws -> SyncOptions
    {
        var options = options
        if let saved {
            let merged = options.saveCredentials.map { saved.overlaid(by: $0) } ?? saved
            options.profile.credentials = [merged] + options.profile.credentials.filter { $0.origin != merged.origin }
        }
        if let choice = options.netrc, options.profile.netrc == nil {
            options.profile.netrc = try readNetrc(choice)
        }
        options.profile.home = source.flatMap { Self.home(of: record, $0, options) }
        // The one place a show's secrets are all known: they are registered, and its taint decided, here.
        options.taint = ShowTaint.of(feed: source?.displayName ?? "", source: source, profile: options.profile)
        return options
    }

    /// The logins of a `.netrc` file; nil for a default one that is not there. One that others could have changed
    /// (it, its folder, what its link names) is refused, named or not: it could send a login anywhere.
    private func readNetrc(_ choice: NetrcChoice) throws -> Netrc? {
        let files = self.files
        try TrustedFiles(attributes: attributes).check(choice.path, kind: .netrc)
        guard let data = files.contents(atPath: choice.path) else {
            guard choice.required else { return nil }
            throw NetrcError(path: choice.path, reason: FeedLoader.whyUnreadable(choice.path, files: files))
        }
        return Netrc(parsing: String(decoding: data, as: UTF8.self))
    }

    /// The subscriptions of the root above each of `folders` (they share one root: a root's shows, or one show),
    /// by folder name: read once for all of them.
    func records(around showFolders: [URL]) -> [String: Subscription] {
        guard let root = showFolders.first?.deletingLastPathComponent() else { return [:] }
        return Dictionary(
            store.all(in: root).shows.map { ($0.folder, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The access settings of the show kept in `folder` (its record among `records`, by folder name) in their
    /// place among the run's (`SyncOptions.runSettings`), applied to `options`: for verify, which names folders.
    /// - Throws: `SettingsError` for a saved access setting that is not valid; as `withAccess(_:saved:of:at:)`.
    func withAccess(_ options: SyncOptions, forShowIn folder: URL, records: [String: Subscription]) throws
        -> SyncOptions
    {
        let record = records[folder.lastPathComponent]
        let options = try options.applying(options.runSettings.saving(record?.settings).access)
        let resolved = try record.map { try store.resolve($0, in: folder.deletingLastPathComponent()) }
        return try withAccess(options, saved: resolved?.credentials, of: resolved?.record, at: resolved?.source)
    }
}
