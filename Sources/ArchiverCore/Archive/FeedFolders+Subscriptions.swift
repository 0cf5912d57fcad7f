// The subscription records of an archive root, read and written under the show's lock (a record is rewritten only
// by the sync holding its show, or by `add`/`remove`).
import Foundation

extension FeedFolders {
    /// The folder the show of `source` archives into, when it is subscribed.
    func registeredFolder(for source: FeedSource, in root: URL) throws -> URL? {
        guard let record = subscription(for: source, in: root) else { return nil }
        return root.appendingPathComponent(FileNamer.sanitize(record.folder), isDirectory: true)
    }

    /// The subscription of `source`, when there is a readable one naming this feed and a usable folder.
    func subscription(for source: FeedSource, in root: URL) -> Subscription? {
        let record: Subscription? = loadRecord(Subscription.url(for: source, in: root))
        guard let record, record.feed == source.displayName, !FileNamer.sanitize(record.folder).isEmpty else {
            return nil
        }
        return record
    }

    /// Subscribes `source` to `folder`, keeping what an earlier record said (settings, credentials, when it was
    /// added, its last sync); `settings` and `credentials`, when given, replace the saved ones one by one.
    func register(
        _ source: FeedSource, folder: String, in root: URL, settings: ShowSettings? = nil,
        credentials: ShowCredentials? = nil, replacing: Bool = false
    ) throws {
        let url = Subscription.url(for: source, in: root)
        try createRecordsFolder(in: root)
        var record =
            subscription(for: source, in: root)
            ?? Subscription(feed: source.displayName, folder: folder, added: FeedDate.iso8601(clock.now()))
        record.folder = folder
        if let settings {
            let merged = replacing ? settings : (record.settings ?? ShowSettings()).overlaid(by: settings)
            record.settings = merged.isEmpty ? nil : merged
        }
        if let credentials {
            let merged = record.credentials.map { $0.overlaid(by: credentials) } ?? credentials
            record.credentials = merged.isEmpty ? nil : merged
        }
        try saveSubscription(record, to: url)
    }

    /// Writes a subscription record: readable by its owner only, since it may hold the show's credentials.
    func saveSubscription(_ record: Subscription, to url: URL) throws {
        try saveRecord(record, to: url, ownerOnly: true)
    }

    /// Creates the folder of subscription records, readable by its owner only (0700), and secures one made by an
    /// earlier podarchive (see `secureRecords`).
    func createRecordsFolder(in root: URL) throws {
        let folder = Subscription.folder(in: root)
        do {
            try files.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw ArchiveError.cannotCreateFolder(path: folder.path, reason: ArchiveError.describe(error))
        }
        secureRecords(in: root)
    }

    /// Migrates the subscription records of an earlier podarchive, once: a record whose feed URL carried a login
    /// (`https://user:pw@host/feed`) is saved again under the URL without it, the login moved into its
    /// credentials, and every record and the folder are made readable by their owner only. The folder's mode is
    /// the mark: a folder already 0700 is left as it is, so a sync pays one stat for this.
    func secureRecords(in root: URL) {
        let folder = Subscription.folder(in: root)
        guard let mode = (try? attributes.attributesOfItem(atPath: folder.path))?[.posixPermissions] as? NSNumber,
            mode.intValue & 0o077 != 0
        else { return }
        let names = ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(".json") && !$0.hasPrefix(".")
        }
        for name in names {
            let path = folder.appendingPathComponent(name)
            guard var record: Subscription = loadRecord(path) else { continue }
            guard let login = FeedSource.login(in: record.feed) else {
                try? attributes.setAttributes([.posixPermissions: 0o600], ofItemAtPath: path.path)
                continue
            }
            record.feed = URLSecrets.withoutUserinfo(record.feed)
            record.movedFrom = record.movedFrom.map(URLSecrets.withoutUserinfo)
            record.credentials = record.credentials.map { $0.overlaid(by: login) } ?? login
            let target = Subscription.url(forFeed: record.feed, in: root)
            if let existing: Subscription = loadRecord(target), existing.feed == record.feed {
                record.settings = existing.settings ?? record.settings
                record.lastSync = existing.lastSync ?? record.lastSync
            }
            do {
                try saveSubscription(record, to: target)
                if target != path { try files.removeItem(at: path) }
            } catch {
                return  // Tried again next time: the folder keeps its mode until every record is moved.
            }
        }
        try? attributes.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
    }

    /// Moves the subscription of `source` to `target` (the show moved): the same folder, settings and history
    /// under the new URL. Refused when `target` is subscribed already to another folder.
    func moveSubscription(from source: FeedSource, to target: FeedSource, folder: String, in root: URL) throws {
        if let existing = subscription(for: target, in: root), existing.folder != folder {
            throw ArchiveError.storage(
                path: Subscription.url(for: target, in: root).path,
                reason: "\(target.displayName) is subscribed already, into \(existing.folder)")
        }
        var record =
            subscription(for: source, in: root)
            ?? Subscription(feed: source.displayName, folder: folder, added: FeedDate.iso8601(clock.now()))
        record.feed = target.displayName
        record.folder = folder
        record.movedFrom = source.displayName
        record.moved = FeedDate.iso8601(clock.now())
        try createRecordsFolder(in: root)
        try saveSubscription(record, to: Subscription.url(for: target, in: root))
        try? files.removeItem(at: Subscription.url(for: source, in: root))
    }

    /// Records how the last sync of `source` ended (the sync holds the show's lock).
    func recordSync(_ lastSync: LastSync, of source: FeedSource, in root: URL) {
        guard var record = subscription(for: source, in: root) else { return }
        record.lastSync = lastSync
        try? saveSubscription(record, to: Subscription.url(for: source, in: root))
    }

    /// Every subscription of `root` in subscription order, and the records that could not be read.
    func subscriptions(in root: URL) -> SubscriptionSet {
        secureRecords(in: root)
        let folder = Subscription.folder(in: root)
        let names = ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            $0.hasSuffix(".json") && !$0.hasPrefix(".")
        }
        var shows: [Subscription] = []
        var damaged: [SubscriptionSet.DamagedRecord] = []
        for name in names.sorted() {
            let path = folder.appendingPathComponent(name).path
            guard let data = files.contents(atPath: path) else {
                damaged.append(.init(path: path, reason: "it cannot be read"))
                continue
            }
            guard let record = try? JSONDecoder().decode(Subscription.self, from: data) else {
                damaged.append(.init(path: path, reason: "it is not a subscription record"))
                continue
            }
            guard !FileNamer.sanitize(record.folder).isEmpty,
                WebScheme.of(record.feed) != nil || record.feed.hasPrefix("/")
            else {
                damaged.append(.init(path: path, reason: "it names no usable feed and folder"))
                continue
            }
            shows.append(record)
        }
        return SubscriptionSet(shows: shows.sorted(by: Subscription.inOrder), damaged: damaged)
    }

    /// Removes the subscription whose feed URL or folder name is `text`; its files stay.
    /// - Throws: `ArchiveError.unknownShow` when none matches.
    func unsubscribe(_ text: String, in root: URL) throws -> Subscription {
        let set = subscriptions(in: root)
        guard
            let show = set.shows.first(where: { $0.feed == text })
                ?? set.shows.first(where: { $0.folder == text || $0.folder == FileNamer.sanitize(text) })
        else { throw ArchiveError.unknownShow(text) }
        let url = Subscription.url(forFeed: show.feed, in: root)
        do {
            try files.removeItem(at: url)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
        return show
    }
}
