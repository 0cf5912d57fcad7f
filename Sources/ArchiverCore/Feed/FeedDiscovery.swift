// A show's web page names its feed in `<link rel="alternate" type="application/rss+xml" href="…">` (RSS, Atom,
// JSON Feed): the autodiscovery convention every podcast app and feed reader follows. This finds those links in
// the page's bytes with the tag reader the show notes use (`HTMLTag`): the page is hostile input, so the scan
// reads the head only, skips comments and scripts, and takes only http(s) URLs.
import Foundation

/// A feed a web page links to.
public struct DiscoveredFeed: Equatable, Sendable {
    /// The feed's URL, resolved against the page (and its `<base href>`).
    public var url: URL
    /// The media type the link declares (`application/rss+xml`, …), lowercased.
    public var type: String
    /// The link's title, when it has one (entities decoded, whitespace collapsed).
    public var title: String?
}

/// Finds the feeds a web page links to.
enum FeedDiscovery {
    /// How much of a page is read for its feed links: a head is a few KB; pages that pass this are not read on.
    static let maximumHead = 1 << 20

    /// The media types of feed links, as pages declare them.
    static let feedTypes: Set<String> = [
        "application/rss+xml", "application/atom+xml", "application/feed+json", "application/json",
        "application/xml", "text/xml", "application/rdf+xml",
    ]

    /// Whether `data` looks like an HTML page rather than a feed: its first tag is `<!doctype html` or `<html`
    /// (after a byte-order mark, whitespace and comments).
    public static func isHTML(_ data: Data) -> Bool {
        var rest = Substring(String(decoding: data.prefix(1024), as: UTF8.self))
        while true {
            rest = rest.drop(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
            if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { return false }
                rest = rest[end.upperBound...]
                continue
            }
            let start = rest.prefix(15).lowercased()
            return start.hasPrefix("<!doctype html") || start.hasPrefix("<html") || start.hasPrefix("<head")
        }
    }

    /// The feeds `page` links to with `rel="alternate"`, in the page's order, each once; links whose title or
    /// URL names comments (a blog's "Comments Feed") come last, since a show's own feed is what is wanted.
    /// Only http(s) URLs are kept; a `<base href>` is honoured when it is http(s) itself.
    public static func feeds(inPage page: Data, at pageURL: URL) -> [DiscoveredFeed] {
        var base = pageURL
        var found: [DiscoveredFeed] = []
        var seen: Set<String> = []
        var tags = TagWalk(String(decoding: page.prefix(maximumHead), as: UTF8.self))
        while let tag = tags.next() {
            switch tag.name {
            case "base":
                if let href = tag.attributes["href"], let url = resolve(href, against: pageURL) { base = url }
            case "link":
                guard let feed = feed(from: tag, base: base), seen.insert(feed.url.absoluteString).inserted
                else { continue }
                found.append(feed)
            case "body":
                // Feed links belong in the head; a body can be any size and anyone's comments.
                return ordered(found)
            default:
                continue
            }
        }
        return ordered(found)
    }

    private static func feed(from tag: HTMLTag, base: URL) -> DiscoveredFeed? {
        guard !tag.closing, let rel = tag.attributes["rel"],
            rel.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).contains("alternate"),
            let type = tag.attributes["type"]?.lowercased().split(separator: ";").first
                .map({ $0.trimmingCharacters(in: .whitespaces) }),
            feedTypes.contains(type),
            let href = tag.attributes["href"], let url = resolve(href, against: base)
        else { return nil }
        let title = tag.attributes["title"].map(collapsingWhitespace).flatMap { $0.isEmpty ? nil : $0 }
        return DiscoveredFeed(url: url, type: type, title: title)
    }

    private static func ordered(_ feeds: [DiscoveredFeed]) -> [DiscoveredFeed] {
        func aboutComments(_ feed: DiscoveredFeed) -> Bool {
            (feed.title?.lowercased().contains("comment") ?? false)
                || feed.url.path.lowercased().contains("/comments/")
        }
        return feeds.filter { !aboutComments($0) } + feeds.filter(aboutComments)
    }

    /// `href` resolved against `base`, when it is an http(s) URL with a host.
    static func resolve(_ href: String, against base: URL) -> URL? {
        let trimmed = href.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, let url = URL(string: trimmed, relativeTo: base)?.absoluteURL,
            WebScheme.isWeb(url), url.host?.isEmpty == false
        else { return nil }
        return url
    }

    private static func collapsingWhitespace(_ text: String) -> String {
        text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }
}

/// The tags of an HTML text, front to back: comments are skipped, the contents of `script`, `style`, `template`
/// and `textarea` are not read as tags, and a `<` that starts no tag is passed over.
struct TagWalk {
    private var rest: Substring

    init(_ text: String) { rest = Substring(text) }

    mutating func next() -> HTMLTag? {
        while let lt = rest.firstIndex(of: "<") {
            let tag = rest[lt...]
            if tag.hasPrefix("<!--") {
                rest = tag.range(of: "-->").map { tag[$0.upperBound...] } ?? ""
                continue
            }
            guard let parsed = HTMLTag(tag) else {
                // A tag left open runs to the end of the page (see `HTMLTag.startsTag`).
                rest = HTMLTag.startsTag(tag) ? "" : tag.dropFirst()
                continue
            }
            rest = tag[parsed.end...]
            if !parsed.closing, !parsed.selfClosing, ["script", "style", "template", "textarea"].contains(parsed.name) {
                rest =
                    rest.range(of: "</" + parsed.name, options: .caseInsensitive).map { rest[$0.lowerBound...] } ?? ""
            }
            return parsed
        }
        rest = ""
        return nil
    }
}
