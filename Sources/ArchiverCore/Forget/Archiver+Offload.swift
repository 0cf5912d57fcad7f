// `offload` and `offload --restore` through the archiver: each show opened to write with the archiver's own folders
// (its lock held, what a killed offload left pending finished first), then its episodes moved, deleted or brought
// back (see `EpisodeOffloader`).
import Foundation

extension Archiver {
    /// Offloads into `target` (or deletes) the episodes of the show in `folder` that `retention` lets go; with
    /// `dryRun`, only says which.
    /// - Throws: `ArchiveError.noArchive` for a folder with no index, `.locked` when a sync holds the show past
    ///   `lockWait`, `.storage` when the index cannot be written.
    func offload(
        inShow folder: URL, retention: Retention, target: RetentionTarget, dryRun: Bool, lockWait: TimeInterval
    ) async throws -> [OffloadedEpisode] {
        var show = try await openToWrite(folder, lockWait: lockWait)
        defer { show.lock.unlock() }
        return try EpisodeOffloader(folders: parts.folders, clock: parts.clock).apply(
            retention, target: target, to: &show, dryRun: dryRun)
    }

    /// Brings back the offloaded episodes `names` (every one when empty) of the show in `folder`.
    /// - Throws: as `offload`, and `ForgetError` for a name that names no offloaded episode, or several.
    func restoreOffloaded(_ names: [String], inShow folder: URL, dryRun: Bool, lockWait: TimeInterval) async throws
        -> [OffloadedEpisode]
    {
        var show = try await openToWrite(folder, lockWait: lockWait)
        defer { show.lock.unlock() }
        return try EpisodeOffloader(folders: parts.folders, clock: parts.clock).restore(
            names, in: &show, dryRun: dryRun)
    }

    /// Refuses a folder to offload into that is not a folder, or is inside the archive `root` (links followed).
    /// - Throws: `OffloadError`.
    func checkOffloadFolder(_ target: URL, root: URL) throws {
        try EpisodeOffloader(folders: parts.folders, clock: parts.clock).check(target, root: root)
    }

    /// The show's folder locked to write, its index read (and a pending offload finished); refused when it holds
    /// no index.
    private func openToWrite(_ folder: URL, lockWait: TimeInterval) async throws -> FeedFolder {
        guard ShowState(folder: folder).isShow(parts.files) else {
            throw ArchiveError.noArchive(at: folder, attributes: parts.folders.attributes)
        }
        return try await parts.folders.openToWrite(
            folder: folder, source: .local(path: folder.path), lockWait: lockWait, wants: SyncOptions().wants)
    }
}
