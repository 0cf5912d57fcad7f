// `forget` and `forget --undo` through the archiver: the forgetter opens shows with the archiver's own folders, so
// a journal it folds is said with every other fold of the command (see `Archiver.journalFolds`).
import Foundation

extension Archiver {
    /// Forgets the episodes `names` (each a title, GUID or file name) of the show in `folder` for good (see
    /// `EpisodeForgetter.forget`).
    public func forget(_ names: [String], inShow folder: URL, keepFiles: Bool, lockWait: TimeInterval = 0)
        async throws -> [ForgottenEpisode]
    {
        try await EpisodeForgetter(folders: parts.folders, clock: parts.clock, hasher: parts.placer.hasher).forget(
            names, inShow: folder, keepFiles: keepFiles, lockWait: lockWait)
    }

    /// Takes back the forgotten episodes `names` of the show in `folder` (see `EpisodeForgetter.takeBack`).
    public func takeBack(_ names: [String], inShow folder: URL, lockWait: TimeInterval = 0) async throws
        -> [TakenBackEpisode]
    {
        try await EpisodeForgetter(folders: parts.folders, clock: parts.clock, hasher: parts.placer.hasher).takeBack(
            names, inShow: folder, lockWait: lockWait)
    }
}
