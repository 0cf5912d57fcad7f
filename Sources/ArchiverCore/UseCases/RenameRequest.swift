// `podarchive rename SHOW...` as one call: every show named found before any is touched, then each renamed in turn.
import Foundation

/// What `rename` is asked.
public struct RenameRequest: Sendable {
    /// The archive.
    public var root: URL
    /// The shows: folder names, feed URLs or titles, or paths.
    public var shows: [String]
    /// The template (`--name`, `--ascii-names`) given and the configuration file's, over each show's saved ones.
    public var settings: CommandSettings
    /// Say what would be renamed, and do nothing (`--dry-run`).
    public var dryRun = false
    /// How long to wait for each show's lock.
    public var lockWait: TimeInterval = 0

    /// A request to rename the files of `shows` in `root`.
    public init(root: URL, shows: [String], settings: CommandSettings) {
        self.root = root
        self.shows = shows
        self.settings = settings
    }
}

/// What `rename` did, show by show.
public struct RenameReport: Sendable, Equatable {
    /// One show's renamed episodes, in index order.
    public struct Show: Sendable, Equatable {
        /// The show's folder name.
        public var folder: String
        /// Its episodes whose files were renamed (or would be), in index order.
        public var episodes: [RenamedEpisode]
    }

    /// In the order asked.
    public var shows: [Show] = []
    /// Whether nothing was done (`--dry-run`).
    public var dryRun = false

    /// `episodesFailed` when a file kept its old name, else success.
    public var status: RunStatus {
        shows.contains { $0.episodes.contains { $0.failed != nil } } ? .episodesFailed : .success
    }
}

extension ArchiveCommands {
    /// `podarchive rename`: gives each show's files the names its template gives new ones; `usage` for a show the
    /// archive does not hold or a template that cannot be used.
    public func rename(_ request: RenameRequest) async -> CommandOutcome<RenameReport> {
        await .of(
            {
                let finder = ShowFinder(
                    engine: archiver, root: request.root, currentDirectory: request.settings.currentDirectory)
                let folders = try request.shows.map { try finder.folderOrTitle($0) }
                var report = RenameReport(dryRun: request.dryRun)
                for folder in folders {
                    let episodes = try await archiver.rename(
                        inShow: folder, settings: request.settings, dryRun: request.dryRun,
                        lockWait: request.lockWait)
                    report.shows.append(.init(folder: folder.lastPathComponent, episodes: episodes))
                }
                return report
            }, status: { $0.status })
    }
}
