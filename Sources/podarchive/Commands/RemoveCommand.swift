// `podarchive remove <feed URL or folder>...`: unsubscribe, deleting nothing.
import ArchiverCore
import Foundation

struct RemoveCommand: CommandType {
    static let info = CommandInfo(
        name: "remove", about: "unsubscribe a show; its files stay",
        operands: "<feed URL or folder name>...", completion: .shows, repeats: true,
        discussion: """
            Unsubscribes each show, named by its feed URL or its folder's name. Nothing archived is deleted: the
            folder keeps every file and its index, and 'podarchive sync <feed>' subscribes it again. An unknown
            show is a usage error (exit 2).
            """,
        exitCodes: [.success, .usage, .archiveFailed],
        exitMeanings: [.success: "unsubscribed"])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.archiveDirectory.at(\.archiveDirectory)
    ]

    struct Arguments: CommandArguments {
        var shows: [String] = []
        var archiveDirectory: String? = nil
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        arguments.shows = try Operands.some(operands, "feed URL or folder name", command: info.name)
    }

    let context: CommandContext
    let arguments: Arguments

    /// Unsubscribes each show named by feed URL or folder name; no file is deleted. Exit 2 for an unknown show.
    func run() -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let outcome = context.configuredArchiver().commands.remove(arguments.shows, in: root)
        guard let report = context.report(of: outcome) else { return outcome.status }
        for result in report.removed {
            switch result {
            case .success(let removed):
                context.output.write("unsubscribed \(removed.feed); \(removed.folder)/ keeps every file\n")
            case .failure(let error):
                context.say(error)
            }
        }
        return outcome.status
    }
}
