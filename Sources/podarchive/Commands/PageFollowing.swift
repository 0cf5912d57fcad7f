// A show named to `sync` is read as the feed it almost always is; when that finds no feed, and the address may be
// the show's web page, it is followed to the feed the page links to and that feed is synced instead (read once,
// not twice for every feed named). This turns such a show into the show of the feed found.
import ArchiverCore
import Foundation

/// The shows of one `sync` run that may be web pages, and how to follow them.
struct PageFollowing: Sendable {
    let finding: FeedFinding
    /// What each followable show resolved to, by its source's display name.
    let addresses: [String: ResolvedFeed]
    /// Headers given for the feeds named (bound to the feed found, when it is on the page's origin).
    let headers: [String]

    /// The show of the feed `target`'s page links to, when `target` was named and its address is a web page
    /// (what was found said); the failure, said, when the page leads nowhere; nil when it is no page (the error
    /// that reading it as a feed met stands).
    func retarget(_ target: SyncTarget, catalog: Archiver, root: URL) async -> Result<SyncTarget, FindingFailure>? {
        guard let resolved = addresses[target.source.displayName] else { return nil }
        switch await finding.follow(resolved) {
        case .failure(let failure):
            return .failure(failure)
        case .success(nil):
            return nil
        case .success(let found?):
            guard let source = try? FeedSource(found.text, currentDirectory: "/") else { return nil }
            let known = (try? catalog.subscription(for: source, in: root))??.record
            return .success(
                SyncTarget(
                    source: source, saved: known?.settings, save: target.save,
                    credentials: found.givenCredentials(to: source, headers: headers),
                    id: known?.id ?? Subscription.id(forNewFeed: source), namedAt: found.namedAt))
        }
    }

    /// The same, saying what it finds through `context`.
    func writing(through context: CommandContext) -> PageFollowing {
        PageFollowing(finding: finding.writing(through: context), addresses: addresses, headers: headers)
    }
}
