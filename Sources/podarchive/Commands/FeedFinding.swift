// What `sync` and `add` do first with each show named: a web page or an Apple Podcasts link is followed to its
// feed (ArchiverCore's `FeedResolver` decides how); this says what was found, and lists the page's other feeds
// when asked to say more. The feed found is what the command then reads and saves, with the credentials given.
import ArchiverCore
import Foundation

/// Follows the shows named on one command line to their feeds.
struct FeedFinding: Sendable {
    private(set) var context: CommandContext
    let resolver: FeedResolver
    let root: URL
    let catalog: Archiver
    /// Deadline, size cap and User-Agent of each request (credentials are never sent to a page).
    let limits: FeedLimits
    /// Headers were given with the feeds named.
    let headersGiven: Bool
    /// Say what was found (not with `--quiet` or `--json`).
    let saying: Bool
    /// Also list the other feeds a page links to (`--verbose`).
    let verbose: Bool

    /// A finder for `context`'s command, reading through `archiver`'s fetcher.
    init(
        context: CommandContext, archiver: Archiver, root: URL, limits: FeedLimits, headersGiven: Bool,
        saying: Bool, verbose: Bool
    ) {
        self.context = context
        self.resolver = archiver.feedResolver(
            directory: PodcastDirectory.from(environment: context.environment.variables))
        self.root = root
        self.catalog = archiver
        self.limits = limits
        self.headersGiven = headersGiven
        self.saying = saying
        self.verbose = verbose
    }

    /// What `typed` names (`FeedResolver.resolve`), what was found said; or the failure, said, and its exit code.
    func feed(for typed: String) async -> Result<ResolvedFeed, FindingFailure> {
        let root = self.root
        let catalog = self.catalog
        return await finding(typed, linkSaid: false) {
            try await resolver.resolve(
                typed, currentDirectory: context.environment.currentDirectory, limits: limits,
                credentialsGiven: headersGiven,
                known: { source in ((try? catalog.subscription(for: source, in: root)) ?? nil) != nil })
        }
    }

    /// The feed the web page `resolved` names links to, what was found said; nil when it is no web page (the
    /// error that reading it as a feed met stands); or the failure, said, and its exit code.
    func follow(_ resolved: ResolvedFeed) async -> Result<ResolvedFeed?, FindingFailure> {
        let root = self.root
        let catalog = self.catalog
        let found = await finding(resolved.typed, linkSaid: true) {
            try await resolver.follow(
                resolved, limits: limits,
                known: { source in ((try? catalog.subscription(for: source, in: root)) ?? nil) != nil })
        }
        return found.map { $0.page == nil ? nil : $0 }
    }

    private func finding(_ typed: String, linkSaid: Bool, _ body: () async throws -> ResolvedFeed) async
        -> Result<ResolvedFeed, FindingFailure>
    {
        do {
            let resolved = try await body()
            say(resolved, linkSaid: linkSaid)
            sayLeftBehind(resolved)
            return .success(resolved)
        } catch {
            if Task.isCancelled {
                context.errors.write(
                    "podarchive: interrupted while finding the feed of \(URLSecrets.redacted(typed)); nothing saved for "
                        + "it\n")
                return .failure(FindingFailure(code: .interrupted, error: "interrupted"))
            }
            return .failure(
                FindingFailure(code: context.report(error), error: SyncFormatter.oneLine(error.localizedDescription)))
        }
    }

    /// This finder writing through `context` instead (a show's buffer, when shows sync side by side).
    func writing(through context: CommandContext) -> FeedFinding {
        var copy = self
        copy.context = context
        return copy
    }

    /// Says, on standard error whatever the verbosity, that the login or headers given with a page stay with it
    /// when the feed it names is on another origin, and how to give them with the feed's URL (placeholders, never
    /// the values).
    private func sayLeftBehind(_ resolved: ResolvedFeed) {
        let login = FeedSource.login(in: resolved.typed) != nil
        guard resolved.namedAt != nil, login || headersGiven, let feed = resolved.feed, let page = resolved.page
        else { return }
        let given = [login ? "a login" : nil, headersGiven ? "headers" : nil].compactMap { $0 }.joined(
            separator: " and ")
        // A login is described, not shown in the URL: every URL printed loses its userinfo (`RedactingOutput`).
        let command =
            "podarchive add '\(URLSecrets.redacted(feed.absoluteString))'"
            + (headersGiven ? " --header 'NAME: VALUE'" : "") + (login ? " (user:password@ in the URL)" : "")
        context.errors.write(
            "podarchive: what was given with \(URLSecrets.redacted(page.absoluteString)) (\(given)) goes to its origin "
                + "only: its feed <\(URLSecrets.redacted(feed.absoluteString))> is on another, read without it; to send "
                + "it there, give it with the feed's URL: \(command)\n")
    }

    private func say(_ resolved: ResolvedFeed, linkSaid: Bool) {
        guard saying, let feed = resolved.feed else { return }
        let output = context.output
        if let link = resolved.link, let listed = resolved.listed, !linkSaid {
            output.write("\(link) is a show of the podcast directory; its feed is <\(listed.absoluteString)>\n")
        }
        guard let page = resolved.page else { return }
        let others = resolved.others.count
        let also = verbose || others == 0 ? "" : " (it links to \(others) other feed\(others == 1 ? "" : "s"))"
        output.write("\(page.absoluteString) is a web page; its feed is <\(feed.absoluteString)>\(also)\n")
        guard verbose else { return }
        for other in resolved.others {
            output.write("    also links to <\(other.url.absoluteString)>\(other.title.map { " (\($0))" } ?? "")\n")
        }
    }
}

/// A show named that could not be followed to its feed: its exit code and its one line (said already).
struct FindingFailure: Error, Sendable {
    let code: ExitCode
    let error: String
}

extension FeedError {
    /// The document read is no feed at all (an HTML page among others): the address may be a show's web page.
    var isNotAFeed: Bool {
        if case .notAFeed = self { return true }
        return false
    }
}
