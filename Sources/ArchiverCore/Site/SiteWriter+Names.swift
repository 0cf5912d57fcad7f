// Archives made before the site kept its names: a show folder named like a file the site writes at the root
// (`index.html`, `feeds.opml`) is renamed to the next free name (`index.html (2)`), and its subscription follows;
// a show's files at names the site writes in its folder are moved (see `EpisodePlacer.freeSiteNames`). A sync does
// it for the show it opens, the site for every show, each under the show's lock.
import Foundation

extension SiteWriter {
    /// Before a sync opens the show of `record`, whose folder is named like a file the site writes at the root:
    /// the folder is renamed under its lock (waited for as a sync waits) and the record saved with the new name.
    /// A folder renamed by a run that stopped before saving the record is found again (its index is this feed's).
    /// - Returns: the record as it is now; as it was when the folder could not be renamed (said through `onEvent`).
    /// - Throws: `ArchiveError` when the lock cannot be had or the record cannot be saved.
    func freeSiteName(
        of record: Subscription, in root: URL, lockWait: TimeInterval, onEvent: (SyncEvent) -> Void
    ) async throws -> Subscription {
        let folder = ArchiveRoot(root).showFolder(record.folder)
        // Nothing is written through a state folder that is a link (opening the show refuses it).
        guard !stateFolderIsLink(folder) else { return record }
        if hasIndex(folder) {
            let lock = try await locks.acquire(folder: folder, wait: lockWait)
            defer { lock.unlock() }
            // Another run may have renamed it while this one waited.
            if hasIndex(folder) {
                let move = renameShowFolder(folder, record: record, in: root)
                onEvent(.siteName(move))
                var updated = record
                if move.failure == nil { updated.folder = move.to.lastPathComponent }
                return updated
            }
        }
        // Moved by a run that stopped before saving the record, or by another run meanwhile; else the show starts
        // afresh, under a name the site leaves free.
        guard let home = freeFolder(after: folder, holding: record.feed, in: root) else { return record }
        var updated = record
        updated.folder = home.lastPathComponent
        try store.save(updated, in: root)
        return updated
    }

    /// For the site: the show in `folder` (its index `index`) with its names freed, under its lock taken without
    /// waiting (a show being synced is freed by its sync).
    /// - Returns: the show's folder and index as they are now, or nil when it is left out (said in `report`).
    func freeSiteNames(of folder: URL, index: ArchiveIndex, in root: URL, report: inout SiteReport)
        -> (folder: URL, index: ArchiveIndex)?
    {
        let renamed = ArchiveLayout.isReservedAtRoot(folder.lastPathComponent)
        guard renamed || EpisodePlacer.holdsSiteNames(index), !stateFolderIsLink(folder) else { return (folder, index) }
        guard let lock = locks.tryAcquire(folder: folder) else {
            report.skipped.append((folder, "it is being synced, and some of its names are the site's"))
            return nil
        }
        defer { lock.unlock() }
        var home = folder
        if renamed {
            let record = store.all(in: root).shows.first { FileNamer.sanitize($0.folder) == folder.lastPathComponent }
            let move = renameShowFolder(folder, record: record, in: root)
            if let failure = move.failure {
                report.skipped.append(
                    (folder, "it could not be moved to \(move.to.lastPathComponent), out of the site's way: \(failure)")
                )
                return nil
            }
            report.moves.append(move)
            home = move.to
        }
        do {
            // Read with its journal, so that saving it folds the journal as every command does (see `IndexStore.save`).
            let state = ShowState(folder: home)
            guard let read = try indexes.readIndex(at: state.index) else { return nil }
            var show = FeedFolder(state: state, read: read, validators: nil, lock: lock)
            report.moves += try placer.freeSiteNames(in: &show)
            return (home, show.index)
        } catch {
            report.skipped.append((home, error.reasonText))
            return nil
        }
    }

    /// Renames the show folder `folder` to the first free name after it and saves `record` (its subscription,
    /// when it has one) with the new name; the show's lock is held. Renamed back when the record cannot be saved.
    private func renameShowFolder(_ folder: URL, record: Subscription?, in root: URL) -> SiteNameMove {
        guard let target = freeFolder(after: folder, holding: nil, in: root) else {
            return SiteNameMove(from: folder, to: folder, failure: "no free name after it")
        }
        var move = SiteNameMove(from: folder, to: target)
        do {
            try mover.moveItem(at: folder, to: target)
        } catch {
            move.failure = ArchiveError.describe(error)
            return move
        }
        guard var record else { return move }
        record.folder = target.lastPathComponent
        do {
            try store.save(record, in: root)
        } catch {
            move.failure = error.reasonText
            // Where it was, so that the record and the folder agree.
            try? mover.moveItem(at: target, to: folder)
        }
        return move
    }

    /// The first of `Name (2)`, `Name (3)`... after `folder` that is free, or (with `feed`) that holds that feed's
    /// show. Nil when a thousand are taken.
    private func freeFolder(after folder: URL, holding feed: String?, in root: URL) -> URL? {
        for counter in 2...1000 {
            let name = FileNamer.fileName(stem: folder.lastPathComponent, extension: nil, counter: counter)
            guard !ArchiveLayout.isReservedAtRoot(name) else { continue }
            let candidate = root.appendingPathComponent(name, isDirectory: true)
            guard files.fileExists(atPath: candidate.path) else { return candidate }
            if let feed, let index = try? indexes.loadIndex(at: ShowState(folder: candidate).index),
                URLSecrets.redacted(index.feed) == URLSecrets.redacted(feed)
            {
                return candidate
            }
        }
        return nil
    }

    private func stateFolderIsLink(_ folder: URL) -> Bool {
        attributes.isSymbolicLink(atPath: ShowState(folder: folder).stateFolder.path)
    }

    private func hasIndex(_ folder: URL) -> Bool {
        ShowState(folder: folder).isShow(files)
    }
}
