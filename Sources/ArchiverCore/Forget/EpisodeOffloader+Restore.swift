// `offload --restore`: offloaded episodes brought back from where the index says they went, intent first as every
// move (see `AwayFinisher`).
import Foundation

extension EpisodeOffloader {
    /// Brings back the offloaded episodes of the open `show` (those `names` name; every one when empty): records
    /// saved pending, the files copied back and checked, the copies there deleted, the records cleared. One whose
    /// folder is not reachable stays offloaded and says so; a deleted one cannot come back and says so.
    /// - Throws: `ForgetError` for a name that names no episode, or several; `ArchiveError.storage` when the index
    ///   cannot be written.
    func restore(_ names: [String], in show: inout FeedFolder, dryRun: Bool) throws -> [OffloadedEpisode] {
        let showName = ArchiveNames.showTitle(show.index.title, folder: show.folder)
        let away = show.index.episodes.filter { $0.away != nil }
        var chosen: [ArchiveIndex.Entry] = []
        for name in names {
            let entry = try EpisodeForgetter.one(name, among: away, show: showName, forgotten: false)
            if !chosen.contains(where: { $0.key == entry.key }) { chosen.append(entry) }
        }
        if names.isEmpty { chosen = away.filter { $0.away?.state == .offloaded } }
        var answers: [String: OffloadedEpisode] = [:]
        var restoring: [ArchiveIndex.Entry] = []
        for entry in chosen {
            guard var record = entry.away else { continue }
            var answer = OffloadedEpisode(
                title: entry.shownName, file: entry.file, deleted: false, into: record.into, bytes: 0,
                failed: nil)
            if record.state != .offloaded {
                answer.failed =
                    record.state == .deleted
                    ? "deleted by retention: nothing to bring back"
                    : "handed off by a hook: nothing to bring back"
            } else if let into = record.into, !reachable(into) {
                answer.failed = "\(into) is not reachable"
            } else if !dryRun {
                record.pending = .restore
                show.index.setAway(record, forKey: entry.key)
                restoring.append(entry)
            }
            answers[entry.key] = answer
        }
        if !restoring.isEmpty, let finisher = folders.away {
            try folders.indexes.save(&show)
            for (key, result) in try finisher.finish(&show) {
                switch result {
                case .done(let bytes): answers[key]?.bytes = bytes
                case .failed(let why): answers[key]?.failed = why
                }
            }
        }
        return chosen.compactMap { answers[$0.key] }
    }
}
