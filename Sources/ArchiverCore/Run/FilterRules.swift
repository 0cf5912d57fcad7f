// What the values of the filters added after `--match` must be, said once (`--until`, `--min-duration`,
// `--max-duration`, `--episodes`, `--match-in`): the command line, the configuration file and a saved record read
// them with these.
import Foundation

/// Where `--match` and `--exclude` look: the title, the description (show notes), or either.
public enum MatchField: String, CaseIterable, Sendable {
    case title, description, both
}

/// Episode numbers to take (`--episodes 1-10,15,20-`): ranges, each closed or open at its end.
public struct EpisodeRange: Sendable, Equatable {
    /// The ranges, as read; an open end is `Int.max`.
    public var parts: [ClosedRange<Int>]

    /// Whether `number` is in one of the ranges.
    public func contains(_ number: Int) -> Bool { parts.contains { $0.contains(number) } }

    /// As the criteria say it: `1-10,15,20-`.
    public var text: String {
        parts.map { part in
            part.lowerBound == part.upperBound
                ? "\(part.lowerBound)" : "\(part.lowerBound)-\(part.upperBound == Int.max ? "" : "\(part.upperBound)")"
        }.joined(separator: ",")
    }
}

extension ShowSettings {
    /// `--until`: a date such as 2025-01-31 (that whole day included), or an RFC 3339 time; the first moment left
    /// out is returned.
    public static func checkUntil(_ text: String) throws(SettingProblem) -> Date {
        let date = try checkSince(text)
        let dayOnly = text.count == 10 && !text.contains("T")
        return dayOnly ? date.addingTimeInterval(86_400) : date.addingTimeInterval(0.001)
    }

    /// What a duration must be.
    public static let durationNeeds = "a duration such as 90 (seconds), 45m, 1h30m or 1:30:00"

    /// `--min-duration`, `--max-duration`: seconds (`90`), `45m`, `1h30m`, `2h`, `30s`, or `1:30:00` / `45:00`; not
    /// negative.
    public static func checkDuration(_ text: String) throws(SettingProblem) -> TimeInterval {
        guard let seconds = duration(text.trimmingCharacters(in: .whitespaces)), seconds.isFinite, seconds >= 0 else {
            throw .needs(durationNeeds)
        }
        return seconds
    }

    private static func duration(_ text: String) -> TimeInterval? {
        guard !text.isEmpty, !text.hasPrefix("-") else { return nil }
        if text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false).map { Int($0) }
            guard parts.count <= 3, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
            return TimeInterval(parts.reduce(0) { $0 * 60 + $1! })
        }
        if let seconds = Int(text) { return TimeInterval(seconds) }
        var total = 0
        var digits = ""
        var units = Set<Character>()
        for character in text {
            if character.isASCII, character.isNumber {
                digits.append(character)
                continue
            }
            let scale: Int
            switch character {
            case "h": scale = 3600
            case "m": scale = 60
            case "s": scale = 1
            default: return nil
            }
            guard let value = Int(digits), units.insert(character).inserted else { return nil }
            total += value * scale
            digits = ""
        }
        return digits.isEmpty ? TimeInterval(total) : nil
    }

    /// What a range of episode numbers must be.
    public static let episodesNeeds = "episode numbers such as 1-10, 15, 20- or 1-5,8"

    /// `--episodes`: numbers and ranges, comma-separated (`1-10`, `15`, `20-` for 20 and after).
    public static func checkEpisodes(_ text: String) throws(SettingProblem) -> EpisodeRange {
        var parts: [ClosedRange<Int>] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = item.trimmingCharacters(in: .whitespaces)
            let bounds = item.split(separator: "-", omittingEmptySubsequences: false).map(String.init)
            let lower = bounds.first.flatMap { Int($0) }
            switch bounds.count {
            case 1: if let lower, lower >= 0 { parts.append(lower...lower) } else { throw .needs(episodesNeeds) }
            case 2:
                let upper = bounds[1].isEmpty ? Int.max : Int(bounds[1])
                guard let lower, let upper, lower >= 0, lower <= upper else { throw .needs(episodesNeeds) }
                parts.append(lower...upper)
            default: throw .needs(episodesNeeds)
            }
        }
        return EpisodeRange(parts: parts)
    }

    /// What `--match-in` may be, as written.
    public static let matchInChoices = MatchField.allCases.map(\.rawValue)

    /// `--match-in`: title, description or both.
    public static func checkMatchIn(_ text: String) throws(SettingProblem) -> MatchField {
        guard let field = MatchField(rawValue: text.lowercased()) else { throw .needs("title, description or both") }
        return field
    }
}
