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

    /// Subscribes `source` to `folder`, keeping what an earlier record said (settings, when it was added, its
    /// last sync); `settings`, when given, replace the saved ones one by one.
    func register(
        _ source: FeedSource, folder: String, in root: URL, settings: ShowSettings? = nil, replacing: Bool = false
    ) throws {
        let url = Subscription.url(for: source, in: root)
        try createFolder(url.deletingLastPathComponent())
        var record =
            subscription(for: source, in: root)
            ?? Subscription(feed: source.displayName, folder: folder, added: FeedDate.iso8601(clock.now()))
        record.folder = folder
        if let settings {
            let merged = replacing ? settings : (record.settings ?? ShowSettings()).overlaid(by: settings)
            record.settings = merged.isEmpty ? nil : merged
        }
        try saveRecord(record, to: url)
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
        try createFolder(Subscription.folder(in: root))
        try saveRecord(record, to: Subscription.url(for: target, in: root))
        try? files.removeItem(at: Subscription.url(for: source, in: root))
    }

    /// Records how the last sync of `source` ended (the sync holds the show's lock).
    func recordSync(_ lastSync: LastSync, of source: FeedSource, in root: URL) {
        guard var record = subscription(for: source, in: root) else { return }
        record.lastSync = lastSync
        try? saveRecord(record, to: Subscription.url(for: source, in: root))
    }

    /// Every subscription of `root` in subscription order, and the records that could not be read.
    func subscriptions(in root: URL) -> SubscriptionSet {
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
