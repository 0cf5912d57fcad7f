// Which shows a sync takes on: the feeds named and those the lists name (each once, in order), else every
// subscription; then this machine's shard of them. Each problem met on the way is a value the caller words: a
// damaged record or a bad list line is skipped so the other shows still sync; a feed address that is no feed
// stops the run before anything is fetched.
import Foundation

/// What a sync was asked to take on, and the rule that turns it into shows.
public struct ShowSelection: Equatable, Sendable {
    /// A file listing feeds: OPML, or one feed a line.
    public struct FeedList: Equatable, Sendable {
        /// Its absolute path (relative feed paths in it start at its folder).
        public var path: String
        /// True for OPML.
        public var opml: Bool

        /// The list at `path`.
        public init(path: String, opml: Bool) {
            self.path = path
            self.opml = opml
        }
    }

    /// This machine's share of the shows: those whose ID falls in shard `index` of `count`.
    public struct Shard: Equatable, Sendable {
        /// Which shard, from 0.
        public var index: Int
        /// How many shards the shows are split into.
        public var count: Int

        /// Shard `index` of `count`.
        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
    }

    /// Feed addresses as given (a login in one is used and saved for it).
    public var feeds: [String]
    /// Lists read for more feeds, in order.
    public var lists: [FeedList]
    /// Headers for the feeds given, sent to their own origins only and saved with them.
    public var headers: [String]
    /// Feeds given (as in `feeds`) that were found on a web page of another origin, with the page's
    /// (`ResolvedFeed.namedAt`): no header goes to them, and a `.netrc` `default` login stays with the page's.
    public var namedAt: [String: Origin] = [:]
    /// Settings given for the run: saved with the feeds named or listed.
    public var given: ShowSettings
    /// Only the shows of this shard; nil for all.
    public var shard: Shard?
    /// Where relative feed paths given start.
    public var currentDirectory: String

    /// A selection; no feeds and no lists means every subscription.
    public init(
        feeds: [String], lists: [FeedList] = [], headers: [String] = [], given: ShowSettings = ShowSettings(),
        shard: Shard? = nil, currentDirectory: String
    ) {
        self.feeds = feeds
        self.lists = lists
        self.headers = headers
        self.given = given
        self.shard = shard
        self.currentDirectory = currentDirectory
    }

    /// True when feeds are named or listed: only they sync, not every subscription.
    public var namesFeeds: Bool { !feeds.isEmpty || !lists.isEmpty }

    /// What is wrong with the request before the archive is read: headers need the feeds they are for named one
    /// by one (they would otherwise go to every subscription's host); nil when nothing is.
    public var requestProblem: SelectionProblem? {
        !headers.isEmpty && (feeds.isEmpty || !lists.isEmpty) ? .headersWithoutNamedFeeds : nil
    }

    /// The shows to sync from `subscriptions` (the archive's, as read) and what `catalog` says of `root`.
    public func choose(from subscriptions: SubscriptionSet, in root: URL, catalog: some ShowCatalog) -> ShowChoice {
        var choice = namesFeeds ? named(in: root, catalog: catalog) : every(subscriptions, in: root, catalog: catalog)
        if let shard, let shows = choice.shows {
            choice.shows = shows.filter { Subscription.shard(ofID: $0.id, among: shard.count) == shard.index }
        }
        return choice
    }

    /// Every subscription, with its saved settings; a damaged record is named and skipped.
    private func every(_ subscriptions: SubscriptionSet, in root: URL, catalog: some ShowCatalog) -> ShowChoice {
        var choice = ShowChoice()
        for damaged in subscriptions.damaged {
            choice.meet(.damagedRecord(path: damaged.path, reason: damaged.reason))
        }
        guard !subscriptions.shows.isEmpty || !subscriptions.damaged.isEmpty else {
            return choice.stopped(by: .noSubscriptions)
        }
        choice.shows = subscriptions.shows.compactMap { show -> SyncTarget? in
            do {
                let resolved = try catalog.resolve(show, in: root)
                return SyncTarget(
                    source: resolved.source, saved: show.settings, save: nil, id: show.id, subscription: resolved)
            } catch CredentialError.insecure(let refusal) {
                // Nothing in a file others could have changed is used: not its feed, not its login.
                choice.meet(.untrustedFile(reason: refusal.localizedDescription))
            } catch let missing as CredentialError {
                // The other shows still sync; this one cannot be fetched without what it is missing.
                choice.meet(.credentialsMissing(reason: missing.localizedDescription))
            } catch {
                choice.meet(.unusableSubscription(feed: show.shownFeed))
            }
            return nil
        }
        return choice
    }

    /// The feeds named and listed, each once, with the settings saved for them and those given to save.
    private func named(in root: URL, catalog: some ShowCatalog) -> ShowChoice {
        var choice = ShowChoice()
        var feeds: [FeedSource] = []
        var logins: [String: ShowCredentials?] = [:]
        var origins: [String: Origin] = [:]
        for text in self.feeds {
            do {
                let source = try FeedSource(text, currentDirectory: currentDirectory)
                feeds.append(source)
                var elsewhere = ResolvedFeed(typed: text)
                elsewhere.namedAt = namedAt[text]
                origins[source.displayName] = namedAt[text]
                logins[source.displayName] = elsewhere.givenCredentials(to: source, headers: headers)
            } catch {
                return choice.stopped(by: .invalidFeed(reason: error.localizedDescription))
            }
        }
        for list in lists {
            let listed: [String]
            do {
                listed = try catalog.subscriptions(atPath: list.path, opml: list.opml)
            } catch {
                return choice.stopped(by: .unreadableList(reason: error.localizedDescription))
            }
            // Relative paths in a list start at the list's own folder, wherever the run starts (cron, systemd).
            let folder = URL(fileURLWithPath: list.path).deletingLastPathComponent().path
            for text in listed {
                do {
                    feeds.append(try FeedSource(text, currentDirectory: folder))
                } catch {
                    choice.meet(.invalidListLine(list: list.path, reason: error.localizedDescription))
                }
            }
        }
        var seen = Set<String>()
        feeds = feeds.filter { seen.insert($0.displayName).inserted }
        guard !feeds.isEmpty else { return choice.stopped(by: .emptyLists) }
        var shows: [SyncTarget] = []
        for feed in feeds {
            let subscription: ResolvedSubscription?
            do {
                subscription = try catalog.subscription(for: feed, in: root)
            } catch CredentialError.insecure(let refusal) {
                choice.meet(.untrustedFile(reason: refusal.localizedDescription))
                continue
            } catch {
                choice.meet(.lookupFailed(reason: error.localizedDescription))
                continue
            }
            let known = subscription?.record
            shows.append(
                SyncTarget(
                    source: feed, saved: known?.settings, save: given, credentials: logins[feed.displayName] ?? nil,
                    id: known?.id ?? Subscription.id(forNewFeed: feed), subscription: subscription,
                    namedAt: origins[feed.displayName]))
        }
        choice.shows = shows
        return choice
    }
}
