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
            entry = try placer.place(
                result, item: item, files: PartialFiles(key: item.episode.identity, stateFolder: context.stateFolder),
                context: context, names: &names)
        }
        context.index.record(entry)
        try folders.save(context.index, to: context.indexURL)
        forgetDownload(of: item.episode, in: context.stateFolder)
        return entry
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
