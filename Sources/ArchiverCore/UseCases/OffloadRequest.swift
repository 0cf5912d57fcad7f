// `podarchive offload SHOW... (--keep-last N | --before DATE) (--into DIR | --delete)` and `offload --restore
// SHOW...` as one call: the folder checked before any show is touched, then each show in turn.
import Foundation

/// What `offload` is asked.
public struct OffloadRequest: Sendable {
    /// The archive.
    public var root: URL
    /// The shows: folder names, feed URLs or titles, or paths.
    public var shows: [String]
    /// Which episodes go (one of three; ignored with `restore`): all but the newest `keepLast`,
    public var keepLast: Int?
    /// or those published before `before`,
    public var before: Date?
    /// or those published more than `keepDays` days ago.
    public var keepDays: Int?
    /// The folder they go into (`--into`); nil: they are deleted (`--delete`).
    public var into: URL?
    /// Bring back what was offloaded instead (`--restore`).
    public var restore = false
    /// Say what would be done, and do nothing (`--dry-run`).
    public var dryRun = false
    /// How long to wait for each show's lock.
    public var lockWait: TimeInterval = 0
    /// Where a relative path given starts.
    public var currentDirectory: String

    /// A request to offload episodes of `shows` in `root`.
    public init(root: URL, shows: [String], currentDirectory: String) {
        self.root = root
        self.shows = shows
        self.currentDirectory = currentDirectory
    }
}

/// What `offload` did, show by show.
public struct OffloadReport: Sendable, Equatable {
    /// One show's episodes.
    public struct Show: Sendable, Equatable {
        /// The show's folder name.
        public var folder: String
        /// What became of each episode that went (or came back).
        public var episodes: [OffloadedEpisode]
    }

    /// In the order asked.
    public var shows: [Show] = []
    /// Whether it was a restore.
    public var restore = false
    /// Whether nothing was done (`--dry-run`).
    public var dryRun = false

    /// Episodes that did not go (or come back): their files stay where they were.
    public var failures: Int { shows.reduce(0) { $0 + $1.episodes.filter { $0.failed != nil }.count } }

    /// `episodesFailed` when an episode could not go or come back, else success.
    public var status: RunStatus { failures == 0 ? .success : .episodesFailed }
}

extension ArchiveCommands {
    /// `podarchive offload`: offloads into a folder (or deletes) the episodes of each show that the retention lets
    /// go, or brings them back; `usage` for a show the archive does not hold or a folder that cannot be used.
    public func offload(_ request: OffloadRequest) async -> CommandOutcome<OffloadReport> {
        await .of(
            {
                let finder = ShowFinder(
                    engine: archiver, root: request.root, currentDirectory: request.currentDirectory)
                let folders = try request.shows.map { try finder.folderOrTitle($0) }
                if !request.restore, let into = request.into {
                    try archiver.checkOffloadFolder(into, root: request.root)
                }
                let retention: Retention =
                    if let before = request.before { .before(before) } else if let days = request.keepDays {
                        .keepDays(days)
                    } else { .keepLast(request.keepLast ?? 0) }
                let target: RetentionTarget = request.into.map { .into($0) } ?? .delete
                var report = OffloadReport(restore: request.restore, dryRun: request.dryRun)
                for folder in folders {
                    let episodes =
                        request.restore
                        ? try await archiver.restoreOffloaded(
                            [], inShow: folder, dryRun: request.dryRun, lockWait: request.lockWait)
                        : try await archiver.offload(
                            inShow: folder, retention: retention, target: target,
                            dryRun: request.dryRun, lockWait: request.lockWait)
                    report.shows.append(.init(folder: folder.lastPathComponent, episodes: episodes))
                }
                return report
            }, status: { $0.status })
    }
}
