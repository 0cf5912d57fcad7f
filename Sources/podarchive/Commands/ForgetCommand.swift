// `podarchive forget <show> <episode>... [--keep-files | --undo]`: forget episodes for good, or take them back.
import ArchiverCore
import Foundation

struct ForgetCommand: CommandType {
    static let info = CommandInfo(
        name: "forget",
        about: "forget episodes for good: their files deleted, never fetched again (--undo takes them back)",
        operands: "<show> <episode>...", completion: .showThenEpisodes,
        repeats: true,
        discussion: """
            Forgets episodes of a show for good. The show is named by its folder's name, its title or its feed URL; each
            episode by its title, its GUID or its file's name. Each episode's file, companions and sidecar are deleted
            (`--keep-files` keeps them) and its entry leaves the index for `<show>/.podarchive/forgotten.json`, so
            verify no longer looks for it, the site no longer lists it, list `--archived` no longer shows it, and no
            later sync fetches it again, even while the feed lists it. forget `--undo` takes episodes back: a kept file
            is in the index again at once, else the next sync fetches it, whatever the show's saved filter leaves out.
            Holds the show's lock as a sync does (`--wait`); a forget killed part way is finished by the next command
            that takes it to write (a plain verify changes nothing). A name that matches no episode, or several, is a
            usage error (exit 2) and nothing changes; an episode forgotten already is said to be (exit 0). An older
            podarchive does not know the record and fetches forgotten episodes again.
            """,
        exitCodes: [.success, .usage, .locked, .archiveFailed],
        exitMeanings: [
            .success: "the episodes forgotten (or taken back)", .locked: "a sync holds the show (see --wait)",
        ])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.archiveDirectory.at(\.archiveDirectory),
        TransferOptions.wait.at(\.wait),
        ForgetOptions.undo.at(\.undo),
        ForgetOptions.keepFiles.at(\.keepFiles),
    ]

    struct Arguments: CommandArguments {
        /// A folder name, title or feed URL.
        var show = ""
        /// Titles, GUIDs or file names.
        var episodes: [String] = []
        var undo = false
        var keepFiles = false
        var archiveDirectory: String? = nil
        /// `--wait`: how long to wait for a sync that holds the show.
        var wait = TransferSettings().wait
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        guard operands.count >= 2 else {
            let missing = operands.isEmpty ? "the show and the episodes" : "the episodes to forget"
            throw UsageError(message: "missing \(missing)", command: info.name)
        }
        arguments.show = operands[0]
        arguments.episodes = Array(operands.dropFirst())
    }

    let context: CommandContext
    let arguments: Arguments

    /// Forgets (or takes back) the episodes named, with the show's lock held. Exit 2 for an unknown or ambiguous
    /// show or episode (nothing changed), 4 when a sync holds the show, 5 when the archive cannot be written.
    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        var request = ForgetRequest(
            root: root, show: arguments.show, episodes: arguments.episodes,
            currentDirectory: context.environment.currentDirectory)
        (request.undo, request.keepFiles, request.lockWait) = (arguments.undo, arguments.keepFiles, arguments.wait)
        let outcome = await context.configuredArchiver().commands.forget(request)
        guard let report = context.report(of: outcome) else { return outcome.status }
        for line in report.lines { context.output.write(line) }
        return outcome.status
    }
}
