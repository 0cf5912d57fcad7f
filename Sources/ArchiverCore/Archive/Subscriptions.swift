// The shows an archive follows: one record each in `<root>/.podarchive/feeds/`, named by a hash of the feed URL,
// saying which folder the show archives into, the settings it was set up with, and how its last sync went. An
// archive made before subscriptions existed has the same records without the new fields: its registered feeds
// are its subscriptions.
import Foundation

/// One show the archive follows.
public struct Subscription: Codable, Equatable, Sendable {
    /// The feed URL (or local path), as given.
    public var feed: String
    /// The show's folder, directly in the archive root.
    public var folder: String
    /// The options saved with the show.
    public var settings: ShowSettings?
    /// When it was subscribed (RFC 3339); absent for archives made before subscriptions.
    public var added: String?
    /// How its last sync ended.
    public var lastSync: LastSync?
    /// The feed URL it had before it moved (a 301/308, or `<itunes:new-feed-url>`), and when it moved.
    public var movedFrom: String?
    /// When it moved (RFC 3339).
    public var moved: String?
    /// The login and headers its requests carry to the origin they name. This record is the only file that holds
    /// them (0600, in a 0700 folder); nothing podarchive prints or writes elsewhere shows them.
    public var credentials: ShowCredentials?

    /// A subscription record.
    public init(
        feed: String, folder: String, settings: ShowSettings? = nil, added: String? = nil, lastSync: LastSync? = nil
    ) {
        self.feed = feed
        self.folder = folder
        self.settings = settings
        self.added = added
        self.lastSync = lastSync
    }

    /// Where the record of `source` lives in `root`.
    static func url(for source: FeedSource, in root: URL) -> URL {
        url(forFeed: source.displayName, in: root)
    }

    /// Where the record of the feed named `feed` (a source's `displayName`) lives in `root`.
    static func url(forFeed feed: String, in root: URL) -> URL {
        folder(in: root).appendingPathComponent("\(StableName.of(feed)).json")
    }

    /// The folder of subscription records in `root`.
    static func folder(in root: URL) -> URL {
        root.appendingPathComponent(ArchiveIndex.stateFolderName).appendingPathComponent("feeds")
    }

    /// Subscription order: the order shows were added (older archives' records first), then by feed URL.
    static func inOrder(_ lhs: Subscription, _ rhs: Subscription) -> Bool {
        (lhs.added ?? "", lhs.feed) < (rhs.added ?? "", rhs.feed)
    }

    /// Which of `count` shards the show of `feed` falls in: a stable hash of its feed URL, the same on every
    /// machine.
    public static func shard(of feed: String, among count: Int) -> Int {
        Int(StableName.number(of: feed) % UInt64(max(1, count)))
    }
}

/// How a show's last sync ended.
public struct LastSync: Codable, Equatable, Sendable {
    /// How it ended.
    public enum Outcome: String, Codable, Sendable {
        /// Everything the feed listed was archived (or skipped as archived).
        case ok
        /// Some episodes failed; they are tried again next run.
        case episodesFailed = "episodes-failed"
        /// The feed could not be fetched or read.
        case feedFailed = "feed-failed"
        /// The archive could not be written (a full disk...).
        case archiveFailed = "archive-failed"
    }

    /// When it ended (RFC 3339).
    public var finished: String
    /// How it ended.
    public var outcome: Outcome
    /// Episodes archived by that sync.
    public var archived: Int
    /// Why it failed, for the failed outcomes.
    public var error: String?

    /// A record of one sync.
    public init(finished: String, outcome: Outcome, archived: Int = 0, error: String? = nil) {
        self.finished = finished
        self.outcome = outcome
        self.archived = archived
        self.error = error
    }
}

/// The subscriptions of an archive root, and the records that could not be read.
public struct SubscriptionSet: Sendable, Equatable {
    /// Every readable subscription, in subscription order.
    public var shows: [Subscription]
    /// Records that could not be read: the path, and why.
    public var damaged: [DamagedRecord]

    /// A record that could not be read.
    public struct DamagedRecord: Sendable, Equatable {
        /// The record's path.
        public var path: String
        /// What is wrong with it.
        public var reason: String
    }
}
