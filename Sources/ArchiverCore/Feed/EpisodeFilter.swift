// Which episodes of a feed a command considers: the newest N, those since a date, those whose title matches.
import Foundation

/// A selection of a feed's episodes. The empty filter selects everything.
public struct EpisodeFilter: Sendable, Equatable {
    /// Only the newest `limit` episodes (by publication date; undated ones count as oldest).
    public var limit: Int?
    /// Only episodes published on or after this date (undated ones are left out).
    public var since: Date?
    /// Only episodes whose title matches this regular expression (untitled ones are left out).
    public var match: String?

    /// A filter; nil leaves that criterion out. `match` must pass `validate(pattern:)`.
    public init(limit: Int? = nil, since: Date? = nil, match: String? = nil) {
        self.limit = limit
        self.since = since
        self.match = match
    }

    /// True when the filter selects every episode.
    public var isEmpty: Bool { limit == nil && since == nil && match == nil }

    /// Checks that `match` is a valid regular expression.
    public static func validate(pattern: String) -> Bool {
        (try? NSRegularExpression(pattern: pattern)) != nil
    }

    /// The selected episodes, in the feed's own order.
    public func apply(to episodes: [Episode]) -> [Episode] {
        guard !isEmpty else { return episodes }
        let expression = match.flatMap { try? NSRegularExpression(pattern: $0) }
        var selected = episodes.enumerated().filter { _, episode in
            if let since, (episode.published ?? .distantPast) < since { return false }
            if let expression {
                guard let title = episode.title else { return false }
                let range = NSRange(title.startIndex..<title.endIndex, in: title)
                if expression.firstMatch(in: title, range: range) == nil { return false }
            }
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
