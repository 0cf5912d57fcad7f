// The filters added after `--match` (issue 39): an upper date bound, a running time, episode numbers, and where
// `--match`/`--exclude` look. Each is a show's saved setting and a configuration file key, like `--exclude`.
import ArchiverCore
import Foundation

/// The options of one concern, each declared once; `SettingOptions.filters` binds them with the others.
enum FilterOptions {
    /// Bound where the other filters are (`sync`, `add`, `list`), in help order.
    static func bound<Root: CarriesShowSettings>() -> [BoundOption<Root>] {
        [until.setting(), matchIn.setting(), minDuration.setting(), maxDuration.setting(), episodes.setting()]
    }

    static let declared: [OptionDescriptor] = [
        until.descriptor, matchIn.descriptor, minDuration.descriptor, maxDuration.descriptor, episodes.descriptor,
    ]

    static let until: Option<String> = .value(
        "--until", "DATE", .ruled(ShowSettings.checkUntil),
        help: #"""
            only episodes published on or before <DATE> (2025-01-31, that whole day included, or RFC 3339); a saved
            setting

            With `--since`, a window: `--since 2020-01-01 --until 2020-12-31` takes the episodes of 2020. An undated
            episode is kept (`--verbose` says so). The configuration file may set it (`until = 2024-12-31`).
            """#, saved: .show(.until), config: true, describe: { $0.text(of: .until) },
        setting: { $0[.until] = .text($1) })
    static let matchIn: Option<String> = .value(
        "--match-in", "WHERE", .ruled(ShowSettings.checkMatchIn, keep: { $0.rawValue }),
        help: #"""
            where `--match` and `--exclude` look: `title` (the default), `description` (the show notes) or `both`;
            a saved setting

            With `both`, `--match` takes an episode whose title or description matches, and `--exclude` leaves out
            one whose title or description matches: `--match-in both --exclude '(?i)sponsored'`.
            """#,
        completion: .words(ShowSettings.matchInChoices), saved: .show(.matchIn), config: true,
        describe: { $0.text(of: .matchIn) }, setting: { $0[.matchIn] = .text($1) })
    static let minDuration: Option<String> = .value(
        "--min-duration", "DURATION", .ruled(ShowSettings.checkDuration),
        help: #"""
            only episodes at least <DURATION> long (`itunes:duration`): seconds, `45m`, `1h30m` or `1:30:00`; a saved
            setting

            An episode whose feed gives no duration is kept (`--verbose` says so): `--min-duration 5m` leaves out
            trailers and teasers.
            """#, saved: .show(.minDuration), config: true, describe: { $0.text(of: .minDuration) },
        setting: { $0[.minDuration] = .text($1) })
    static let maxDuration: Option<String> = .value(
        "--max-duration", "DURATION", .ruled(ShowSettings.checkDuration),
        help: #"""
            only episodes at most <DURATION> long (`itunes:duration`), written as for `--min-duration`; a saved
            setting

            An episode whose feed gives no duration is kept (`--verbose` says so).
            """#, saved: .show(.maxDuration), config: true, describe: { $0.text(of: .maxDuration) },
        setting: { $0[.maxDuration] = .text($1) })
    static let episodes: Option<String> = .value(
        "--episodes", "RANGE", .ruled(ShowSettings.checkEpisodes),
        help: #"""
            only episodes of these numbers (`itunes:episode`, else `podcast:episode`): `1-10`, `15`, `20-` (20 and
            after), or several separated by commas (`1-5,8`); a saved setting

            An episode whose feed gives no number is kept (`--verbose` says so).
            """#, saved: .show(.episodes), config: true, describe: { $0.text(of: .episodes) },
        setting: { $0[.episodes] = .text($1) })
}

extension ValueParser where Value == String {
    /// A filter's value, read with its rule and kept as written (`keep` writes it back otherwise).
    static func ruled<Checked>(
        _ check: @escaping @Sendable (String) throws(SettingProblem) -> Checked,
        keep: @escaping @Sendable (Checked) -> String = { _ in "" }
    ) -> ValueParser {
        ValueParser { text throws(ValueProblem) in
            let value = try RuleReader(check: check).read(text)
            let kept = keep(value)
            return kept.isEmpty ? text : kept
        }
    }
}
