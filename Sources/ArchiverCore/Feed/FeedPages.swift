// The rest of a feed: publishers cut their feed to the newest 50-300 items and put the rest on further pages
// (`rel="next"`, JSON Feed's `next_url`) or in RFC 5005 archive documents (`rel="prev-archive"`). This walks
// them from the first document, merging their episodes into one feed (an episode on several pages is one).
import Foundation

/// What walking a feed's pages found.
public struct PageWalk: Sendable, Equatable {
    /// The first document with the episodes of every page walked, in page order, each once.
    public var feed: Feed
    /// Documents read, the first included.
    public var pages: Int
    /// A page that could not be read (not http(s), not a feed, a failed fetch): the walk stops there, and the
    /// next run walks again.
    public var problem: PageProblem?
    /// A page linked a second time: the walk ended there (reported, not an error).
    public var cycle: String?
    /// Archive documents (RFC 5005) read in full this time: never fetched again (they never change).
    public var archives: [String]
    /// Where each archive document read this time links to (its `prev-archive`, "" at the end of the chain): a
    /// later walk follows the chain past them without fetching them.
    public var archiveLinks: [String: String] = [:]
    /// A page link that is not http(s) (`file:`, `javascript:`): refused, and the walk ends there; a warning,
    /// not a failure (the publisher's mistake is the same every night).
    public var refused: String?
    /// Every page and archive document was read, to the end of every chain: what the feed no longer lists is
    /// gone from it (false when the walk stopped early because nothing was new, at an archive read before, at a
    /// problem or at a link to another host).
    public var complete = true
    /// A page link to another host, not followed: a feed's pages live with the feed (WordPress, Podlove,
    /// Blogger, changelog.com), and a feed read from a mirror or a file must not send podarchive elsewhere.
    public var elsewhere: String?

    /// A walk's outcome.
    public init(
        feed: Feed, pages: Int = 1, problem: PageProblem? = nil, cycle: String? = nil, archives: [String] = [],
        elsewhere: String? = nil
    ) {
        self.feed = feed
        self.pages = pages
        self.problem = problem
        self.cycle = cycle
        self.archives = archives
        self.elsewhere = elsewhere
    }
}

/// A page of a feed that could not be read.
public struct PageProblem: Sendable, Equatable, Error {
    /// The page's URL.
    public var url: String
    /// Why.
    public var reason: String

    /// A problem with one page.
    public init(url: String, reason: String) {
        self.url = url
        self.reason = reason
    }
}

extension FeedLoader {
    /// Walks the pages `first` links to. A paged feed's `next` pages are followed until one brings nothing
    /// `known` (all of them when `known` is nil: a first sync, or `list`). Archive documents already read in full
    /// (`archived`) are not fetched again, as archive documents never change: the walk follows the chain past
    /// them through the links they had (`archiveLinks`), or ends there when those are not known.
    public func walkPages(
        from first: Feed, of source: FeedSource, descriptions: Bool = false, limits: FeedLimits = FeedLimits(),
        known: (@Sendable (Episode) -> Bool)? = nil, archived: Set<String> = [], archiveLinks: [String: String] = [:]
    ) async -> PageWalk {
        var walk = PageWalk(feed: first)
        let home = Self.site(of: source.url)
        var seen: Set<String> = [source.displayName]
        var identities = Set(first.episodes.map(\.identity))
        var next =
            first.links.next.map { (url: $0, archive: false) }
            ?? first.links.previousArchive.map { (url: $0, archive: true) }
        var readArchives: [String] = []
        while let link = next {
            next = nil
            if link.archive, archived.contains(link.url) {
                walk.complete = false
                // Read before: where it leads is known, so nothing is fetched; an end of chain ends the walk.
                guard let after = archiveLinks[link.url], seen.insert(link.url).inserted else { break }
                if !after.isEmpty { next = (url: after, archive: true) }
                continue
            }
            // A page seen before: everything was read. Every other stop below leaves pages unread.
            guard seen.insert(link.url).inserted else {
                walk.cycle = link.url
                break
            }
            guard walk.pages < limits.maximumPages else {
                walk.problem = PageProblem(
                    url: link.url,
                    reason: "the feed has more than \(limits.maximumPages) pages; the next run reads on from here")
                break
            }
            guard let url = URL(string: link.url), WebScheme.isWeb(url), url.host?.isEmpty == false else {
                walk.refused = link.url
                break
            }
            guard Self.site(of: url) == home else {
                walk.elsewhere = link.url
                break
            }
            let page: Feed
            do {
                page = try await load(.remote(url), descriptions: descriptions, limits: limits)
            } catch {
                walk.problem = PageProblem(url: link.url, reason: error.reasonText)
                break
            }
            walk.pages += 1
            let fresh = page.episodes.filter { identities.insert($0.identity).inserted }
            walk.feed.episodes += fresh
            walk.feed.itemsWithoutMedia += page.itemsWithoutMedia
            walk.feed.titlesWithoutMedia += page.titlesWithoutMedia
            if link.archive {
                readArchives.append(link.url)
                walk.archiveLinks[link.url] = page.links.previousArchive ?? ""
            }
            // A paged feed's older pages hold nothing new once a page brings nothing new.
            if !link.archive, let known, page.episodes.allSatisfy(known) {
                walk.complete = page.links.next == nil && page.links.previousArchive == nil
                break
            }
            next =
                page.links.next.map { (url: $0, archive: false) }
                ?? page.links.previousArchive.map { (url: $0, archive: true) }
        }
        if walk.problem != nil || walk.elsewhere != nil || walk.refused != nil { walk.complete = false }
        // Each archive document read is kept with its link, even when the walk stopped later: the next walk
        // goes on past it, to where this one stopped.
        walk.archives = readArchives
        return walk
    }

    /// The host a feed's pages must share: its own, without a leading "www." (http and https alike: feeds
    /// served over https often link their pages over http).
    static func site(of url: URL?) -> String? {
        guard let url, WebScheme.isWeb(url), var host = url.host?.lowercased() else { return nil }
        if host.hasPrefix("www.") { host.removeFirst(4) }
        return host
    }
}
