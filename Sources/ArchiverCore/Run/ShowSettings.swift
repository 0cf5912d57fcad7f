// What a subscription remembers of the options it was synced with, so a nightly `podarchive sync` with no feed
// syncs each show as it was set up. Kept as the user wrote them, checked again when read.
import Foundation

/// A show's saved settings; each nil one is not set (the command line's, else the default, applies).
public struct ShowSettings: Codable, Equatable, Sendable {
    /// The name template (`--name`), as written.
    public var name: String?
    /// Sidecars and artwork (`--metadata`).
    public var metadata: Bool?
    /// Only the newest this many episodes (`--limit`).
    public var limit: Int?
    /// Only episodes published on or after this date (`--since`), RFC 3339 as written.
    public var since: String?
    /// Only episodes whose title matches this regular expression (`--match`).
    public var match: String?
    /// Transcripts, chapters and episode artwork (`--no-companions` turns them off).
    public var companions: Bool?
    /// The User-Agent the show's requests carry (`--user-agent`).
    public var userAgent: String?
    /// The `.netrc` file its logins come from (`--netrc-file`), by absolute path.
    public var netrcFile: String?
    /// The media types (or codecs) preferred among an episode's alternate enclosures (`--prefer`), comma-separated
    /// as written; "" given over a saved one turns it off.
    public var prefer: String?

    /// Settings; nil leaves one unset.
    public init(
        name: String? = nil, metadata: Bool? = nil, limit: Int? = nil, since: String? = nil, match: String? = nil,
        companions: Bool? = nil, userAgent: String? = nil, netrcFile: String? = nil, prefer: String? = nil
    ) {
        self.prefer = prefer
        self.userAgent = userAgent
        self.netrcFile = netrcFile
        self.name = name
        self.metadata = metadata
        self.limit = limit
        self.since = since
        self.match = match
        self.companions = companions
    }

    /// True when nothing is set.
    public var isEmpty: Bool { self == ShowSettings() }

    /// Given over saved settings, turns their filter off: every episode (0 and "" mean none; not saved as such).
    public static let everyEpisode = ShowSettings(limit: 0, since: "", match: "")

    /// Whether a filter is set (`limit`, `since`, `match`).
    public var filters: Bool {
        (limit ?? 0) != 0 || !(since ?? "").isEmpty || !(match ?? "").isEmpty
    }

    /// These settings as saved: a filter turned off is not set.
    public var withoutClearedFilters: ShowSettings {
        var kept = self
        if kept.limit == 0 { kept.limit = nil }
        if kept.since == "" { kept.since = nil }
        if kept.match == "" { kept.match = nil }
        return kept
    }

    /// These settings with every one `newer` sets replaced by its value.
    public func overlaid(by newer: ShowSettings) -> ShowSettings {
        ShowSettings(
            name: newer.name ?? name, metadata: newer.metadata ?? metadata, limit: newer.limit ?? limit,
            since: newer.since ?? since, match: newer.match ?? match, companions: newer.companions ?? companions,
            userAgent: newer.userAgent ?? userAgent, netrcFile: newer.netrcFile ?? netrcFile,
            prefer: newer.prefer ?? prefer)
    }

    /// A User-Agent is one line of printable text, not empty.
    public static func isValidUserAgent(_ text: String) -> Bool {
        !text.trimmingCharacters(in: .whitespaces).isEmpty
            && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

}
