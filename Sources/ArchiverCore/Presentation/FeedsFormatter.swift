// What `podarchive feeds` prints: a few lines per show for people, one JSON object, or OPML 2.0.
import Foundation

/// What `feeds` prints of the shows an archive follows.
public enum FeedsFormatter {
    /// Two lines a show: the title and what the show holds; then its feed and folder, and its saved settings as
    /// `options` says them (as the options that set them: the executable's declarations know how).
    public static func table(
        _ shows: [ShowStatus], root: URL, options: (ShowSettings) -> String
    ) -> String {
        guard !shows.isEmpty else { return "no subscriptions in \(root.path); add one with 'podarchive add <feed>'\n" }
        var text = ""
        for show in shows {
            var facts = ["\(show.episodes) episode\(show.episodes == 1 ? "" : "s")", SyncFormatter.size(show.bytes)]
            if let newest = show.newest { facts.append("newest \(newest.prefix(10))") }
            if show.failing > 0 { facts.append("\(show.failing) failing") }
            if show.gone > 0 { facts.append("\(show.gone) gone upstream") }
            if show.removedUpstream > 0 { facts.append("\(show.removedUpstream) removed upstream") }
            if show.away > 0 { facts.append("\(show.away) offloaded, deleted or handed off") }
            if let last = show.subscription.lastSync {
                facts.append(
                    "last sync \(last.finished.prefix(16).replacingOccurrences(of: "T", with: " ")) "
                        + last.outcome.rawValue)
            } else {
                facts.append("never synced")
            }
            text += "\(SyncFormatter.showName(show.title, folder: show.folder)): \(facts.joined(separator: ", "))\n"
            text += "    \(show.subscription.feed) -> \(SyncFormatter.relative(show.folder, to: root))/\n"
            if show.subscription.separate == true {
                text += "    kept apart from other feeds of the show (add --separate)\n"
            }
            if let earlier = show.subscription.earlierFeed {
                let keepBoth = SyncFormatter.keepBoth(show.subscription.shownFeed)
                text += "    took over from <\(earlier)>, no longer fetched (\(keepBoth))\n"
            }
            if let from = show.subscription.movedFrom {
                text += "    moved from \(from) on \((show.subscription.moved ?? "").prefix(10))\n"
            }
            if let settings = show.subscription.settings, !settings.isEmpty {
                text += "    saved: \(options(settings))\n"
            }
            if let problem = show.problem { text += "    \(problem)\n" }
        }
        return text
    }

    /// `{"feeds": [{"title", "feed", "folder", "episodes", "bytes", "newest", "failing", "gone", "lastSync",
    /// "outcome", "error", "settings", "credentials"}]}`, in subscription order.
    public static func json(_ shows: [ShowStatus], root: URL) -> String {
        var out = JSONWriter()
        out.raw("{\"feeds\": [")
        for (position, show) in shows.enumerated() {
            out.raw(position == 0 ? "\n  {\"title\": " : ",\n  {\"title\": ")
            out.string(show.title)
            out.raw(", \"feed\": ")
            out.string(show.subscription.feed)
            out.raw(", \"folder\": ")
            out.string(SyncFormatter.relative(show.folder, to: root))
            out.raw(", \"episodes\": \(show.episodes), \"bytes\": \(show.bytes), \"newest\": ")
            out.string(show.newest)
            out.raw(
                ", \"failing\": \(show.failing), \"gone\": \(show.gone), \"removedUpstream\": \(show.removedUpstream), "
                    + "\"lastSync\": ")
            out.string(show.subscription.lastSync?.finished)
            out.raw(", \"outcome\": ")
            out.string(show.subscription.lastSync?.outcome.rawValue)
            out.raw(", \"error\": ")
            out.string(show.subscription.lastSync?.error ?? show.problem)
            out.raw(", \"movedFrom\": ")
            out.string(show.subscription.movedFrom)
            out.raw(", \"moved\": ")
            out.string(show.subscription.moved)
            out.raw(", \"separate\": \(show.subscription.separate == true), \"earlierFeed\": ")
            out.string(show.subscription.earlierFeed)
            out.raw(", \"settings\": ")
            settings(show.subscription.settings ?? ShowSettings(), into: &out)
            // Whether credentials are saved, never what they are.
            out.raw(", \"credentials\": \(show.subscription.hasCredentials)")
            out.raw("}")
        }
        out.raw(shows.isEmpty ? "]}\n" : "\n]}\n")
        return out.text
    }

    /// Every show setting under its record name, null when it is not set.
    private static func settings(_ settings: ShowSettings, into out: inout JSONWriter) {
        for (index, key) in ShowSettings.Key.allCases.enumerated() {
            out.raw((index == 0 ? "{" : ", ") + "\"\(key.rawValue)\": ")
            switch settings[key] {
            case .text(let text)?: out.string(text)
            case .flag(let flag)?: out.raw(String(flag))
            case .count(let count)?: out.number(Int64(count))
            case nil: out.raw("null")
            }
        }
        out.raw("}")
    }

    /// OPML 2.0: one `rss` outline per show, as podcast apps export and `sync --opml` reads. Each feed URL is
    /// redacted, unless `whole` gives it (by subscription ID) with its secrets.
    public static func opml(_ shows: [ShowStatus], whole: [String: String] = [:]) -> String {
        var text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <opml version="2.0">
              <head><title>podarchive subscriptions</title></head>
              <body>

            """
        for show in shows {
            text +=
                "    <outline type=\"rss\" text=\"\(HTMLText.escape(show.title, attribute: true))\" title=\"\(HTMLText.escape(show.title, attribute: true))\" "
                + "xmlUrl=\"\(HTMLText.escape(whole[show.subscription.id] ?? show.subscription.shownFeed, attribute: true))\"/>\n"
        }
        return text + "  </body>\n</opml>\n"
    }
}
