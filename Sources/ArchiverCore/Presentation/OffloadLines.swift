// What `offload` says of each episode it moved, deleted or brought back, and of each show.
import Foundation

extension OffloadReport {
    /// A line for each episode, then one for each show.
    public var lines: [String] {
        var lines: [String] = []
        for show in shows {
            for episode in show.episodes { lines.append(line(episode, of: show.folder)) }
            lines.append(summary(of: show))
        }
        return lines
    }

    private func line(_ episode: OffloadedEpisode, of show: String) -> String {
        let named = "\"\(episode.title)\" of \(show)/"
        let place = episode.into ?? ""
        if let failed = episode.failed {
            return restore
                ? "could not bring back \(named): \(failed); it stays in \(place)\n"
                : "kept \(named) in the archive: \(failed)\n"
        }
        let size = episode.bytes > 0 ? " (\(SyncFormatter.size(episode.bytes)))" : ""
        if restore {
            return dryRun ? "would bring back \(named) from \(place)\n" : "brought back \(named) from \(place)\(size)\n"
        }
        if episode.deleted {
            return dryRun
                ? "would delete \(named)\n"
                : "deleted \(named)\(size): never fetched again (deleted on purpose, not brought back)\n"
        }
        return dryRun
            ? "would offload \(named) to \(place)\n"
            : "offloaded \(named) to \(place)\(size): never fetched again (podarchive offload --restore brings it "
                + "back)\n"
    }

    private func summary(of show: Show) -> String {
        let done = show.episodes.filter { $0.failed == nil }
        let failed = show.episodes.count - done.count
        let bytes = done.reduce(Int64(0)) { $0 + $1.bytes }
        func episodes(_ count: Int) -> String { count == 1 ? "1 episode" : "\(count) episodes" }
        if show.episodes.isEmpty {
            return restore
                ? "\(show.folder)/: nothing offloaded to bring back\n" : "\(show.folder)/: nothing to offload\n"
        }
        let verb =
            restore
            ? (dryRun ? "would bring back" : "brought back")
            : show.episodes.first?.deleted == true
                ? (dryRun ? "would delete" : "deleted") : (dryRun ? "would offload" : "offloaded")
        let size = bytes > 0 ? " (\(SyncFormatter.size(bytes)))" : ""
        let kept = failed > 0 ? ", \(episodes(failed)) left as \(failed == 1 ? "it was" : "they were")" : ""
        return "\(show.folder)/: \(verb) \(episodes(done.count))\(size)\(kept)\n"
    }
}
