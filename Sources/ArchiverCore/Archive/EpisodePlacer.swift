// One checked download into place: its name (kept for a file fetched again, claimed for a new one, or the same
// bytes already in the folder), the record that it is complete, the rename that never overwrites, its dates.
import Foundation

/// Renames checked downloads into place; runs on the sync's own task, in feed order.
struct EpisodePlacer: Sendable {
    let mover: any FileMovement
    let hasher: any FileHashing
    let folders: FeedFolders
    let now: @Sendable () -> Date
    /// Called at each `FaultPoint` (the crash tests).
    let faults: (@Sendable (FaultPoint) -> Void)?

    /// Records the checked download as complete, renames it into place (never over another file) and dates it.
    func place(
        _ result: DownloadResult, item: Archiver.WorkItem, files partial: EpisodeFetcher.PartialFiles,
        context: Archiver.FeedContext,
        names: inout NameAllocator
    ) throws -> ArchiveIndex.Entry {
        let files = folders.files
        let episode = item.episode
        let feedTitle = context.index.title ?? context.folder.lastPathComponent
        var name: String
        if case .missing(let entry) = item {
            // A file fetched again goes back under its old name.
            names.release(entry.file)
            name =
                names.claim(exactly: entry.file)
                ? entry.file : names.claim(for: episode, template: context.names, feedTitle: feedTitle)
        } else {
            // The same bytes already in the folder, unindexed (an index rebuilt): that file is this episode.
            if let existing = folders.unindexedFile(for: episode, in: context, template: context.names),
                let hashed = try? hasher.sha256(ofFileAtPath: context.folder.appendingPathComponent(existing).path),
                hashed.size == result.fileSize, hashed.digest == result.sha256
            {
                try? files.removeItem(at: partial.body)
                folders.setDates(of: context.folder.appendingPathComponent(existing), to: episode.published)
                return ArchiveIndex.Entry(
                    archiving: episode, file: existing, size: hashed.size, sha256: hashed.digest, at: now())
            }
            name = names.claim(for: episode, template: context.names, feedTitle: feedTitle)
        }
        if let slash = name.lastIndex(of: "/") {
            let subfolder = context.folder.appendingPathComponent(String(name[..<slash]), isDirectory: true)
            // A file where the template wants a folder is this episode's problem, not the archive's: it fails
            // (and is tried again next run) while the others go on. Other errors (a full disk) stop the run.
            var ancestor = subfolder
            while ancestor.path.count > context.folder.path.count {
                if files.fileExists(atPath: ancestor.path),
                    (try? files.contentsOfDirectory(atPath: ancestor.path)) == nil
                {
                    names.release(name)
                    throw EpisodeFailure.storage("\(ancestor.path) is a file, where the name template wants a folder")
                }
                ancestor.deleteLastPathComponent()
            }
            try folders.createFolder(subfolder)
        }
        var record: PartialRecord = folders.loadRecord(partial.record) ?? PartialRecord(url: episode.url)
        record.completeSize = result.fileSize
        record.sha256 = result.sha256
        for _ in 0..<100 {
            record.target = name
            try folders.saveRecord(record, to: partial.record)
            faults?(.beforeRename)
            let destination = context.folder.appendingPathComponent(name, isDirectory: false)
            do {
                try mover.moveItem(at: partial.body, to: destination)
                faults?(.afterRename)
                folders.setDates(of: destination, to: episode.published)
                folders.setOrigin(of: destination, to: episode.url)
                return ArchiveIndex.Entry(
                    archiving: episode, file: name, size: result.fileSize, sha256: result.sha256, at: now())
            } catch {
                // Taken meanwhile by something else: never overwrite it, take the next name.
                guard files.fileExists(atPath: destination.path) else {
                    throw Archiver.storageError(error, path: destination.path)
                }
                name = names.claim(for: episode, template: context.names, feedTitle: feedTitle)
            }
        }
        throw EpisodeFailure.storage("no free name for \(name) in \(context.folder.path)")
    }
}
