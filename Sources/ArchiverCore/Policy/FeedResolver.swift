// What the user typed for a show, turned into the feed to subscribe. People have a show's web site or its Apple
// Podcasts link more often than its feed URL: an Apple link is looked up in the directory (its `feedUrl`), and an
// address that answers with an HTML page is followed to the feed its head links to. What is saved is the feed.
//
// A feed is read once: an address is taken as the feed it almost always is, and only when reading it finds no feed
// is it read again as a page (`follow`). Credentials never reach a page: an address given with credentials is read
// first without any (no login, no header, no `.netrc`), so a page on one host never sees the secrets meant for a
// feed on another; and they go to the feed the page names only when it is on the page's own origin (a page's author
// does not choose who gets them). What answers that with anything but an HTML page (a feed, a 401, an error) is
// taken to be the feed itself, read with them, and judged by that fetch. Every answer is hostile: pages are read up
// to `maximumPage` bytes, directory answers up to `maximumAnswer`, each request within the run's deadline, only
// http(s) anywhere.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What a show's address, as typed, resolved to.
public struct ResolvedFeed: Equatable, Sendable {
    /// What was typed.
    public var typed: String
    /// What to use in its place: the feed's URL (carrying the login typed with the page when the feed is on the
    /// page's origin, never another's), or `typed` itself when that is the feed.
    public var text: String
    /// The feed found, when it is not what was typed.
    public var feed: URL?
    /// The web page the feed was found on.
    public var page: URL?
    /// The Apple Podcasts link the feed was looked up from.
    public var link: String?
    /// The feed the directory lists for `link` (followed further when it is a page).
    public var listed: URL?
    /// The other feeds the page links to, in the page's order.
    public var others: [DiscoveredFeed] = []
    /// `text` was not read: when reading it as a feed finds none, it may be a web page to `follow`.
    public var followable = false
    /// The origin of the web page followed, when the feed it names is on another: what was given with the page (a
    /// login, headers, a `.netrc` `default` login) stays there, and the feed is read without it. nil when the
    /// feed is on the page's origin, or no page was followed.
    public var namedAt: Origin?

    /// `typed`, taken as it is.
    public init(typed: String) {
        self.typed = typed
        self.text = typed
    }
}

extension ResolvedFeed {
    /// What a run gives the feed `source` (what `text` reads as): the login in `text` and `headers`, for its
    /// origin; nil when it gives neither, or when the feed was found on a page of another origin (`namedAt`).
    public func givenCredentials(to source: FeedSource, headers: [String]) -> ShowCredentials? {
        guard namedAt == nil else { return nil }
        return source.givenCredentials(login: FeedSource.login(in: text), headers: headers)
    }
}

/// Turns addresses as typed into feeds, through the injected fetcher.
public struct FeedResolver: Sendable {
    /// The most of a page read: far more than any show's page whose head names its feed.
    static let maximumPage: Int64 = 4 << 20
    /// The most of a directory answer read: 200 results are about 500 KB.
    static let maximumAnswer: Int64 = 8 << 20
    /// The most feed links of one page tried or listed.
    static let maximumCandidates = 20

    let fetcher: any URLDataFetcher
    let timer: @Sendable (TimeInterval) async throws -> Void
    /// The directory Apple Podcasts links are looked up in.
    public let directory: PodcastDirectory

    /// A resolver reading through `fetcher`, asking `directory`; `timer` waits out each request's deadline.
    public init(
        fetcher: any URLDataFetcher, directory: PodcastDirectory,
        timer: @escaping @Sendable (TimeInterval) async throws -> Void
    ) {
        self.fetcher = fetcher
        self.directory = directory
        self.timer = timer
    }

    /// What `typed` names, before it is read. An Apple Podcasts link is looked up (its `feedUrl` is the address
    /// from then on). An address given with credentials (`credentialsGiven`, or a login in it) is read here,
    /// without them, and followed when it is a page (see `follow`), so that they only ever go to the feed; any
    /// other http(s) address is `followable`: the caller reads it as a feed, with what it has, and calls
    /// `follow` only when that finds no feed. An address `known` holds as a subscription is neither.
    /// - Parameters:
    ///   - limits: each request's deadline, the feed size cap and the User-Agent (its credentials are not sent).
    ///   - known: whether a feed is subscribed already (it is then taken as it is).
    /// - Throws: `DirectoryError` for a link the directory cannot resolve; `FeedError.pageWithoutFeed` for a
    ///   page read here that links to no feed (never when credentials were given: a private feed may show a
    ///   page to a request without them, so the address is then taken as the feed).
    public func resolve(
        _ typed: String, currentDirectory: String, limits: FeedLimits, credentialsGiven: Bool = false,
        known: @Sendable (FeedSource) -> Bool = { _ in false }
    ) async throws -> ResolvedFeed {
        var resolved = ResolvedFeed(typed: typed)
        if let id = PodcastDirectory.showID(inLink: typed) {
            let feed = try await lookUp(id, link: typed, limits: limits)
            resolved.link = URLSecrets.redacted(typed)
            resolved.listed = feed
            resolved.feed = feed
            resolved.text = feed.absoluteString
        }
        // An address that carries the redaction marker is never read as it is (see `FeedError.lacksSecret`).
        guard !URLSecrets.carriesRedaction(resolved.text),
            let source = try? FeedSource(resolved.text, currentDirectory: currentDirectory),
            case .remote = source, !known(source)
        else { return resolved }
        guard credentialsGiven || FeedSource.login(in: typed) != nil else {
            resolved.followable = true
            return resolved
        }
        do {
            return try await follow(resolved, limits: limits, known: known)
        } catch FeedError.pageWithoutFeed {
            return resolved
        }
    }

    /// `resolved`'s address read without credentials and, when it is an HTML page, followed to the feed its head
    /// links to: of several, the first already subscribed or that parses as a feed with an episode (the first
    /// link when none does; one link is taken without reading it). Anything but an HTML page (a feed, a
    /// refusal, a failure) leaves `resolved` as it is, for the feed's own fetch to judge.
    /// - Throws: `FeedError.pageWithoutFeed` for a page that links to no feed.
    public func follow(
        _ resolved: ResolvedFeed, limits: FeedLimits, known: @Sendable (FeedSource) -> Bool = { _ in false }
    ) async throws -> ResolvedFeed {
        var resolved = resolved
        resolved.followable = false
        guard let source = try? FeedSource(resolved.text, currentDirectory: "/"), case .remote(let url) = source,
            let page = await readPage(url, limits: limits)
        else { return resolved }
        let candidates = Array(FeedDiscovery.feeds(inPage: page.data, at: page.url).prefix(Self.maximumCandidates))
        guard !candidates.isEmpty else {
            throw FeedError.pageWithoutFeed(url: URLSecrets.redacted(url.absoluteString))
        }
        let chosen = await choose(among: candidates, limits: limits, known: known)
        resolved.page = page.url
        resolved.feed = chosen.url
        resolved.others = candidates.filter { $0 != chosen }
        // A page decides nothing about who gets a secret: what was given with it goes to its own origin only.
        if let named = Origin(url), Origin(chosen.url) != named {
            resolved.namedAt = named
            resolved.text = chosen.url.absoluteString
        } else {
            resolved.text = Self.carryingLogin(of: resolved.typed, to: chosen.url)
        }
        return resolved
    }

    /// The page at `url` and where it was reached, when it answers 2xx with HTML within the limits; nil for
    /// anything else (a feed, a refusal, a failure: the feed's own fetch says what is wrong). Only the part a
    /// page's feed links can be in is asked for (`Range`): a server that honours it (static files, feeds on a
    /// CDN) sends no more, so a large feed is not read whole twice.
    private func readPage(_ url: URL, limits: FeedLimits) async -> (data: Data, url: URL)? {
        guard
            let fetched = try? await get(
                url, maximumBytes: min(Self.maximumPage, limits.maximumBytes), limits: limits,
                accept: "text/html, application/xhtml+xml;q=0.9, application/rss+xml;q=0.9, */*;q=0.8",
                range: FeedDiscovery.maximumHead),
            let http = fetched.response as? HTTPURLResponse, (200..<300).contains(http.statusCode),
            FeedDiscovery.isHTML(fetched.data)
        else { return nil }
        return (fetched.data, fetched.response.url ?? url)
    }

    /// The first candidate already subscribed, or that parses as a feed with an episode; else the first.
    private func choose(
        among candidates: [DiscoveredFeed], limits: FeedLimits, known: @Sendable (FeedSource) -> Bool
    ) async -> DiscoveredFeed {
        guard candidates.count > 1 else { return candidates[0] }
        for candidate in candidates {
            if let source = try? FeedSource(candidate.url.absoluteString, currentDirectory: "/"), known(source) {
                return candidate
            }
            guard
                let fetched = try? await get(
                    candidate.url, maximumBytes: limits.maximumBytes, limits: limits, accept: Self.feedTypes),
                let http = fetched.response as? HTTPURLResponse, (200..<300).contains(http.statusCode),
                let feed = try? FeedParser.parse(fetched.data, url: fetched.response.url ?? candidate.url),
                !feed.episodes.isEmpty
            else { continue }
            return candidate
        }
        return candidates[0]
    }

    static let feedTypes =
        "application/rss+xml, application/atom+xml, application/feed+json, application/json;q=0.9, "
        + "application/xml;q=0.9, text/xml;q=0.9, */*;q=0.8"

    /// One request with the User-Agent of `limits` and no credentials, within its deadline and `maximumBytes`.
    /// With `range`, only the first `range` bytes are asked for (a server may send them all, as 200).
    func get(_ url: URL, maximumBytes: Int64, limits: FeedLimits, accept: String, range: Int? = nil) async throws
        -> FetchedBody
    {
        let profile = RequestProfile(userAgent: limits.policy.profile?.userAgent ?? PodarchiveVersion.userAgent)
        var request = profile.request(for: url)
        request.setValue(accept, forHTTPHeaderField: "Accept")
        if let range { request.setValue("bytes=0-\(range - 1)", forHTTPHeaderField: "Range") }
        // A range of a compressed body could not be decoded on its own: a part is asked for as it is.
        request.setValue(BodyFraming.acceptEncoding(compressible: range == nil), forHTTPHeaderField: "Accept-Encoding")
        let policy = TransferPolicy(profile: profile, throttle: limits.policy.throttle)
        let finalRequest = request
        return try await Deadline.run(seconds: limits.timeout, timer: timer) { [fetcher] in
            try await fetcher.fetch(finalRequest, maximumBytes: maximumBytes, policy: policy)
        }
    }

    /// `feed`, with the login `typed` carries (`https://user:pw@page/` gives `https://user:pw@feed/`).
    static func carryingLogin(of typed: String, to feed: URL) -> String {
        let trimmed = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        let bare = URLSecrets.withoutUserinfo(trimmed)
        let feedText = feed.absoluteString
        guard bare != trimmed, let start = trimmed.range(of: "://")?.upperBound,
            let feedStart = feedText.range(of: "://")?.upperBound
        else { return feedText }
        let utf8 = trimmed.utf8
        let end = utf8.index(start, offsetBy: utf8.count - bare.utf8.count)
        return String(feedText[..<feedStart]) + String(decoding: utf8[start..<end], as: UTF8.self)
            + String(feedText[feedStart...])
    }
}
