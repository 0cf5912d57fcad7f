// `podarchive rename <show>... [--name TEMPLATE] [--ascii-names] [--dry-run]`: the files a show already holds given
// the names its template gives new ones.
import ArchiverCore
import Foundation

struct RenameCommand: CommandType {
    static let info = CommandInfo(
        name: "rename",
        about: "give the files a show already holds the names its template (--name) gives new ones",
        operands: "<show>...", completion: .shows,
        repeats: true,
        discussion: """
            Renames the files each show already holds as its `--name` template (and `--ascii-names`) would name them
            now: the template saved with the show, else the configuration file's, else the title. A template given
            here is applied and saved with the show, so what the next sync fetches is named the same way. Each
            episode is named from the feed as the last sync read it (no network), or from what the index recorded
            of an episode removed upstream; its companions and sidecar follow it, dates and extended attributes
            kept. A name another file already has is never taken (the next one, `Title (2)`, is); a subfolder left
            empty is removed. The renames are written down before the first file moves, and a rename killed part
            way is finished by the next command that takes the show's lock. Episodes offloaded or deleted by
            retention keep their names. `--dry-run` says what would be renamed and changes nothing.
            """,
        exitCodes: [.success, .episodesFailed, .usage, .locked, .archiveFailed],
        exitMeanings: [
            .success: "every file has its name (or nothing needed one)",
            .episodesFailed: "some files kept their names (another file was at the new one); nothing is lost",
            .locked: "a sync holds a show (see --wait)",
        ])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.archiveDirectory.at(\.archiveDirectory),
        SettingOptions.name.setting(),
        SettingOptions.asciiNames.setting(),
        OutputOptions.dryRun.at(\.dryRun, help: "only say which files would be renamed; nothing changes"),
        TransferOptions.wait.at(\.wait),
    ]

    struct Arguments: CarriesShowSettings {
        /// Folder names, titles or feed URLs.
        var shows: [String] = []
        var dryRun = false
        var archiveDirectory: String? = nil
        /// `--wait`: how long to wait for a sync that holds a show.
        var wait = TransferSettings().wait
        /// `--name` and `--ascii-names` given.
        var given = ShowSettings()
        /// The configuration file's.
        var configured = ShowSettings()
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        guard !operands.isEmpty else { throw UsageError(message: "missing the shows to rename", command: info.name) }
        arguments.shows = operands
    }

    let context: CommandContext
    let arguments: Arguments

    /// Renames the files of each show. Exit 2 for a show the archive does not hold or a template that cannot be
    /// used (nothing changed), 1 when some files kept their names, 4 when a sync holds a show, 5 when the archive
    /// cannot be written.
    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        var request = RenameRequest(
            root: root, shows: arguments.shows,
            settings: context.settings(given: arguments.given, configured: arguments.configured))
        (request.dryRun, request.lockWait) = (arguments.dryRun, arguments.wait)
        let outcome = await context.configuredArchiver().commands.rename(request)
        guard let report = context.report(of: outcome) else { return outcome.status }
        for line in report.lines { context.output.write(line) }
        return outcome.status
    }
}
