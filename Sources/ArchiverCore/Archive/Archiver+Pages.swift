// A sync's walk of the feed's further pages, between fetching the first document and planning the work: every
// page on a first sync, the new ones later, each archive document once.
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
        onEvent(.pagesRead(walk.pages, notFollowed: walk.elsewhere))
        if let cycle = walk.cycle { onEvent(.pageCycle(url: cycle)) }
        if let problem = walk.problem {
            onEvent(.pageFailed(problem))
            validators.incomplete = true
        }
        let archives = archived.union(walk.archives)
        validators.archives = archives.isEmpty ? nil : archives.sorted()
        return (.changed(walk.feed, validators), walk)
    }
}
