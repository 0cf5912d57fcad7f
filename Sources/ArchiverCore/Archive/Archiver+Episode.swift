// One episode: resume what an earlier run left, try again what may succeed later, check the result, record it
// as complete, and only then rename it into place.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

extension Archiver {
    typealias Fetched = EpisodeFetcher.Fetched
    typealias FolderPaths = EpisodeFetcher.FolderPaths
    typealias PartialFiles = EpisodeFetcher.PartialFiles
    typealias ProgressHandler = EpisodeFetcher.ProgressHandler

    /// The half of archiving an episode that runs beside other episodes (see `EpisodeFetcher`).
    func fetch(
        _ item: WorkItem, in paths: FolderPaths, options: SyncOptions, progress: ProgressHandler? = nil
    ) async throws -> Fetched {
        try await fetcher.fetch(item.episode, in: paths, options: options, progress: progress)
    }

    /// Downloads, checks, places and records one episode; returns its index entry (already saved).
    /// - Throws: `EpisodeFailure` for this episode only; `ArchiveError` when the run must stop (disk full...).
    func archive(
        _ item: WorkItem, in context: inout FeedContext, names: inout NameAllocator, options: SyncOptions
    ) async throws -> ArchiveIndex.Entry {
        try complete(
            try await fetch(item, in: context.paths, options: options), item: item, in: &context, names: &names)
    }

    /// The serial half of archiving an episode, after `fetch`: rename the download into place (unless an earlier
    /// run already had), record it in the index, save the index, and drop the download record.
    func complete(
        _ fetched: Fetched, item: WorkItem, in context: inout FeedContext, names: inout NameAllocator
    ) throws -> ArchiveIndex.Entry {
        let entry: ArchiveIndex.Entry
        switch fetched {
        case .placed(let adopted):
            entry = adopted
        case .downloaded(let result):
            entry = try place(
                result, item: item, files: PartialFiles(key: item.episode.identity, stateFolder: context.stateFolder),
                context: context, names: &names)
        }
        context.index.record(entry)
        try folders.save(context.index, to: context.indexURL)
        forgetDownload(of: item.episode, in: context.stateFolder)
        return entry
    }

    // MARK: - Into place

    /// Records the checked download as complete, renames it into place (never over another file) and dates it.
    func place(
        _ result: DownloadResult, item: WorkItem, files partial: PartialFiles, context: FeedContext,
        names: inout NameAllocator
    ) throws -> ArchiveIndex.Entry {
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
                return entry(for: episode, file: existing, size: hashed.size, sha256: hashed.digest)
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
                return entry(for: episode, file: name, size: result.fileSize, sha256: result.sha256)
            } catch {
                // Taken meanwhile by something else: never overwrite it, take the next name.
                guard self.files.fileExists(atPath: destination.path) else {
                    throw Self.storageError(error, path: destination.path)
                }
                name = names.claim(for: episode, template: context.names, feedTitle: feedTitle)
            }
        }
        throw EpisodeFailure.storage("no free name for \(name) in \(context.folder.path)")
    }

    /// The freedesktop.org name for a file's source URL.
    public static let originAttribute = "user.xdg.origin.url"

    func entry(for episode: Episode, file: String, size: Int64, sha256: String) -> ArchiveIndex.Entry {
        ArchiveIndex.Entry(archiving: episode, file: file, size: size, sha256: sha256, at: now())
    }

    /// Drops the download record once the index lists the episode.
    func forgetDownload(of episode: Episode, in stateFolder: URL) {
        try? files.removeItem(at: PartialFiles(key: episode.identity, stateFolder: stateFolder).record)
    }

}
