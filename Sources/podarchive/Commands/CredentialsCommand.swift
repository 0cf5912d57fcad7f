// `podarchive credentials [--move]`: where each show's secrets are kept, and taking those an earlier podarchive
// kept inside the archive out of it.
import ArchiverCore
import Foundation

struct CredentialsCommand: CommandType {
    static let info = CommandInfo(
        name: "credentials",
        about: "say where each show's login, headers and feed token are kept; --move takes them out of the archive",
        operands: "",
        discussion: """
            Says, for each show with a secret (a login, `--header` values, a feed URL carrying a token), where it is
            kept: in the configuration folder (`$PODARCHIVE_CONFIG_DIR`, else `$XDG_CONFIG_HOME/podarchive`, else
            `~/.config/podarchive`), in `credentials/` (0600 files in a 0700 folder, named by the archive's ID and the
            show's), never in the archive. Archives written by an earlier podarchive keep them inside the archive, in
            its subscription records, where anyone it is served or copied to can read them; every sync then uses them
            and says so once. `--move` writes them to the configuration folder, then deletes them from the records and
            redacts the URLs in the shows' sidecars, history and download records. Every machine that syncs the archive
            then needs the same configuration folder. A show whose secrets the configuration folder lacks fails with a
            message naming it and the file expected (exit 3); the other shows still sync.
            """,
        exitCodes: [.success, .usage, .locked, .archiveFailed],
        exitMeanings: [.success: "every secret is where the lines say (moved, with --move)"])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.move.at(\.move),
        SourceOptions.archiveDirectory.at(\.archiveDirectory),
    ]

    struct Arguments: CommandArguments {
        var archiveDirectory: String? = nil
        var move = false
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        try Operands.none(operands, command: info.name)
    }

    let context: CommandContext
    let arguments: Arguments

    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let outcome = await context.configuredArchiver().commands.credentials(
            CredentialsRequest(root: root, move: arguments.move))
        guard let report = context.report(of: outcome) else { return outcome.status }
        if let moved = report.moved, let folder = report.movedTo {
            let shows = moved.moved.count == 1 ? "1 show's" : "\(moved.moved.count) shows'"
            context.output.write(
                "moved \(shows) credentials to \(folder.path); "
                    + "redacted \(moved.redactedFiles) file\(moved.redactedFiles == 1 ? "" : "s") in the archive\n")
        }
        for show in report.places {
            switch show.place {
            case .insideArchive:
                context.output.write(
                    "\(show.folder): inside the archive (podarchive credentials --move takes them out)\n")
            case .file(let path):
                context.output.write("\(show.folder): \(path)\n")
            case .missing(let reason):
                context.errors.write("podarchive: \(reason)\n")
            }
        }
        // A move killed part way: the show's files may still hold a secret until it is finished.
        for folder in report.unfinished {
            context.output.write(
                "\(folder): a credentials move is not finished (podarchive credentials --move, or the show's next "
                    + "sync, finishes it)\n")
        }
        return outcome.status
    }
}
