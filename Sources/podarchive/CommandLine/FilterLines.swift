// What a sync says of the episodes its filters leave out (`--dry-run`) and of those kept because a filter could not
// be applied to them (`--verbose`): each named with the option, which only the declarations know.
import ArchiverCore
import Foundation

/// The lines that say what each filter does to an episode.
enum FilterLines {
    /// `would leave out "Trailer" <https://…>: --max-duration` for each episode the plan's filter leaves out, then,
    /// with `verbose`, `kept "Pilot": it gives no duration for --min-duration` for each it keeps so.
    static func dryRun(_ plan: SyncPlan, verbose: Bool) -> String {
        var text = ""
        for leftOut in plan.leftOut {
            text += "would leave out \(title(leftOut.episode)) <\(leftOut.episode.url)>: \(option(leftOut.by))\n"
        }
        guard verbose else { return text }
        for kept in plan.keptWithout { text += self.kept(kept.episode, reason: kept.reason) + "\n" }
        return text
    }

    /// `kept "Pilot": it gives no duration for --min-duration`.
    static func kept(_ episode: Episode, reason: String) -> String {
        "kept \(title(episode)): \(reason)"
    }

    private static func title(_ episode: Episode) -> String {
        episode.title.map { "\"\(SyncFormatter.oneLine($0))\"" } ?? "(untitled)"
    }

    /// The option that sets `key` (`--max-duration` for `maxDuration`).
    static func option(_ key: ShowSettings.Key) -> String {
        OptionCatalog.showSettings.first { $0.showKey == key }?.name ?? key.spelled
    }
}
