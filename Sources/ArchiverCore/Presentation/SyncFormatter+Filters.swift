// What a sync says of the episodes its filters leave out (`--dry-run`) and of those kept because a filter could not
// be applied to them (`--verbose`).
import Foundation

extension SyncFormatter {
    /// `would leave out "Trailer" <https://…>: --max-duration` for each episode the plan's filter leaves out, then,
    /// with `verbose`, `kept "Pilot": it gives no duration for --min-duration` for each it keeps so. `option` names
    /// a setting as the option that sets it (the executable's declarations know how).
    public static func filterLines(
        _ plan: SyncPlan, verbose: Bool, option: (ShowSettings.Key) -> String
    ) -> String {
        var text = ""
        for leftOut in plan.leftOut {
            text +=
                "would leave out \(filteredTitle(leftOut.episode)) <\(leftOut.episode.url)>: \(option(leftOut.by))\n"
        }
        guard verbose else { return text }
        for kept in plan.keptWithout { text += self.kept(kept.episode, missing: kept.missing, option: option) + "\n" }
        return text
    }

    /// `kept "Pilot": it gives no duration for --min-duration` (`SyncEvent.keptWithout`).
    public static func kept(
        _ episode: Episode, missing: [ShowSettings.Key], option: (ShowSettings.Key) -> String
    ) -> String {
        let wants = missing.map { key -> String in
            let value =
                switch key {
                case .until, .since: "date"
                case .episodes: "episode number"
                default: "duration"
                }
            return "no \(value) for \(option(key))"
        }
        return "kept \(filteredTitle(episode)): it gives " + wants.joined(separator: ", ")
    }

    private static func filteredTitle(_ episode: Episode) -> String {
        episode.title.map { "\"\(oneLine($0))\"" } ?? "(untitled)"
    }
}
