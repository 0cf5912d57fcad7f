// The damaged journals a command folded, said when it is done: every archiver a command makes is watched here, and
// `CommandLineTool.run` says each damaged record it folded away (one line on standard error naming the show's
// journal and the records) and makes the command exit 1 at least. One place for every command that writes an
// index: sync, add, forget, forget --undo, verify --repair, credentials --move, site.
import Foundation

/// The fold records of the archivers one command made.
public final class FoldsSaid: Sendable {
    /// Nothing watched yet.
    public init() {}

    private let watched = Locked<[JournalFolds]>([])

    /// Watches `folds` (an archiver's) until the command is done.
    public func watch(_ folds: JournalFolds) {
        watched.withLock { list in
            if !list.contains(where: { $0 === folds }) { list.append(folds) }
        }
    }

    /// Every damaged journal folded by the archivers watched.
    public var damages: [JournalDamage] { watched.current.flatMap(\.damages) }

    /// A line for each damaged journal folded (`bySync`: the command was a sync, which reads the feed in full
    /// itself), for standard error.
    public func lines(bySync: Bool) -> [String] {
        damages.map { IndexDamageFormatter.foldLine($0, bySync: bySync) }
    }

    /// The status a command that ended with `code` ends with: 1 at least when something was folded.
    public func status(after code: RunStatus) -> RunStatus {
        damages.isEmpty ? code : code.worsened(by: .episodesFailed)
    }
}
