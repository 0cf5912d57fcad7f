// Forgetting finished under the show's lock: what `forget` recorded as pending (see `ForgottenEpisodes`) is done by
// `forget` itself, and by whichever command next takes the lock when a forget was killed before it was done, so a
// forget killed at any point after its record converges to the forgotten state.
import Foundation

extension FeedFolders {
    /// Finishes every pending forget of `show` (its lock held): the episodes' entries (and failures) leave the index
    /// (saved, folding the journal, see `IndexStore.save`), then their files are deleted, but never one the index
    /// still names (another episode may have been given the name since), then the record is settled. Idempotent.
    /// - Returns: the files deleted, by episode key.
    /// - Throws: `ArchiveError.storage` when the index or the record cannot be written; deletions that fail stay
    ///   pending, for the next command that takes the lock.
    @discardableResult
    func finishForgetting(_ show: inout FeedFolder) throws -> [String: [String]] {
        var record = ForgottenEpisodes.load(show.state.forgotten, files: files)
        let pending = record.pending
        guard !pending.isEmpty else { return [:] }
        let keys = Set(pending.map(\.entry.key))
        if show.index.episodes.contains(where: { keys.contains($0.key) })
            || show.index.failures.contains(where: { keys.contains($0.key) })
        {
            // Built anew rather than grown a method of its own: `ArchiveIndex` is held to its size.
            var index = ArchiveIndex(
                feed: show.index.feed, title: show.index.title,
                episodes: show.index.episodes.filter { !keys.contains($0.key) },
                failures: show.index.failures.filter { !keys.contains($0.key) })
            index.version = show.index.version
            index.author = show.index.author
            show.index = index
            try indexes.save(&show)
        }
        let named = Set(show.index.episodes.flatMap(ForgottenEpisodes.files(of:)))
        var deleted: [String: [String]] = [:]
        for (position, forgotten) in record.episodes.enumerated() {
            guard let names = forgotten.pending else { continue }
            var left: [String] = []
            for name in names where !named.contains(name) {
                // The record is a file others may write (a shared archive): only a file (or a link, removed
                // itself) inside the folder and outside its state folder is ever deleted, never a folder.
                guard let url = FolderContents.removable(name, in: show.folder, attributes: attributes) else {
                    continue
                }
                if (try? files.removeItem(at: url)) != nil {
                    deleted[forgotten.entry.key, default: []].append(name)
                } else {
                    left.append(name)
                }
            }
            record.episodes[position].pending = left.isEmpty ? nil : left
        }
        try show.state.forgotten.save(record, records.writer)
        return deleted
    }
}
