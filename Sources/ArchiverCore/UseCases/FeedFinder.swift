// What `sync` and `add` do first with each show named: a web page or an Apple Podcasts link is followed to its
// feed (`FeedResolver` decides how), and what was found is told. The feed found is what the command then reads
// and saves, with the credentials given.
import Foundation

/// Follows the shows named on one command line to their feeds.
struct FeedFinder: Sendable {
    let archiver: any SyncEngine
    let resolver: FeedResolver
    let root: URL
    /// Deadline, size cap and User-Agent of each request (credentials are never sent to a page).
    let limits: FeedLimits
    /// Headers were given with the feeds named.
    let headersGiven: Bool
    /// Where a relative path named starts.
    let currentDirectory: String

    /// A finder for shows named to be kept in `root`, looking Apple Podcasts links up in `directory`.
    init(
        archiver: any SyncEngine, root: URL, directory: PodcastDirectory, limits: FeedLimits, headersGiven: Bool,
        currentDirectory: String
    ) {
        self.archiver = archiver
        self.resolver = archiver.feedResolver(directory: directory)
        self.root = root
        self.limits = limits
        self.headersGiven = headersGiven
        self.currentDirectory = currentDirectory
    }

    /// What `typed` names (`FeedResolver.resolve`), what was found told; or, when it leads to no feed, its
    /// outcome.
    func feed(for typed: String, onEvent: @Sendable (SyncRunEvent) -> Void) async -> Result<ResolvedFeed, Unfound> {
        let started = archiver.now()
        return await finding(typed, followed: false, show: nil, started: started, onEvent: onEvent) { known in
            try await resolver.resolve(
                typed, currentDirectory: currentDirectory, limits: limits, credentialsGiven: headersGiven,
                known: known)
        }
    }

    /// The feed the web page `resolved` names links to, what was found told (`show`: the position of the show
    /// being synced); nil when it is no web page (the error that reading it as a feed met stands); or, when the
    /// page leads nowhere, its outcome.
    func follow(_ resolved: ResolvedFeed, show: Int?, onEvent: @Sendable (SyncRunEvent) -> Void) async
        -> Result<ResolvedFeed?, Unfound>
    {
        let started = archiver.now()
        let found = await finding(resolved.typed, followed: true, show: show, started: started, onEvent: onEvent) {
            known in
            try await resolver.follow(resolved, limits: limits, known: known)
        }
        return found.map { $0.page == nil ? nil : $0 }
    }

    private func finding(
        _ typed: String, followed: Bool, show: Int?, started: Date, onEvent: @Sendable (SyncRunEvent) -> Void,
        _ body: (@escaping @Sendable (FeedSource) -> Bool) async throws -> ResolvedFeed
    ) async -> Result<ResolvedFeed, Unfound> {
        let (archiver, root) = (self.archiver, self.root)
        do {
            let resolved = try await body { source in
                ((try? archiver.subscription(for: source, in: root)) ?? nil) != nil
            }
            if resolved.link != nil || resolved.page != nil {
                onEvent(.found(resolved, followed: followed, show: show))
            }
            if leavesAccessBehind(resolved) { onEvent(.accessLeftBehind(resolved, headers: headersGiven)) }
            return .success(resolved)
        } catch {
            let interrupted = Task.isCancelled
            return .failure(
                Unfound(
                    outcome: ShowOutcome(
                        feed: URLSecrets.redacted(typed),
                        result: interrupted ? .interrupted(finding: true) : .failed(error),
                        status: interrupted ? .interrupted : RunStatus(for: error),
                        seconds: archiver.now().timeIntervalSince(started))))
        }
    }

    /// A login or headers were given with a page whose feed is on another origin: they stay with the page.
    private func leavesAccessBehind(_ resolved: ResolvedFeed) -> Bool {
        let login = FeedSource.login(in: resolved.typed) != nil
        return resolved.namedAt != nil && (login || headersGiven) && resolved.feed != nil && resolved.page != nil
    }
}

/// A show named that led to no feed, and how it ended.
struct Unfound: Error, Sendable {
    let outcome: ShowOutcome
}

extension FeedError {
    /// The document read is no feed at all (an HTML page among others): the address may be a show's web page.
    public var isNotAFeed: Bool {
        if case .notAFeed = self { return true }
        return false
    }
}
