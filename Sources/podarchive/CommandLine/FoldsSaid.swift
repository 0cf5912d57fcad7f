// The damaged journals a command folded, said when it is done: every archiver a command makes is watched here, and
// `CommandLineTool.run` says each damaged record it folded away (one line on standard error naming the show's
// journal and the records) and makes the command exit 1 at least. One place for every command that writes an
// index: sync, add, forget, forget --undo, verify --repair, credentials --move, site.
import ArchiverCore
import Foundation

/// The fold records of the archivers one command made.
final class FoldsSaid: Sendable {
    private let watched = Locked<[JournalFolds]>([])

    /// Watches `folds` (an archiver's) until the command is done.
    func watch(_ folds: JournalFolds) {
        watched.withLock { list in
            if !list.contains(where: { $0 === folds }) { list.append(folds) }
        }
    }

    /// Every damaged journal folded by the archivers watched.
    var damages: [JournalDamage] { watched.current.flatMap(\.damages) }

    /// Says each fold on `errors` (`bySync`: the command was a sync, which reads the feed in full itself); the exit
    /// code `code`, or 1 when it was better and something was folded.
    func say(to errors: any TextOutput, bySync: Bool, after code: ExitCode) -> ExitCode {
        let damages = self.damages
        guard !damages.isEmpty else { return code }
        for damage in damages {
            errors.write("podarchive: \(IndexDamageFormatter.foldLine(damage, bySync: bySync))\n")
        }
        return code.worsened(by: .episodesFailed)
    }
}
