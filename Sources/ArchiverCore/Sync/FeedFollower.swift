// What a sync does with a feed's links to other documents, between fetching the feed and planning the work: the
// walk of its further pages (every page on a first sync, the new ones later, each archive document once), and
// following the show when it moved (a 301/308 on the feed URL, or `<itunes:new-feed-url>` that answers).
import Foundation

/// Follows a fetched feed's links: its further pages, where the show moved, and its history.
struct FeedFollower: Sendable {
    /// Pages and a moved feed fetched.
    let loader: FeedLoader
    /// A moved show's subscription updated.
    let store: SubscriptionStore
    /// Each new revision of the feed kept.
    let history: HistoryStore
    /// The dates of revisions.
    let clock: SyncClock

    /// The fetch with the episodes of the feed's other pages added, and the walk (nil when there was none: a
    /// 304, or a feed of one document). A page that cannot be read marks the validators incomplete, so the next
    /// run fetches the feed in full and walks again.
    /// `archived` and `archiveLinks` are the archive documents read before and where they lead; a page link
    /// that is not http(s) is said once (`refusedBefore` is the one said last run).
    func walkPages(
        _ fetch: FeedFetch, of source: FeedSource, known: @escaping @Sendable (Episode) -> Bool,
        archived: Set<String>, archiveLinks: [String: String] = [:], refusedBefore: String? = nil,
        options: SyncOptions, onEvent: @Sendable (SyncEvent) -> Void
    ) async -> (FeedFetch, PageWalk?) {
        guard case .changed(let first, var validators) = fetch,
            first.links.next != nil || first.links.previousArchive != nil
        else { return (fetch, nil) }
        let walk = await loader.walkPages(
            from: first, of: source, descriptions: options.metadata || options.filter.readsDescriptions,
            limits: options.feedLimits, known: known,
            archived: archived, archiveLinks: archiveLinks)
        if let cycle = walk.cycle { onEvent(.pageCycle(url: cycle)) }
        if let refused = walk.refused, refused != refusedBefore { onEvent(.pageRefused(url: refused)) }
        validators.refusedPage = walk.refused
        if let problem = walk.problem {
            onEvent(.pageFailed(problem))
            validators.incomplete = true
        }
        let archives = archived.union(walk.archives)
        validators.archives = archives.isEmpty ? nil : archives.sorted()
        let links = archiveLinks.merging(walk.archiveLinks) { _, new in new }
        validators.archiveLinks = links.isEmpty ? nil : links
        return (.changed(walk.feed, validators), walk)
    }

    /// The show's feed URL from now on, and the fetch to archive: where a 301/308 led (the fetch is already the new
    /// document), or the URL the feed announces as its new one (`<itunes:new-feed-url>`) when that answers with a
    /// feed of the same show (the same `<podcast:guid>`, or an episode GUID in common), whose document is then
    /// archived in this same run; else `source` and `fetch`. A move updates the subscription (folder, index and
    /// settings stay) and is reported once; a new URL that does not answer is reported and changes nothing; one
    /// that names another show is refused and said once (it is recorded with the subscription).
    func relocate(
        _ fetch: FeedFetch, of source: FeedSource, record: inout Subscription, show: inout FeedFolder, in root: URL,
        options: SyncOptions, onEvent: @Sendable (SyncEvent) -> Void
    ) async -> (FeedSource, FeedFetch) {
        guard case .remote = source, case .changed(let feed, _) = fetch else { return (source, fetch) }
        var target: FeedSource?
        var newFetch = fetch
        if let moved = feed.movedTo, let candidate = try? FeedSource(moved, currentDirectory: "/"),
            candidate != source
        {
            target = candidate
        } else if let announced = feed.links.newFeedURL,
            (try? FeedSource(announced, currentDirectory: "/")) != source
        {
            func refuse(_ reason: String) {
                guard record.refusedMove != announced else { return }
                onEvent(.moveRefused(url: announced, reason: reason))
                record.refusedMove = announced
                try? store.save(record, in: root)
            }
            guard let candidate = try? FeedSource(announced, currentDirectory: "/"), case .remote = candidate else {
                refuse("it is not an http(s) URL")
                return (source, fetch)
            }
            guard !URLSecrets.carriesRedaction(announced) else {
                refuse("it carries no usable secret (REDACTED)")
                return (source, fetch)
            }
            do {
                let loaded = try await loader.load(
                    candidate, ifChangedSince: nil, descriptions: true, limits: options.feedLimits)
                guard case .changed(let next, _) = loaded else { return (source, fetch) }
                let claims = ShowOpener.trustsClaims(of: candidate, for: record, netrc: options.profile.netrc)
                guard Self.isSameShow(next, as: feed, index: show.index, claims: claims) else {
                    refuse(
                        claims
                            ? "it is another show (no <podcast:guid> or episode GUID in common with "
                                + "\(source.shownName)); the subscription stays"
                            : "a private show's new URL on another origin is the same show only with an episode GUID "
                                + "in common, and it has none; the subscription stays")
                    return (source, fetch)
                }
                target = candidate
                newFetch = loaded
            } catch {
                onEvent(.moveRefused(url: announced, reason: error.reasonText))
                return (source, fetch)
            }
        }
        guard let target, case .remote = target else { return (source, fetch) }
        do {
            record = try store.replaceFeed(of: record, with: target, credentials: nil, moved: true, in: root)
        } catch {
            onEvent(.moveRefused(url: target.shownName, reason: error.reasonText))
            return (source, fetch)
        }
        show.index.feed = URLSecrets.redacted(target.displayName)
        onEvent(.moved(from: source.shownName, to: target.shownName))
        if let origin = target.origin, let home = options.profile.home,
            options.profile.withholdsDefaultLogin(from: origin)
        {
            onEvent(.defaultLoginStays(home: home.description, host: origin.host))
        }
        return (target, newFetch)
    }

    /// Whether `candidate` is the same show as `feed` (whose folder's index is `index`): the same
    /// `<podcast:guid>` when its author's `claims` are trusted (see `ShowOpener.trustsClaims`), else an episode
    /// GUID in common with the document or the archive.
    static func isSameShow(_ candidate: Feed, as feed: Feed, index: ArchiveIndex, claims: Bool = true) -> Bool {
        if claims, let guid = candidate.podcastGUID, guid == feed.podcastGUID { return true }
        let guids = Set(feed.episodes.compactMap(\.guid))
        return candidate.episodes.contains { episode in
            guard let guid = episode.guid else { return false }
            return guids.contains(guid) || index.entry(for: episode).map { $0.guid == guid } == true
        }
    }

    /// Keeps the fetched document in the show's history when it is a new revision; the fetch's validators then
    /// carry its digest. A history that cannot be written is reported and costs nothing else.
    func keepHistory(_ fetch: FeedFetch, in show: FeedFolder, onEvent: @Sendable (SyncEvent) -> Void) -> FeedFetch {
        guard case .changed(let feed, var validators) = fetch else { return fetch }
        do {
            validators.revision = try history.keepRevision(
                of: feed, previous: show.lastRevision, in: show, at: clock.now())
        } catch {
            validators.revision = show.lastRevision
            onEvent(.historyFailed(reason: error.reasonText))
        }
        return .changed(feed, validators)
    }
}
