// `podarchive site [DIR] [--base-url URL]`: the archive's web pages and podcast feeds; `sync --site` refreshes
// them after every sync.
import ArchiverCore
import Foundation

struct SiteCommand: CommandType {
    static let info = CommandInfo(
        name: "site", about: "write the archive's web pages and podcast feeds (browse, play, subscribe)",
        operands: "[DIR]", completion: .directory,
        discussion: """
            Writes the archive's web pages and podcast feeds from what it holds (no network): <DIR>`/index.html` (every
            show, with its cover, episodes, size and newest episode), <DIR>`/feeds.opml`, and in each show's folder
            `index.html` (its episodes newest first, each with a player of the archived file, its date, duration, size,
            show notes made safe, transcripts and chapters, and a filter box) and `feed.xml` (RSS 2.0 with iTunes tags:
            one item per archived episode with its original GUID and an enclosure pointing at the archived file, so any
            podcast app can subscribe to the archive). The pages load nothing from elsewhere: open them as files, or
            serve them with any static server. Show notes go through an allow-list: no script, frame, object, style,
            event handler or `javascript:`/`data:` link survives, and remote images become links.

            To publish, prefer `--out` <DIR>: the pages go there, with every archived file they name linked in (hard
            links where the file system allows, else symbolic links, else copies; a line says how many of each), and a
            server serves <DIR> without ever seeing the archive's `.podarchive` folders, whose records a reader has no
            use for. Serving the archive root itself needs a server that refuses dot-files (not `python3 -m
            http.server`). Pages are replaced whole; a show whose index has not changed is left as it is. sync `--site`
            does this after every sync, with the saved `--base-url` and `--out`.
            """,
        exitCodes: [.success, .usage, .archiveFailed],
        exitMeanings: [.success: "the pages and feeds written"])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.archiveDirectory.at(\.directory),
        AccessOptions.baseURL.at(\.baseURL),
        AccessOptions.out.at(\.out),
        AccessOptions.noOut.at(\.noOut),
    ]

    struct Arguments: CommandArguments {
        var directory: String? = nil
        var baseURL: String? = nil
        /// `--out DIR`: publish into a folder of its own (saved).
        var out: String? = nil
        /// `--no-out`: forget the saved `--out`.
        var noOut = false
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        if let folder = try Operands.atMostOne(operands, "folder", command: info.name) { arguments.directory = folder }
    }

    let context: CommandContext
    let arguments: Arguments

    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.directory) else { return .usage }
        var request = SiteRequest(root: root, settings: context.settings())
        request.baseURL = arguments.baseURL
        request.out = arguments.out.map { URL(fileURLWithPath: context.absolute($0)).standardizedFileURL.path }
        request.forgetOut = arguments.noOut
        let outcome = await context.configuredArchiver().commands.site(request)
        switch outcome.result {
        case .success(let written):
            Self.say(written.report.lines(root: root, quiet: false, saved: written.intoSavedOut), context: context)
        case .failure(let error):
            context.say(error)
        }
        return outcome.status
    }

    /// Writes `lines` (what writing the site did, `SiteReport.lines`), each to the stream it belongs on.
    static func say(_ lines: (output: String, errors: String), context: CommandContext) {
        if !lines.output.isEmpty { context.output.write(lines.output) }
        if !lines.errors.isEmpty { context.errors.write(lines.errors) }
    }
}
