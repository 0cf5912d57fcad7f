// What a feed document says of the show itself, outside its items: its title, its new home, its GUID, its web
// site and description, and its artwork.
import Foundation

/// What a feed document says of the show itself, gathered as its channel-level elements arrive.
struct FeedChannelBuilder {
    typealias Kind = XMLNames.Kind

    /// The feed's artwork, by preference: `itunes:image`, RSS `image/url`, Atom `logo`, Atom `icon`.
    var artwork: [Kind: String] = [:]
    /// The show's `<podcast:guid>`.
    var podcastGUID: String?
    /// The show's own description (read only when show notes are).
    var description: String?
    var title: String?
    /// The channel's `itunes:author`.
    var author: String?
    /// The feed's links to other documents (channel or feed level only).
    var links = FeedLinks()

    /// Keeps the text of a channel-level (or feed-level) element.
    mutating func finishText(of kind: Kind, text: String, parent: Kind?, resolver: FeedURLResolver) {
        if kind == .title, title == nil, !text.isEmpty { title = text }
        if kind == .itunesNewFeedURL, links.newFeedURL == nil, !text.isEmpty {
            links.newFeedURL = resolver.resolve(text)
        }
        if kind == .podcastGUID, podcastGUID == nil, !text.isEmpty { podcastGUID = text }
        if kind == .itunesAuthor, parent == .channel, author == nil, !text.isEmpty { author = text }
        if parent == .channel, kind == .link, links.website == nil, !text.isEmpty {
            links.website = resolver.resolve(text)
        }
        if parent == .channel, kind == .description || kind == .itunesSummary, description == nil, !text.isEmpty {
            description = text
        }
        if kind == .url || kind == .logo || kind == .icon, !text.isEmpty {
            artwork[kind] = resolver.resolve(text)
        }
    }

    /// Keeps a channel-level (`atomFeed`: feed-level) Atom link to `href` with relation `relation`.
    mutating func takeLink(_ href: String, relation: String?, atomFeed: Bool, resolver: FeedURLResolver) {
        switch relation?.lowercased() {
        case "next": if links.next == nil { links.next = resolver.resolve(href) }
        case "prev-archive": if links.previousArchive == nil { links.previousArchive = resolver.resolve(href) }
        case "self": if links.selfURL == nil { links.selfURL = resolver.resolve(href) }
        case "alternate", nil:
            if links.website == nil, atomFeed { links.website = resolver.resolve(href) }
        default: break
        }
    }

    /// The feed of `episodes` in `format`, with what the channel said.
    func feed(episodes: [Episode], format: FeedFormat) -> Feed {
        let image = [Kind.itunesImage, .url, .logo, .icon].lazy.compactMap { artwork[$0] }.first
        var feed = Feed(title: title, episodes: episodes, format: format, imageURL: image)
        feed.links = links
        feed.podcastGUID = podcastGUID
        feed.author = author
        feed.description = description
        return feed
    }
}
