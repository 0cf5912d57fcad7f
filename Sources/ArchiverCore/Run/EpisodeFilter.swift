// Which episodes of a feed a command considers: the newest N, those between two dates, those whose title (or
// description) matches, none whose title matches what is excluded, those of a running time and of episode numbers.
// Each criterion is read from the show setting of its name, here only.
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
    /// Only episodes published before this moment (`--until`; undated ones are kept).
    public var until: Date?
    /// Only episodes at least this many seconds long (`itunes:duration`; those without one are kept).
    public var minDuration: TimeInterval?
    /// Only episodes at most this many seconds long (those without a duration are kept).
    public var maxDuration: TimeInterval?
    /// Only episodes of these numbers (`itunes:episode`, else `podcast:episode`; those without one are kept).
    public var episodes: EpisodeRange?
    /// Where `match` and `exclude` look.
    public var matchIn: MatchField = .title

    /// A filter; nil leaves that criterion out. `match` must pass `ShowSettings.checkMatch`.
    public init(limit: Int? = nil, since: Date? = nil, match: String? = nil) {
        self.limit = limit
        self.since = since
        self.match = match
    }

    /// Whether a pattern looks in the show notes (a feed is then read with them).
    public var readsDescriptions: Bool { matchIn != .title && (match != nil || exclude != nil) }

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
        if settings[.until] != nil { filter.until = try checked(.until, ShowSettings.checkUntil) }
        if settings[.minDuration] != nil { filter.minDuration = try checked(.minDuration, ShowSettings.checkDuration) }
        if settings[.maxDuration] != nil { filter.maxDuration = try checked(.maxDuration, ShowSettings.checkDuration) }
        if settings[.episodes] != nil { filter.episodes = try checked(.episodes, ShowSettings.checkEpisodes) }
        if settings[.matchIn] != nil { filter.matchIn = try checked(.matchIn, ShowSettings.checkMatchIn) ?? .title }
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
        if let until { parts.append("until=\(FeedDate.iso8601(until))") }
        if let minDuration { parts.append("min-duration=\(Int(minDuration))") }
        if let maxDuration { parts.append("max-duration=\(Int(maxDuration))") }
        if let episodes { parts.append("episodes=\(episodes.text)") }
        if matchIn != .title { parts.append("match-in=\(matchIn.rawValue)") }
        return parts
    }

    /// The selected episodes, in the feed's own order.
    public func apply(to episodes: [Episode]) -> [Episode] {
        guard !isEmpty else { return episodes }
        let refusing = refuser()
        var selected = episodes.enumerated().filter { refusing($0.element) == nil }
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

    /// Each of `episodes` this filter leaves out, with the setting that leaves it out (`limit` when it is only
    /// among the older ones), in the feed's order.
    public func leftOut(of episodes: [Episode]) -> [(episode: Episode, by: ShowSettings.Key)] {
        let chosen = Set(apply(to: episodes).map(\.identity))
        let refusing = refuser()
        return episodes.filter { !chosen.contains($0.identity) }.map { ($0, refusing($0) ?? .limit) }
    }

    /// The setting that leaves one episode out by itself (all but `limit`), nil when none does.
    private func refuser() -> (Episode) -> ShowSettings.Key? {
        let expression = match.flatMap { try? NSRegularExpression(pattern: $0) }
        let excluded = exclude.flatMap { try? NSRegularExpression(pattern: $0) }
        let filter = self
        /// The texts `match` and `exclude` look in.
        func texts(_ episode: Episode) -> [String] {
            switch filter.matchIn {
            case .title: return [episode.title].compactMap { $0 }
            case .description: return [episode.description].compactMap { $0 }
            case .both: return [episode.title, episode.description].compactMap { $0 }
            }
        }
        /// Whether one of `texts` has a match of `pattern`.
        func found(_ pattern: NSRegularExpression, in texts: [String]) -> Bool {
            texts.contains { text in
                pattern.firstMatch(in: text, range: NSRange(text.startIndex..<text.endIndex, in: text)) != nil
            }
        }
        return { episode in
            if let since = filter.since, (episode.published ?? .distantPast) < since { return .since }
            // A value the episode does not give keeps it (`missing` says which).
            if let until = filter.until, let published = episode.published, published >= until { return .until }
            if let minimum = filter.minDuration, let duration = episode.duration, duration < minimum {
                return .minDuration
            }
            if let maximum = filter.maxDuration, let duration = episode.duration, duration > maximum {
                return .maxDuration
            }
            if let range = filter.episodes, let number = episode.episodeNumber, !range.contains(number) {
                return .episodes
            }
            // An untitled episode matches nothing: `match` leaves it out, `exclude` keeps it.
            if let expression, !found(expression, in: texts(episode)) { return .match }
            if let excluded, found(excluded, in: texts(episode)) { return .exclude }
            return nil
        }
    }

    /// The settings that could not be applied to `episode` for want of its value (a date, a duration, a number), so
    /// it is kept; empty when every one set could be.
    public func missing(_ episode: Episode) -> [ShowSettings.Key] {
        var keys: [ShowSettings.Key] = []
        if until != nil, episode.published == nil { keys.append(.until) }
        if episode.duration == nil {
            keys += [minDuration.map { _ in .minDuration }, maxDuration.map { _ in .maxDuration }].compactMap { $0 }
        }
        if self.episodes != nil, episode.episodeNumber == nil { keys.append(.episodes) }
        return keys
    }
}
