// The feed model: what a feed says about itself and about each downloadable episode.
import Foundation

/// One downloadable item of a feed: an entry with an enclosure.
public struct Episode: Equatable, Sendable {
    /// The item's title, trimmed; nil when the feed gives none.
    public var title: String?
    /// The item's GUID (RSS `guid`, Atom `id`, JSON Feed `id`), trimmed; nil when absent or empty.
    public var guid: String?
    /// The enclosure URL, trimmed and resolved against `xml:base` or the feed's own URL.
    public var url: String
    /// The enclosure's declared MIME type, if any.
    public var mimeType: String?
    /// The enclosure's declared length in bytes, if positive.
    public var length: Int64?
    /// The publication date; nil when absent or unreadable (never "now").
    public var published: Date?
    /// The iTunes episode number, if given.
    public var episodeNumber: Int?
    /// The iTunes season number, if given.
    public var seasonNumber: Int?
    /// The show notes as the feed gives them (often HTML): RSS `description`, else `itunes:summary`, else
    /// `content:encoded`; Atom `summary`, else `content`; JSON Feed `summary`, else `content_text`, else `content_html`.
    public var description: String?
    /// The episode's web page (RSS `link`, Atom `link rel="alternate"`, JSON Feed `url`).
    public var link: String?
    /// The running time in seconds (`itunes:duration`, JSON Feed `duration_in_seconds`).
    public var duration: TimeInterval?
    /// The episode's own artwork (`itunes:image`, JSON Feed `image`).
    public var imageURL: String?

    /// An episode; only the enclosure URL is required.
    public init(
        title: String?, guid: String?, url: String, mimeType: String? = nil, length: Int64? = nil,
        published: Date? = nil, episodeNumber: Int? = nil, seasonNumber: Int? = nil, description: String? = nil,
        link: String? = nil, duration: TimeInterval? = nil, imageURL: String? = nil
    ) {
        self.title = title
        self.guid = guid
        self.url = url
        self.mimeType = mimeType
        self.length = length
        self.published = published
        self.episodeNumber = episodeNumber
        self.seasonNumber = seasonNumber
        self.description = description
        self.link = link
        self.duration = duration
        self.imageURL = imageURL
    }

    /// Transcripts and chapters published with the episode (its artwork is `imageURL`; see `companions(besides:)`).
    public var companions: [Companion] = []

    /// Other files of the episode (`podcast:alternateEnclosure`), in the feed's order.
    public var alternates: [AlternateEnclosure] = []

    /// Everything to keep beside the episode: its transcripts and chapters, and its artwork when it is not the
    /// show's (`showImage`).
    public func companions(besides showImage: String?) -> [Companion] {
        guard let imageURL, imageURL != showImage else { return companions }
        return companions + [Companion(kind: .artwork, url: imageURL)]
    }

    /// True when an earlier item of the same document has this GUID but another enclosure: a publisher's
    /// mistake. The GUID then no longer tells the episodes apart, so this one is known by its GUID and URL.
    public var sharesGUID = false

    /// The identity as the archive keeps it, when that is not the one the feed's text gives: a keyed hash of an
    /// identity that carries a secret (see `SecretForms`).
    public var storedIdentity: String?

    /// The key the archive index records the episode under: its GUID, else its enclosure URL (its GUID and
    /// enclosure URL when `sharesGUID`); as the archive keeps it (see `storedIdentity`).
    public var identity: String {
        if let storedIdentity { return storedIdentity }
        guard let guid else { return url }
        return sharesGUID ? guid + "#" + url : guid
    }

    /// The episode as it may be shown once it has left the show's task: its URL redacted as the show's `Taint`
    /// says (made on that task).
    var shown: Episode {
        var episode = self
        episode.url = URLSecrets.redacted(url)
        return episode
    }

    /// Marks, in document order, each episode whose GUID an earlier one with another enclosure already has.
    /// Items with the same GUID and the same enclosure are the same episode listed twice, and stay so.
    public static func keepingApart(_ episodes: [Episode]) -> [Episode] {
        var firstURL: [String: String] = [:]
        var result = episodes
        for index in result.indices {
            guard let guid = result[index].guid else { continue }
            if let url = firstURL[guid] {
                if url != result[index].url { result[index].sharesGUID = true }
            } else {
                firstURL[guid] = result[index].url
            }
        }
        return result
    }
}

/// A parsed feed: its title and its episodes in document order.
public struct Feed: Equatable, Sendable {
    /// The feed's title, trimmed; nil when it gives none.
    public var title: String?
    /// The downloadable episodes, in document order.
    public var episodes: [Episode]
    /// What the document was.
    public var format: FeedFormat
    /// The show's artwork: `itunes:image`, else RSS `image/url`, else Atom `logo` or `icon`; JSON Feed `icon`.
    public var imageURL: String?
    /// Episodes that share their GUID with an earlier one (see `Episode.sharesGUID`).
    public var sharedGUIDs: Int { episodes.count { $0.sharesGUID } }
    /// Items the document lists with nothing to download (no enclosure, no attachment, no `url`): left out of
    /// `episodes`, counted so that a report can say so.
    public var itemsWithoutMedia = 0
    /// The titles of those items ("" for an untitled one), so a report can name them.
    public var titlesWithoutMedia: [String] = []
    /// Items that look like episodes but are in a shape the format does not read (a JSON array item with an
    /// `enclosure` instead of a `url`): left out of `episodes`, each with why, so that a report names them.
    public var skippedItems: [SkippedItem] = []
    /// Where the rest of the feed is (further pages, archived documents) and where it moved.
    public var links = FeedLinks()
    /// Where fetching the feed was redirected for good (every redirect a 301 or 308), if it was.
    public var movedTo: String?
    /// The fetched document itself, kept for the show's history (nil for feeds built in memory).
    public var document: Data?
    /// The show's own GUID (`<podcast:guid>`), the same at every URL the show is published at.
    public var podcastGUID: String?
    /// Who makes the show (the channel's `itunes:author`), as given; nil when the feed does not say.
    public var author: String?
    /// What the show says of itself (channel `description`, else `itunes:summary`), as given (often HTML); read
    /// only when descriptions are.
    public var description: String?
    /// Logins the publisher wrote into the document's URLs (`https://user:pw@host/e.mp3`): taken out of the URLs,
    /// which are kept and shown without them, and sent only to the origin of the URL that gave each.
    public var logins: [ShowCredentials] = []

    /// A feed as a reader found it.
    public init(title: String?, episodes: [Episode], format: FeedFormat, imageURL: String? = nil) {
        self.title = title
        self.episodes = episodes
        self.format = format
        self.imageURL = imageURL
    }
}

/// What a feed document says about other documents: the next page of a paged feed (`<atom:link rel="next">`,
/// JSON Feed's `next_url`), the previous archive document of an RFC 5005 archived feed (`rel="prev-archive"`),
/// and the show's new home (`<itunes:new-feed-url>`). Relative links are resolved against the document.
public struct FeedLinks: Equatable, Sendable {
    /// The show's web site (RSS channel `link`, Atom `link rel="alternate"`, JSON Feed `home_page_url`).
    public var website: String?
    /// The next page (older episodes) of a paged feed.
    public var next: String?
    /// The previous archive document (RFC 5005): archive documents never change once published.
    public var previousArchive: String?
    /// The feed's new URL, as the publisher announced it.
    public var newFeedURL: String?
    /// The URL the document says it is published at (`<atom:link rel="self">`, JSON Feed's `feed_url`).
    public var selfURL: String?

    /// No links.
    public init(next: String? = nil, previousArchive: String? = nil, newFeedURL: String? = nil) {
        self.next = next
        self.previousArchive = previousArchive
        self.newFeedURL = newFeedURL
    }
}

/// The document formats podarchive reads, detected from the bytes.
public enum FeedFormat: String, Equatable, Sendable {
    /// RSS 2.0, 0.9x or 1.0 (RDF).
    case rss
    /// Atom 1.0 (and 0.3).
    case atom
    /// JSON Feed 1.0 or 1.1.
    case jsonFeed = "json-feed"
    /// A plain JSON array of `{"url", "title", "published"}` objects.
    case jsonArray = "json-array"
}

/// A feed item left out because its shape is not the format's, and why.
public struct SkippedItem: Equatable, Sendable {
    /// Its title, when it has one.
    public var title: String?
    /// Why it was left out: `it has "enclosure", which ...`.
    public var reason: String

    /// An item left out for `reason`.
    public init(title: String?, reason: String) {
        self.title = title
        self.reason = reason
    }
}
