// `podarchive offload <show>... (--keep-last N | --keep-days D | --before DATE) (--into DIR | --delete)`, and
// `offload --restore <show>...`: retention without loss.
import ArchiverCore
import Foundation

struct OffloadCommand: CommandType {
    static let info = CommandInfo(
        name: "offload",
        about: "keep a rolling window: older episodes moved to another folder (or deleted), never fetched again",
        operands: "<show>...", completion: .shows,
        repeats: true,
        discussion: """
            Keeps a rolling window of each show in the archive. The show is named by its folder's name, its title or
            its feed URL. Which episodes go: all but the newest (`--keep-last`), those older than a number of days
            (`--keep-days`) or published before a date (`--before`); where they go: into another folder
            (`--into`: another disk, a mounted bucket), or nowhere (`--delete`, which must be said). Each episode
            goes with its companions and sidecar. The index keeps every one with where it went, so no later sync
            fetches it again and verify `--repair` never does; verify checks an offloaded file where its folder is
            reachable and says "offloaded" where it is not; list `--archived`, the site and export say it is
            offloaded or deleted rather than missing. `offload --restore` brings offloaded episodes back. The intent
            is written before any file moves, every copy is checked against the index's SHA-256 before the
            archive's file is deleted, and an offload killed part way is finished by the next command that takes
            the show's lock; a copy that fails (a full disk) leaves that episode, and those after it, where they
            were. `--dry-run` says what would go and changes nothing. An older podarchive refuses an archive with
            offloaded or deleted episodes (exit 5) rather than fetch them again.
            """,
        exitCodes: [.success, .episodesFailed, .usage, .locked, .archiveFailed],
        exitMeanings: [
            .success: "every episode that was to go went (or came back)",
            .episodesFailed: "some episodes could not go (or come back); their files stay where they were",
            .locked: "a sync holds a show (see --wait)",
        ])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.archiveDirectory.at(\.archiveDirectory),
        OffloadOptions.keepLast.at(\.keepLast),
        OffloadOptions.keepDays.at(\.keepDays),
        OffloadOptions.before.at(\.before),
        OffloadOptions.into.at(\.into),
        OffloadOptions.delete.at(\.delete),
        OffloadOptions.restore.at(\.restore),
        OutputOptions.dryRun.at(\.dryRun, help: "only say which episodes would go (or come back); nothing changes"),
        TransferOptions.wait.at(\.wait),
    ]

    struct Arguments: CommandArguments {
        /// Folder names, titles or feed URLs.
        var shows: [String] = []
        var keepLast: Int? = nil
        var keepDays: Int? = nil
        var before: Written<Date>? = nil
        var into: String? = nil
        var delete = false
        var restore = false
        var dryRun = false
        var archiveDirectory: String? = nil
        /// `--wait`: how long to wait for a sync that holds a show.
        var wait = TransferSettings().wait
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        guard !operands.isEmpty else { throw UsageError(message: "missing the shows to offload", command: info.name) }
        arguments.shows = operands
    }

    let context: CommandContext
    let arguments: Arguments

    /// Offloads (or deletes, or brings back) the episodes of each show. Exit 2 for a missing choice, a show the
    /// archive does not hold or a folder that cannot be used (nothing changed), 1 when some episodes could not
    /// go, 4 when a sync holds a show, 5 when the archive cannot be written.
    func run() async -> ExitCode {
        let arguments = arguments
        if !arguments.restore {
            guard arguments.keepLast != nil || arguments.keepDays != nil || arguments.before != nil else {
                return usage("say which episodes go: --keep-last N, --keep-days D or --before DATE")
            }
            guard arguments.into != nil || arguments.delete else {
                return usage("say where they go: --into DIR, or --delete to delete them")
            }
        }
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        var request = OffloadRequest(
            root: root, shows: arguments.shows, currentDirectory: context.environment.currentDirectory)
        (request.keepLast, request.keepDays, request.before) =
            (arguments.keepLast, arguments.keepDays, arguments.before?.value)
        request.into = arguments.into.map {
            URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: context.environment.currentDirectory))
        }
        (request.restore, request.dryRun, request.lockWait) = (arguments.restore, arguments.dryRun, arguments.wait)
        let outcome = await context.configuredArchiver().commands.offload(request)
        guard let report = context.report(of: outcome) else { return outcome.status }
        for line in report.lines { context.output.write(line) }
        return outcome.status
    }

    private func usage(_ message: String) -> ExitCode {
        context.usage(UsageError(message: message, command: Self.info.name))
    }
}
