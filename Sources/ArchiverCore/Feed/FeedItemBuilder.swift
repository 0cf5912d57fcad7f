// The item the RSS/Atom reader is building: every part an `<item>` or `<entry>` may give, gathered as the
// elements arrive and turned into an `Episode` when the item closes.
import Foundation

/// The parts of an `<item>` or `<entry>` gathered so far.
struct FeedItemBuilder {
    var title: String?
    var itunesTitle: String?
    var guid: String?
    var url: String?
    var mimeType: String?
    var length: Int64?
    var pubDate: Date?
    var dcDate: Date?
    var published: Date?
    var updated: Date?
    var episodeNumber: Int?
    /// `podcast:episode`, taken when there is no `itunes:episode`.
    var podcastEpisode: Int?
    var seasonNumber: Int?
    /// `podcast:season`, taken when there is no `itunes:season`.
    var podcastSeason: Int?
    var description: String?
    var summary: String?
    var content: String?
    var link: String?
    var duration: TimeInterval?
    var image: String?
    var companions: [Companion] = []
    /// Artwork from `podcast:images` (the widest) and Media RSS, after `itunes:image`.
    var podcastImage: String?
    var thumbnail: String?
    /// The item's alternate enclosures; the last is the one being read while inside one.
    var alternates: [AlternateEnclosure] = []
    /// Whether the alternate enclosure being read was kept (its sources and hashes belong to the last one).
    var keptAlternate = false
    /// Podlove Simple Chapters given inline: start, title, href, image.
    var psc: [(start: String, title: String?, href: String?, image: String?)] = []

    /// The episode these parts make, with `url` as its media: the first date and description given, the artwork
    /// by preference, and inline Podlove chapters as a chapters companion when the item links none.
    func episode(url: String) -> Episode {
        let title = self.title ?? itunesTitle
        var episode = Episode(
            title: title, guid: guid, url: url, mimeType: mimeType, length: length,
            published: pubDate ?? dcDate ?? published ?? updated,
            episodeNumber: episodeNumber ?? podcastEpisode, seasonNumber: seasonNumber ?? podcastSeason,
            description: description ?? summary ?? content, link: link,
            duration: duration, imageURL: image ?? podcastImage ?? thumbnail)
        episode.companions = companions
        episode.alternates = alternates
        if !psc.isEmpty, !companions.contains(where: { $0.kind == .chapters }) {
            episode.companions.append(
                Companion(
                    kind: .chapters, type: "application/json+chapters", content: Companion.jsonChapters(psc)))
        }
        return episode
    }
}
