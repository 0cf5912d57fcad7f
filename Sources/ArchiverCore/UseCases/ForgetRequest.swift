// `podarchive forget SHOW EPISODE...` (and `--undo`) as one call: the show found by name, feed or title, then its
// episodes forgotten, or taken back.
import Foundation

/// What `forget` is asked.
public struct ForgetRequest: Sendable {
    /// The archive.
    public var root: URL
    /// The show: its folder name, feed URL or title, or a path.
    public var show: String
    /// The episodes, by title or file name.
    public var episodes: [String]
    /// Take them back instead (`--undo`).
    public var undo = false
    /// Keep their files (`--keep-files`).
    public var keepFiles = false
    /// How long to wait for the show's lock.
    public var lockWait: TimeInterval = 0
    /// Where a relative path given starts.
    public var currentDirectory: String

    /// A request to forget `episodes` of `show` in `root`.
    public init(root: URL, show: String, episodes: [String], currentDirectory: String) {
        self.root = root
        self.show = show
        self.episodes = episodes
        self.currentDirectory = currentDirectory
    }
}

/// What `forget` did: the episodes forgotten, or taken back, in the show's folder.
public struct ForgetReport: Sendable, Equatable {
    /// The show's folder name.
    public var show: String
    /// The episodes forgotten (none with `undo`).
    public var forgotten: [ForgottenEpisode] = []
    /// The episodes taken back (with `undo`).
    public var takenBack: [TakenBackEpisode] = []
    /// Whether the files of those forgotten were kept.
    public var keptFiles = false
}

extension ArchiveCommands {
    /// `podarchive forget`: forgets (or with `undo` takes back) the episodes of the show `request.show` names;
    /// `usage` for a show or an episode the archive does not hold.
    public func forget(_ request: ForgetRequest) async -> CommandOutcome<ForgetReport> {
        await .of(
            {
                let folder = try ShowFinder(
                    engine: archiver, root: request.root, currentDirectory: request.currentDirectory
                ).folderOrTitle(request.show)
                var report = ForgetReport(show: folder.lastPathComponent, keptFiles: request.keepFiles)
                if request.undo {
                    report.takenBack = try await archiver.takeBack(
                        request.episodes, inShow: folder, lockWait: request.lockWait)
                } else {
                    report.forgotten = try await archiver.forget(
                        request.episodes, inShow: folder, keepFiles: request.keepFiles, lockWait: request.lockWait)
                }
                return report
            }, status: { _ in .success })
    }
}
