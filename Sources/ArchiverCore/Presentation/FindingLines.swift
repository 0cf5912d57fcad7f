// What `sync` and `add` say of how they found a feed, and of a problem met choosing the shows.
import Foundation

extension ResolvedFeed {
    /// The lines (for standard output) that say a name led to a feed: a directory's show, a web page, with
    /// `verbose` the other feeds the page links to; none when the name was the feed, or it was `followed`.
    public func foundLines(followed: Bool, verbose: Bool) -> [String] {
        guard let feed else { return [] }
        var lines: [String] = []
        if let link, let listed, !followed {
            lines.append("\(link) is a show of the podcast directory; its feed is <\(listed.absoluteString)>\n")
        }
        guard let page else { return lines }
        let count = others.count
        let also = verbose || count == 0 ? "" : " (it links to \(count) other feed\(count == 1 ? "" : "s"))"
        lines.append("\(page.absoluteString) is a web page; its feed is <\(feed.absoluteString)>\(also)\n")
        guard verbose else { return lines }
        for other in others {
            lines.append("    also links to <\(other.url.absoluteString)>\(other.title.map { " (\($0))" } ?? "")\n")
        }
        return lines
    }

    /// The line (for standard error) that says the login or headers given with a page stay with it when the feed
    /// it names is on another origin, and how to give them with the feed's URL (placeholders, never the values);
    /// nil when no page led to the feed.
    public func leftBehindLine(headers: Bool) -> String? {
        guard let feed, let page else { return nil }
        let login = FeedSource.login(in: typed) != nil
        let given = [login ? "a login" : nil, headers ? "headers" : nil].compactMap { $0 }.joined(separator: " and ")
        // A login is described, not shown in the URL: every URL printed loses its userinfo (`RedactingOutput`).
        let command =
            "podarchive add '\(URLSecrets.redacted(feed.absoluteString))'"
            + (headers ? " --header 'NAME: VALUE'" : "") + (login ? " (user:password@ in the URL)" : "")
        return "podarchive: what was given with \(URLSecrets.redacted(page.absoluteString)) (\(given)) goes to its "
            + "origin only: its feed <\(URLSecrets.redacted(feed.absoluteString))> is on another, read without it; "
            + "to send it there, give it with the feed's URL: \(command)\n"
    }
}

extension SelectionProblem {
    /// Its one line, without the `podarchive: ` prefix; `root` is the archive the shows were chosen in.
    public func line(root: URL) -> String {
        switch self {
        case .headersWithoutNamedFeeds:
            return "option '--header' needs the feeds it is for named on the command line (and no --opml or --feeds "
                + "list): it is sent to their hosts only"
        case .damagedRecord(let path, let reason):
            return "subscription record \(path) is damaged (\(reason)); skipped"
        case .noSubscriptions:
            return "\(root.path) has no subscriptions; add one with 'podarchive add <feed>' or name a feed"
        case .credentialsMissing(let reason), .untrustedFile(let reason):
            return reason
        case .unusableSubscription(let feed):
            return "subscription \(feed) is not a feed URL or path; skipped"
        case .invalidFeed(let reason), .unreadableList(let reason), .lookupFailed(let reason):
            return SyncFormatter.oneLine(reason)
        case .invalidListLine(let list, let reason):
            return "feed list \(list): \(SyncFormatter.oneLine(reason))"
        case .emptyLists:
            return "the feed lists name no feeds"
        }
    }
}
