// What a feed document says of the show itself, outside its items: its title, its new home, its GUID, its web
// site and description, and its artwork.
import Foundation

extension XMLFeedReader {
    /// Keeps the text of a channel-level (or feed-level) element.
    mutating func finishChannelText(of kind: Kind, text: String, parent: Kind?) {
        if kind == .title, feedTitle == nil, !text.isEmpty { feedTitle = text }
        if kind == .itunesNewFeedURL, links.newFeedURL == nil, !text.isEmpty {
            links.newFeedURL = resolver.resolve(text)
        }
        if kind == .podcastGUID, podcastGUID == nil, !text.isEmpty { podcastGUID = text }
        if parent == .channel, kind == .link, links.website == nil, !text.isEmpty {
            links.website = resolver.resolve(text)
        }
        if parent == .channel, kind == .description || kind == .itunesSummary, showDescription == nil, !text.isEmpty {
            showDescription = text
        }
        if kind == .url || kind == .logo || kind == .icon, !text.isEmpty {
            artwork[kind] = resolver.resolve(text)
        }
    }
}
