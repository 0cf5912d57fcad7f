// `podarchive list <feed>` as one call: the feed read (every page, unless only the first is asked for) with the
// access given, over the show's saved access when the archive follows it, over the configuration file's; its
// episodes filtered as the settings given say.
import Foundation

/// Reading a feed to list its episodes.
public struct ListRequest: Sendable {
    /// The feed, as typed (a login in it is used).
    public var feed: String
    /// The archive, whose saved access for the show is used when it follows it; nil for none.
    public var root: URL?
    /// Headers for the feed, sent to its own origin only.
    public var headers: [String] = []
    /// The filter and the access given, and the configuration file's access.
    public var settings: CommandSettings
    /// The largest feed document read.
    public var maximumFeedSize = FeedLimits.defaultMaximumBytes
    /// How long the feed, and each page it links to, may take to arrive.
    public var timeout = TransferSettings().timeout
    /// Only the document itself, not the pages it links to.
    public var firstPage = false

    /// Listing `feed`.
    public init(feed: String, settings: CommandSettings) {
        self.feed = feed
        self.settings = settings
    }
}

/// A feed read for listing, and how what it supplies is to be printed.
public struct FeedListing: Sendable {
    /// The pages walked, the episodes filtered.
    public var walk: PageWalk
    /// What the show's access makes secret: print the listing under it (`Taint.run`), so a private feed's values
    /// are redacted wherever they are printed.
    public var taint: Taint
}

extension ArchiveCommands {
    /// `podarchive list <feed>`: `episodesFailed` when a page could not be read (the episodes before it are
    /// listed); `interrupted` when the run was stopped before the feed was read.
    public func list(_ request: ListRequest) async -> CommandOutcome<FeedListing> {
        do {
            let listing = try await archiver.reading(request)
            return CommandOutcome(listing, status: listing.walk.status)
        } catch {
            return CommandOutcome(failure: error, cancelled: Task.isCancelled)
        }
    }
}

extension SyncEngine {
    /// The feed `request` names, read for listing.
    fileprivate func reading(_ request: ListRequest) async throws -> FeedListing {
        let source = try FeedSource(request.feed, currentDirectory: request.settings.currentDirectory)
        // The feed's login and headers as given, over those saved with it when the archive follows it; the
        // User-Agent and .netrc file given, else saved with the show, else the configuration file's.
        var options = SyncOptions()
        options.give(source.givenCredentials(login: FeedSource.login(in: request.feed), headers: request.headers))
        let saved = request.root.flatMap { try? subscription(for: source, in: $0) }?.record.settings
        options = try access(
            request.settings.options(options, saved: saved, accessOnly: true), for: source, in: request.root)
        // What a private feed supplies is read as its taint says (see `Taint`).
        let taint = options.taint
        var walk = try await taint.run {
            try await listPages(
                source,
                limits: FeedLimits(
                    maximumBytes: request.maximumFeedSize, timeout: request.timeout, policy: options.policy),
                allPages: !request.firstPage)
        }
        walk.feed.episodes = try SyncOptions().applying(request.settings.given).filter.apply(to: walk.feed.episodes)
        return FeedListing(walk: walk, taint: taint)
    }
}
