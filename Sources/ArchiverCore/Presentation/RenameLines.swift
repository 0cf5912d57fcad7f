// What `rename` says of each episode whose files it renamed (or would), and of each show.
import Foundation

extension RenameReport {
    /// A line for each episode, then one for each show.
    public var lines: [String] {
        var lines: [String] = []
        for show in shows {
            for episode in show.episodes { lines.append(line(episode, of: show.folder)) }
            lines.append(summary(of: show))
        }
        return lines
    }

    private func line(_ episode: RenamedEpisode, of show: String) -> String {
        let others =
            episode.others == 0 ? "" : " (and \(episode.others == 1 ? "1 file" : "\(episode.others) files") with it)"
        if let failed = episode.failed {
            return "kept a name of \"\(episode.title)\" in \(show)/: \(failed); run rename again once that is cleared\n"
        }
        let verb = dryRun ? "would rename" : "renamed"
        return "\(verb) \(show)/\(episode.from) to \(episode.to)\(others)\n"
    }

    private func summary(of show: Show) -> String {
        guard !show.episodes.isEmpty else { return "\(show.folder)/: every file already has its name\n" }
        let failed = show.episodes.filter { $0.failed != nil }.count
        let done = show.episodes.count - failed
        func episodes(_ count: Int) -> String { count == 1 ? "1 episode" : "\(count) episodes" }
        let kept = failed > 0 ? ", \(episodes(failed)) kept a name" : ""
        return "\(show.folder)/: \(dryRun ? "would rename" : "renamed") \(episodes(done))\(kept)\n"
    }
}
