// What a sync does with a feed's links to other documents, between fetching the feed and planning the work: the
// walk of its further pages (every page on a first sync, the new ones later, each archive document once), and
// following the show when it moved (a 301/308 on the feed URL, or `<itunes:new-feed-url>` that answers).
import Foundation

extension Archiver {
    /// The fetch with the episodes of the feed's other pages added, and the walk (nil when there was none: a
    /// 304, or a feed of one document). A page that cannot be read marks the validators incomplete, so the next
    /// run fetches the feed in full and walks again.
    func walkPages(
        _ fetch: FeedFetch, of source: FeedSource, known: @escaping @Sendable (Episode) -> Bool,
        archived: Set<String>, options: SyncOptions, onEvent: @Sendable (SyncEvent) -> Void
    ) async -> (FeedFetch, PageWalk?) {
        guard case .changed(let first, var validators) = fetch,
            first.links.next != nil || first.links.previousArchive != nil
        else { return (fetch, nil) }
        let walk = await loader.walkPages(
            from: first, of: source, descriptions: options.metadata, limits: options.feedLimits, known: known,
            archived: archived)
        if let cycle = walk.cycle { onEvent(.pageCycle(url: cycle)) }
        if let problem = walk.problem {
            onEvent(.pageFailed(problem))
            validators.incomplete = true
        }
        let archives = archived.union(walk.archives)
        validators.archives = archives.isEmpty ? nil : archives.sorted()
        return (.changed(walk.feed, validators), walk)
    }

    /// The show's feed URL from now on: where a 301/308 led, or the URL the feed announces as its new one when
    /// that answers with a feed; else `source`. A move updates the subscription (folder, index and settings stay)
    /// and is reported once; a new URL that does not answer is reported and changes nothing.
    func relocate(
        _ fetch: FeedFetch, of source: FeedSource, show: inout FeedFolder, in root: URL, options: SyncOptions,
        onEvent: @Sendable (SyncEvent) -> Void
    ) async -> FeedSource {
        guard case .remote = source, case .changed(let feed, _) = fetch else { return source }
        var target: FeedSource?
        if let moved = feed.movedTo, moved != source.displayName {
            target = try? FeedSource(moved, currentDirectory: "/")
        } else if let announced = feed.links.newFeedURL, announced != source.displayName {
            guard let candidate = try? FeedSource(announced, currentDirectory: "/"), case .remote = candidate else {
                onEvent(.moveRefused(url: announced, reason: "it is not an http(s) URL"))
                return source
            }
            do {
                _ = try await loader.load(candidate, limits: options.feedLimits)
                target = candidate
            } catch {
                onEvent(
                    .moveRefused(url: announced, reason: error.reasonText))
                return source
            }
        }
        guard let target, case .remote = target else { return source }
        do {
            try folders.moveSubscription(from: source, to: target, folder: show.folder.lastPathComponent, in: root)
        } catch {
            onEvent(
                .moveRefused(
                    url: target.displayName, reason: error.reasonText))
            return source
        }
        show.index.feed = target.displayName
        onEvent(.moved(from: source.displayName, to: target.displayName))
        return target
    }

    /// Keeps the fetched document in the show's history when it is a new revision; the fetch's validators then
    /// carry its digest. A history that cannot be written is reported and costs nothing else.
    func keepHistory(_ fetch: FeedFetch, in show: FeedFolder, onEvent: @Sendable (SyncEvent) -> Void) -> FeedFetch {
        guard case .changed(let feed, var validators) = fetch else { return fetch }
        do {
            validators.revision = try folders.keepRevision(
                of: feed, previous: show.lastRevision, in: show, at: placer.clock.now())
        } catch {
            validators.revision = show.lastRevision
            onEvent(.historyFailed(reason: error.reasonText))
        }
        return .changed(feed, validators)
    }
}
