// What a subscription remembers of the options it was synced with, so a nightly `podarchive sync` with no feed
// syncs each show as it was set up. Kept as the user wrote them, checked again when read. Each setting is said once,
// as a `Key`: storing, merging, clearing, printing and reading a record back are the same for all of them.
import Foundation

/// A show's saved settings; each nil one is not set (the command line's, else the default, applies).
public struct ShowSettings: Equatable, Sendable {
    /// The settings a show keeps, by their name in the subscription record, in the order records and `feeds --json`
    /// list them.
    public enum Key: String, CaseIterable, Codable, Sendable {
        case name, metadata, limit, since, match, companions, userAgent, netrcFile, prefer, exclude
        case until, minDuration, maxDuration, episodes, matchIn
        case keepLast, keepDays, into, delete, asciiNames, folderName

        /// The settings that choose which episodes are taken (`--all` turns them off).
        public static let filters: [Key] = [
            .limit, .since, .until, .match, .exclude, .matchIn, .minDuration, .maxDuration, .episodes,
        ]

        /// The settings of a show's retention (see `ShowSettings.retention`).
        public static let retention: [Key] = [.keepLast, .keepDays, .into, .delete]

        /// What its value is: a switch (`metadata`), a count (`limit`), else text as written.
        var kind: Kind {
            switch self {
            case .metadata, .companions, .delete, .asciiNames: return .flag
            case .limit, .keepLast, .keepDays: return .count
            default: return .text
            }
        }

        enum Kind { case text, flag, count }
    }

    /// One setting's value, as the record keeps it.
    public enum Value: Equatable, Sendable {
        case text(String)
        case flag(Bool)
        case count(Int)

        /// As the configuration file writes it: `true`, `3`, `{title}`.
        public var text: String {
            switch self {
            case .text(let text): return text
            case .flag(let flag): return String(flag)
            case .count(let count): return String(count)
            }
        }

        /// Whether it turns its filter off (`0`, `""`: see `everyEpisode`).
        var turnsOff: Bool { self == .count(0) || self == .text("") }
    }

    /// The settings set, by key.
    private var values: [Key: Value] = [:]
    /// Given only (never saved): the saved settings to forget (`--clear NAME`), so the layers under the saved ones
    /// (the configuration file's, the defaults) apply to them again.
    public var cleared: Set<Key>?

    /// The value of `key`, nil when it is not set.
    public subscript(key: Key) -> Value? {
        get { values[key] }
        set { values[key] = newValue }
    }

    private func text(_ key: Key) -> String? {
        guard case .text(let text)? = values[key] else { return nil }
        return text
    }

    /// The name template (`--name`), as written.
    public var name: String? {
        get { text(.name) }
        set { values[.name] = newValue.map(Value.text) }
    }
    /// Sidecars and artwork (`--metadata`).
    public var metadata: Bool? {
        get { if case .flag(let flag)? = values[.metadata] { flag } else { nil } }
        set { values[.metadata] = newValue.map(Value.flag) }
    }
    /// Only the newest this many episodes (`--limit`).
    public var limit: Int? {
        get { if case .count(let count)? = values[.limit] { count } else { nil } }
        set { values[.limit] = newValue.map(Value.count) }
    }
    /// Only episodes published on or after this date (`--since`), RFC 3339 as written.
    public var since: String? {
        get { text(.since) }
        set { values[.since] = newValue.map(Value.text) }
    }
    /// Only episodes whose title matches this regular expression (`--match`).
    public var match: String? {
        get { text(.match) }
        set { values[.match] = newValue.map(Value.text) }
    }
    /// No episode whose title matches this regular expression (`--exclude`).
    public var exclude: String? {
        get { text(.exclude) }
        set { values[.exclude] = newValue.map(Value.text) }
    }
    /// Transcripts, chapters and episode artwork (`--no-companions` turns them off).
    public var companions: Bool? {
        get { if case .flag(let flag)? = values[.companions] { flag } else { nil } }
        set { values[.companions] = newValue.map(Value.flag) }
    }
    /// The User-Agent the show's requests carry (`--user-agent`).
    public var userAgent: String? {
        get { text(.userAgent) }
        set { values[.userAgent] = newValue.map(Value.text) }
    }
    /// The `.netrc` file its logins come from (`--netrc-file`), by absolute path.
    public var netrcFile: String? {
        get { text(.netrcFile) }
        set { values[.netrcFile] = newValue.map(Value.text) }
    }
    /// The media types (or codecs) preferred among an episode's alternate enclosures (`--prefer`), comma-separated
    /// as written; "" given over a saved one turns it off.
    public var prefer: String? {
        get { text(.prefer) }
        set { values[.prefer] = newValue.map(Value.text) }
    }

    /// Settings; nil leaves one unset.
    public init(
        name: String? = nil, metadata: Bool? = nil, limit: Int? = nil, since: String? = nil, match: String? = nil,
        companions: Bool? = nil, userAgent: String? = nil, netrcFile: String? = nil, prefer: String? = nil
    ) {
        self.name = name
        self.metadata = metadata
        self.limit = limit
        self.since = since
        self.match = match
        self.companions = companions
        self.userAgent = userAgent
        self.netrcFile = netrcFile
        self.prefer = prefer
    }

    /// True when nothing is set.
    public var isEmpty: Bool { self == ShowSettings() }

    /// Given over saved settings, turns their filter off: every episode (0 and "" mean none; not saved as such).
    public static let everyEpisode: ShowSettings = {
        var every = ShowSettings()
        for key in Key.filters { every[key] = key == .limit ? .count(0) : .text("") }
        return every
    }()

    /// Whether a filter is set (and not turned off).
    public var filters: Bool {
        Key.filters.contains { key in values[key].map { !$0.turnsOff } ?? false }
    }

    /// These settings as saved: a filter turned off is not set.
    public var withoutClearedFilters: ShowSettings {
        var kept = self
        for key in Key.filters where values[key]?.turnsOff == true { kept.values[key] = nil }
        return kept
    }

    /// The value of `key` as text ("true"/"false" for a switch); nil when it is not set.
    public func text(of key: Key) -> String? { values[key]?.text }

    /// These settings without `key`'s value.
    public mutating func clear(_ key: Key) { values[key] = nil }

    /// These settings without those `keys` name.
    public func removing(_ keys: Set<Key>?) -> ShowSettings {
        var kept = self
        for key in keys ?? [] { kept.clear(key) }
        return kept
    }

    /// These settings with every one `newer` sets replaced by its value.
    public func overlaid(by newer: ShowSettings) -> ShowSettings {
        var merged = ShowSettings()
        merged.values = values.merging(newer.values) { _, new in new }
        return merged
    }

    /// A User-Agent is one line of printable text, not empty.
    public static func isValidUserAgent(_ text: String) -> Bool {
        !text.trimmingCharacters(in: .whitespaces).isEmpty
            && !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

extension ShowSettings: Codable {
    private struct Name: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// A record's settings: each key it names, with a value of its kind (a string, a switch, a count).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: Name.self)
        for key in Key.allCases {
            let name = Name(stringValue: key.rawValue)
            guard container.contains(name), try !container.decodeNil(forKey: name) else { continue }
            switch key.kind {
            case .flag: values[key] = .flag(try container.decode(Bool.self, forKey: name))
            case .count: values[key] = .count(try container.decode(Int.self, forKey: name))
            case .text: values[key] = .text(try container.decode(String.self, forKey: name))
            }
        }
    }

    /// Each setting set, under its name, in `Key` order.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Name.self)
        for key in Key.allCases {
            let name = Name(stringValue: key.rawValue)
            switch values[key] {
            case .text(let text)?: try container.encode(text, forKey: name)
            case .flag(let flag)?: try container.encode(flag, forKey: name)
            case .count(let count)?: try container.encode(count, forKey: name)
            case nil: continue
            }
        }
    }
}
