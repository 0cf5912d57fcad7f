// An episode the index records as not archived yet (`ArchiveIndex.Failure`), and what the next run needs to know of
// it: why it failed, its 404 history (gone upstream), the publisher's hash, the size a body cut by its connection
// had, what a URL offered in place of media.
import Foundation

/// An episode that could not be archived yet; it is retried on every run, even when the feed is unchanged, unless it
/// is gone upstream (`gone`) or not media (`notMedia`).
public struct FailedEpisode: Codable, Equatable, Sendable {
    /// GUID, else enclosure URL: the episode's primary key.
    public var key: String
    /// The episode's GUID, when the feed gave one.
    public var guid: String?
    /// The episode's title.
    public var title: String?
    /// The enclosure URL that failed.
    public var url: String
    /// The enclosure's declared MIME type.
    public var type: String?
    /// Publication date, `YYYY-MM-DDTHH:MM:SSZ`; nil when the feed gave none.
    public var published: String?
    /// Why it failed, as reported to the user.
    public var reason: String
    /// When it last failed, `YYYY-MM-DDTHH:MM:SSZ`.
    public var failed: String
    /// The HTTP status of the last failure, when the server answered with one.
    public var status: Int?
    /// Since when every run got 404 or 410 for it (`YYYY-MM-DDTHH:MM:SSZ`).
    public var missingSince: String?
    /// How many runs in a row got 404 or 410 for it.
    public var missingRuns: Int?
    /// When it was recorded as gone upstream (see `goneAfter`): no longer retried by default, no longer a
    /// failure of the run.
    public var gone: String?
    /// The publisher's hash of the file and how many runs in a row it did not match (see `PublisherRecord`).
    public var publisher: PublisherRecord?
    /// The size of a body that ended with its connection short of the feed's length for it: the same size
    /// again is the file (see `DownloadCheck`).
    public var shortBody: Int64?
    /// What `url` answered with in place of media (`NotMedia`'s raw value: `torrent`, `hls`...): not asked for
    /// again while the feed offers the episode there (see `WorkPlan`).
    public var notMedia: String?

    /// The failure's keys in the index (see `Entry.CodingKeys`).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case key, guid, title, url, type, published, reason, failed, status, missingSince, missingRuns, gone
        case publisher, shortBody, notMedia
    }

    /// An episode is gone upstream once it answered 404 or 410 on at least `goneAfterRuns` runs spanning at
    /// least `goneAfter` seconds: long enough that a publisher's passing mistake is not taken for deletion.
    public static let goneAfter: TimeInterval = 7 * 86_400
    /// See `goneAfter`.
    public static let goneAfterRuns = 3

    /// Records `episode` as failed for `reason` at `failed` (`YYYY-MM-DDTHH:MM:SSZ`), its URL redacted.
    public init(episode: Episode, reason: String, failed: String) {
        key = episode.identity
        guid = episode.guid
        title = episode.title
        url = URLSecrets.redacted(episode.url)
        type = episode.mimeType
        published = episode.published.map(FeedDate.iso8601)
        // A reason may name a URL (a redirect's target): kept as every URL is.
        self.reason = TextSecrets.redactingURLs(in: reason)
        self.failed = failed
    }

    /// Carries the 404/410 history over from the failure this one replaces, and marks the episode gone
    /// upstream when that history is long enough.
    public mutating func carryHistory(from previous: FailedEpisode?, at now: Date) {
        guard let status, status == 404 || status == 410 else { return }
        let previousSince = previous?.missingSince.flatMap(FeedDate.parseRFC3339)
        if let previous, previous.status == 404 || previous.status == 410, let previousSince {
            missingSince = previous.missingSince
            missingRuns = (previous.missingRuns ?? 1) + 1
            gone = previous.gone
            if gone == nil, missingRuns! >= Self.goneAfterRuns,
                now.timeIntervalSince(previousSince) >= Self.goneAfter
            {
                gone = FeedDate.iso8601(now)
            }
        } else {
            missingSince = FeedDate.iso8601(now)
            missingRuns = 1
        }
    }

    /// The episode to try again (its URL as kept: one whose secret was redacted is tried with the feed's).
    public var episode: Episode {
        var episode = Episode(
            title: title, guid: guid, url: url, mimeType: type,
            published: published.flatMap(FeedDate.parseRFC3339))
        if episode.identity != key { episode.storedIdentity = key }
        return episode
    }
}
