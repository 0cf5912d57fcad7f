// Podcasting 2.0's `<podcast:alternateEnclosure>`: another file of the same episode (Opus, another bitrate, a
// video), with the URIs it can be fetched from (`<podcast:source>`) and the publisher's hashes or signature
// (`<podcast:integrity>`). The one marked `default="true"` describes the item's own `<enclosure>`. One with a
// `rel` (other than "default") is other content ("Behind the Scenes"), not another encoding of the episode; a
// source whose `contentType` is not the file's own type (a torrent, an HLS or DASH playlist) delivers something
// else, and is kept apart from the sources of the file (`indirectSources`).
import Foundation

/// Another file of an episode, as the feed describes it.
public struct AlternateEnclosure: Equatable, Sendable, Codable {
    /// The media type (`audio/opus`, `video/mp4`).
    public var type: String
    /// The size in bytes, when given and positive.
    public var length: Int64?
    /// Bits a second, when given.
    public var bitrate: Double?
    /// The picture's height, for video.
    public var height: Int?
    /// The language (RFC 5646), when given.
    public var language: String?
    /// A title for menus ("High quality").
    public var title: String?
    /// The codecs (RFC 6381), e.g. `opus`.
    public var codecs: String?
    /// Whether this describes the item's own enclosure.
    public var isDefault: Bool
    /// Where the file can be fetched from, in the feed's order (any scheme as written; only http(s) is fetched).
    public var sources: [String]
    /// Sources that deliver something other than the file itself (their `contentType` names another type: a
    /// torrent, an HLS or DASH playlist), in the feed's order: never fetched as the file. Nil when there are none.
    public var indirectSources: [String]?
    /// What the media is to the episode (`rel`), when the feed says it is not the episode's own content ("Behind
    /// the Scenes", "Director's cut"); nil for another encoding or transport of the episode (no `rel`, or
    /// "default").
    public var rel: String?
    /// The publisher's Subresource Integrity value (`sha384-…`), when given.
    public var integrity: String?
    /// A detached PGP signature, when given (recorded, never checked).
    public var pgpSignature: String?

    /// An alternate enclosure of `type`.
    public init(
        type: String, length: Int64? = nil, bitrate: Double? = nil, height: Int? = nil, language: String? = nil,
        title: String? = nil, codecs: String? = nil, isDefault: Bool = false, sources: [String] = [],
        integrity: String? = nil, pgpSignature: String? = nil
    ) {
        self.type = type
        self.length = length
        self.bitrate = bitrate
        self.height = height
        self.language = language
        self.title = title
        self.codecs = codecs
        self.isDefault = isDefault
        self.sources = sources
        self.integrity = integrity
        self.pgpSignature = pgpSignature
    }

    /// How many alternates of one item are kept, and sources of one alternate: a hostile feed could list
    /// millions.
    static let limit = 16

    /// Whether this is another file of the episode's own content, one that could be archived as the episode: not
    /// other content (`rel`), and media rather than a playlist or a torrent (see `NotMedia`).
    public var isTheEpisode: Bool { rel == nil && NotMedia(type: type) == nil }

    /// Whether a `podcast:source` of this alternate whose `contentType` is `contentType` (nil: not given) at `uri`
    /// delivers the file itself: no other type, and no playlist or torrent by its name (`.m3u8`, `.mpd`, `.torrent`).
    func delivers(contentType: String?, uri: String) -> Bool {
        if let contentType, !MediaTypes.same(contentType, type) { return false }
        return NotMedia(type: type) != nil || NotMedia(url: uri) == nil
    }
}
