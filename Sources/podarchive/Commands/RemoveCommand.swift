// `podarchive remove <feed URL or folder>...`: unsubscribe, deleting nothing.
import ArchiverCore
import Foundation

struct RemoveCommand: Sendable {
    let context: CommandContext
    let arguments: RemoveArguments

    /// Unsubscribes each show named by feed URL or folder name; no file is deleted. Exit 2 for an unknown show.
    func run() -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = context.configuredArchiver()
        var worst = ExitCode.success
        for text in arguments.shows {
            do {
                let removed = try archiver.unsubscribe(text, in: root)
                context.output.write("unsubscribed \(removed.feed); \(removed.folder)/ keeps every file\n")
            } catch {
                let code = context.report(error)
                worst.include(code)
            }
        }
        return worst
    }
}
