// Which credentials, User-Agent and .netrc logins a show's requests carry: those given for this run, over those
// saved with its subscription, over the defaults. Resolved once per show, before its first request.
import Foundation

extension Archiver {
    /// `options` with the access saved for the show of `source` in `root` (see `withAccess(_:record:)`), once an
    /// earlier podarchive's records are secured.
    func withAccess(_ options: SyncOptions, for source: FeedSource, in root: URL) throws -> SyncOptions {
        folders.secureRecords(in: root)
        return try withAccess(options, record: folders.subscription(for: source, in: root))
    }

    /// How a request for `source` is made: the credentials given in `options` over those saved for it in `root`
    /// (when it is subscribed there), and the `.netrc` file read; for reading a feed outside a sync (`list`).
    /// - Throws: `NetrcError` when a `.netrc` file asked for by name cannot be read.
    public func access(_ options: SyncOptions, for source: FeedSource, in root: URL?) throws -> SyncOptions {
        guard let root else { return try withAccess(options, record: nil) }
        return try withAccess(options, for: source, in: root)
    }

    /// `options` with the credentials saved for the show of `record` under those given for this run, and its
    /// `.netrc` file read.
    /// - Throws: `NetrcError` when a `.netrc` file asked for by name cannot be read.
    func withAccess(_ options: SyncOptions, record: Subscription?) throws -> SyncOptions {
        var options = options
        if let saved = record?.credentials {
            let merged = options.saveCredentials.map { saved.overlaid(by: $0) } ?? saved
            options.profile.credentials = [merged] + options.profile.credentials.filter { $0.origin != merged.origin }
        }
        if let choice = options.netrc, options.profile.netrc == nil {
            options.profile.netrc = try readNetrc(choice)
        }
        return options
    }

    /// The logins of a `.netrc` file; nil for a default one that is not there.
    private func readNetrc(_ choice: NetrcChoice) throws -> Netrc? {
        let files = folders.files
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
            folders.subscriptions(in: root).shows.map { ($0.folder, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The access settings saved with the show kept in `folder` (its record among `records`, by folder name)
    /// applied to `options` where this run gave none: for verify, which names folders, not feeds.
    func withAccess(_ options: SyncOptions, forShowIn folder: URL, records: [String: Subscription]) throws
        -> SyncOptions
    {
        let record = records[folder.lastPathComponent]
        var options = options
        if let settings = record?.settings {
            if options.profile.userAgent == PodarchiveVersion.userAgent, let agent = settings.userAgent {
                options.profile.userAgent = agent
            }
            if options.netrc?.required != true, let path = settings.netrcFile {
                options.netrc = NetrcChoice(path: path, required: true)
            }
        }
        return try withAccess(options, record: record)
    }
}
