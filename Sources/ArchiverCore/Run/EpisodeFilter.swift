// Which episodes of a feed a command considers: the newest N, those since a date, those whose title matches, none
// whose title matches what is excluded. Each criterion is read from the show setting of its name, here only.
import Foundation

/// A selection of a feed's episodes. The empty filter selects everything.
public struct EpisodeFilter: Sendable, Equatable {
    /// Only the newest `limit` episodes (by publication date; undated ones count as oldest).
    public var limit: Int?
    /// Only episodes published on or after this date (undated ones are left out).
    public var since: Date?
    /// Only episodes whose title matches this regular expression (untitled ones are left out).
    public var match: String?
    /// No episode whose title matches this regular expression (untitled ones are kept).
    public var exclude: String?

    /// A filter; nil leaves that criterion out. `match` must pass `ShowSettings.checkMatch`.
    public init(limit: Int? = nil, since: Date? = nil, match: String? = nil) {
        self.limit = limit
        self.since = since
        self.match = match
    }

    /// True when the filter selects every episode.
    public var isEmpty: Bool { self == EpisodeFilter() }

    /// This filter with the criteria `settings` set over it (0 and "" turn one set before off: see
    /// `ShowSettings.everyEpisode`), each checked by its rule.
    /// - Throws: `SettingsError` naming a value its rule refuses (a hand-edited record).
    public func applying(_ settings: ShowSettings) throws -> EpisodeFilter {
        func checked<Value>(_ key: ShowSettings.Key, _ rule: (String) throws(SettingProblem) -> Value) throws -> Value?
        {
            guard let value = settings[key], !value.turnsOff else { return nil }
            let text = value.text
            do { return try rule(text) } catch { throw SettingsError(key: key, value: text, problem: error) }
        }
        var filter = self
        if settings.limit != nil {
            filter.limit = try checked(.limit) { text throws(SettingProblem) in
                try ShowSettings.checkLimit(Int(text) ?? 0)
            }
        }
        if settings.since != nil { filter.since = try checked(.since, ShowSettings.checkSince) }
        if settings.match != nil { filter.match = try checked(.match, ShowSettings.checkMatch) }
        if settings.exclude != nil { filter.exclude = try checked(.exclude, ShowSettings.checkMatch) }
        return filter
    }

    /// Each criterion set, as `name=value` lines: what a run that wants the same episodes says the same way (see
    /// `FeedWants`).
    var criteria: [String] {
        var parts: [String] = []
        if let limit { parts.append("limit=\(limit)") }
        if let since { parts.append("since=\(FeedDate.iso8601(since))") }
        if let match { parts.append("match=\(match)") }
        if let exclude { parts.append("exclude=\(exclude)") }
        return parts
    }

    /// The selected episodes, in the feed's own order.
    public func apply(to episodes: [Episode]) -> [Episode] {
        guard !isEmpty else { return episodes }
        let expression = match.flatMap { try? NSRegularExpression(pattern: $0) }
        let excluded = exclude.flatMap { try? NSRegularExpression(pattern: $0) }
        /// Whether `title` has a match of `pattern`.
        func found(_ pattern: NSRegularExpression, in title: String) -> Bool {
            pattern.firstMatch(in: title, range: NSRange(title.startIndex..<title.endIndex, in: title)) != nil
        }
        var selected = episodes.enumerated().filter { _, episode in
            if let since, (episode.published ?? .distantPast) < since { return false }
            // An untitled episode matches nothing: `match` leaves it out, `exclude` keeps it.
            if let expression, !(episode.title.map { found(expression, in: $0) } ?? false) { return false }
            if let excluded, episode.title.map({ found(excluded, in: $0) }) == true { return false }
            return true
        }
        if let limit, selected.count > limit {
            // Newest first, the feed's order breaking ties, then back to the feed's order.
            let newest = selected.sorted { lhs, rhs in
                let left = lhs.element.published ?? .distantPast
                let right = rhs.element.published ?? .distantPast
                return left != right ? left > right : lhs.offset < rhs.offset
            }
            selected = newest.prefix(limit).sorted { $0.offset < $1.offset }
        }
        return selected.map(\.element)
    }
}
