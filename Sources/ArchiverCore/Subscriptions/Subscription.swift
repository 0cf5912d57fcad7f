// The shows an archive follows: one record each in `<root>/.podarchive/feeds/<id>.json`, saying which folder the
// show archives into, the settings it was set up with, and how its last sync went. A record holds no secret: a
// feed URL carrying one is kept redacted (`secretFeed`), and the real URL, the login and the headers live in the
// configuration folder (see `CredentialStore`). Records written by earlier versions, which kept them inside,
// still work until `podarchive credentials --move` takes them out (`holdsSecrets`).
import Foundation

/// One show the archive follows.
public struct Subscription: Codable, Equatable, Sendable {
    /// The record format's version: 2 since secrets left the records (absent in earlier ones).
    public var version: Int?
    /// The show's stable ID: the record's file name, kept when its feed URL changes (a move, a rotated token), so
    /// that its shard and its credentials stay its own.
    public var id: String
    /// The feed URL (or local path), normalised (`FeedAddress`); redacted when `secretFeed` says it carries a
    /// secret.
    public var feed: String
    /// True when `feed` is redacted and the URL to fetch is kept in the configuration folder.
    public var secretFeed: Bool?
    /// The show's folder, directly in the archive root.
    public var folder: String
    /// The options saved with the show.
    public var settings: ShowSettings?
    /// When it was subscribed (RFC 3339); absent for archives made before subscriptions.
    public var added: String?
    /// How its last sync ended.
    public var lastSync: LastSync?
    /// The feed URL it had before it moved (a 301/308, or `<itunes:new-feed-url>`), redacted.
    public var movedFrom: String?
    /// When it moved (RFC 3339).
    public var moved: String?
    /// True when the configuration folder keeps a login or headers for the show's requests.
    public var storedCredentials: Bool?
    /// Credentials an earlier podarchive kept in the record itself; used until they are moved out.
    public var credentials: ShowCredentials?
    /// A new feed URL the feed announced that was not followed (not the same show), so it is said once.
    public var refusedMove: String?
    /// The show's `podcast:guid`, as its feed last said: a new URL whose document says the same is this show.
    public var podcastGUID: String?
    /// True for a feed kept apart from the shows it shares a title or episodes with (a members or ad-free variant,
    /// added with `separate`): it has a folder of its own, no other URL ever takes over its subscription, and it
    /// takes over no other's. (A move its own feed announces is still followed.)
    public var separate: Bool?
    /// The feed URL (redacted) the subscription had before another URL of its show took it over (the same-show
    /// rule: a mirror, or a variant such as a members feed; not a move, nor the same URL with another secret).
    /// Its secret and what its requests carried are kept in the configuration folder (see `ShowSecrets`), so that
    /// `add` of either URL, kept apart, can keep both, each in a folder of its own (see `Takeovers`); kept until
    /// then, or until the next URL takes it over.
    public var earlierFeed: String?
    /// The origin (`scheme://host:port`) the show was first subscribed at: the address typed (a web page's, when
    /// its feed was found there), kept through every move. The only origin a `.netrc` `default` login goes to.
    /// Absent in records written before 0.2: the feed's origin when first read by this version stands for it.
    public var home: String?

    /// The version this podarchive writes.
    public static let currentVersion = 2

    /// A record for `feed` (already normalised and, if it carries a secret, redacted) archived into `folder`,
    /// first subscribed at `home`.
    public init(
        feed: String, folder: String, settings: ShowSettings? = nil, added: String? = nil, lastSync: LastSync? = nil,
        id: String? = nil, home: Origin? = nil
    ) {
        self.home = home?.description
        self.version = Self.currentVersion
        self.id = id ?? StableName.of(feed)
        self.feed = feed
        self.folder = folder
        self.settings = settings
        self.added = added
        self.lastSync = lastSync
    }

    private enum CodingKeys: String, CodingKey {
        case version, id, feed, secretFeed, folder, settings, added, lastSync, movedFrom, moved, storedCredentials
        case credentials, refusedMove, podcastGUID, separate, earlierFeed, home
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(Int.self, forKey: .version)
        feed = try container.decode(String.self, forKey: .feed)
        // Records of earlier versions are named by a hash of their feed URL, which is then their ID.
        id = try container.decodeIfPresent(String.self, forKey: .id) ?? StableName.of(feed)
        secretFeed = try container.decodeIfPresent(Bool.self, forKey: .secretFeed)
        folder = try container.decode(String.self, forKey: .folder)
        settings = try container.decodeIfPresent(ShowSettings.self, forKey: .settings)
        added = try container.decodeIfPresent(String.self, forKey: .added)
        lastSync = try container.decodeIfPresent(LastSync.self, forKey: .lastSync)
        movedFrom = try container.decodeIfPresent(String.self, forKey: .movedFrom)
        moved = try container.decodeIfPresent(String.self, forKey: .moved)
        storedCredentials = try container.decodeIfPresent(Bool.self, forKey: .storedCredentials)
        credentials = try container.decodeIfPresent(ShowCredentials.self, forKey: .credentials)
        refusedMove = try container.decodeIfPresent(String.self, forKey: .refusedMove)
        podcastGUID = try container.decodeIfPresent(String.self, forKey: .podcastGUID)
        separate = try container.decodeIfPresent(Bool.self, forKey: .separate)
        earlierFeed = try container.decodeIfPresent(String.self, forKey: .earlierFeed)
        home = try container.decodeIfPresent(String.self, forKey: .home)
    }

    /// True when the record itself holds a secret, as earlier versions wrote it: a login or headers, or a feed
    /// URL with a token. `podarchive credentials --move` takes them out.
    public var holdsSecrets: Bool {
        credentials != nil || (secretFeed != true && URLSecrets.hasSecret(feed))
    }

    /// True when the show's requests carry saved credentials (wherever they are kept).
    public var hasCredentials: Bool { credentials != nil || storedCredentials == true }

    /// True when the configuration folder may keep secrets of the show: its feed's, its credentials, or those of
    /// the feed it had before another URL took it over.
    var keepsSecrets: Bool { secretFeed == true || storedCredentials == true || earlierFeed != nil }

    /// The feed URL as it may be shown: redacted.
    public var shownFeed: String { URLSecrets.redacted(feed) }

    /// Subscription order: the order shows were added (older archives' records first), then by feed URL.
    static func inOrder(_ lhs: Subscription, _ rhs: Subscription) -> Bool {
        (lhs.added ?? "", lhs.feed) < (rhs.added ?? "", rhs.feed)
    }

    /// Which of `count` shards the show falls in: a stable hash of its ID (which, for a record made before IDs
    /// were kept, is that of its feed URL as saved), the same on every machine and after any change of URL.
    public func shard(among count: Int) -> Int {
        Self.shard(ofID: id, among: count)
    }

    /// The ID a new subscription of `source` gets (unless another record has it already).
    public static func id(forNewFeed source: FeedSource) -> String {
        StableName.of(URLSecrets.redacted(source.displayName))
    }

    /// Which of `count` shards a show of ID `id` falls in.
    public static func shard(ofID id: String, among count: Int) -> Int {
        Int((UInt64(id, radix: 16) ?? StableName.number(of: id)) % UInt64(max(1, count)))
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

    /// Records of one show (two URLs, one folder) merged into one as they were read: the one kept, and the one
    /// removed.
    public var merged: [Merge] = []

    /// Two records of one show, merged.
    public struct Merge: Sendable, Equatable {
        /// The record kept.
        public var kept: Subscription
        /// The record removed.
        public var removed: Subscription
    }

    /// True when some record still holds a secret an earlier version kept in it (see `Subscription.holdsSecrets`).
    public var holdsSecrets: Bool { shows.contains(where: \.holdsSecrets) }
}

extension ArchiveRoot {
    /// The record of the subscription `id`, in the root's subscriptions folder.
    func subscription(_ id: String) -> RecordFile<Subscription> { subscriptionRecord(id) }
}
