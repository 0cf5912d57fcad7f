// `podarchive export --warc FILE [DIR] [--show SHOW...]`: the archive as one WARC 1.1 file, for the web archives;
// `podarchive export --library DIR`: a folder of tagged copies for players and media servers.
// On a terminal a progress line is redrawn in place (as sync's is) and cleared at the end; elsewhere only the
// summary is printed.
import ArchiverCore
import Foundation

struct ExportCommand: CommandType {
    static let info = CommandInfo(
        name: "export",
        about: "write the archive as a WARC 1.1 file (the format web archives take), or a library of tagged copies",
        operands: "[DIR]", completion: .directory,
        discussion: """
            Writes the archive (or the shows named with `--show`) as one WARC 1.1 file (ISO 28500), the format the
            Internet Archive and national libraries take: a `warcinfo` record, then for each archived episode,
            transcript, chapters and artwork file a `resource` record with the URL it was fetched from, when, its type,
            length and SHA-1 digests (base32, as the web archives index them), each episode's `.info.json` sidecar as a
            `metadata` record referring to it, and every kept revision of each feed. URLs are as the archive keeps them,
            logins and tokens redacted. The archive keeps no HTTP status or headers, so no `response` records are
            written.

            Memory stays small whatever the files' sizes: a file larger than a megabyte is read twice, in chunks, to
            hash it, then to copy it (a smaller one once). On a terminal a progress line is redrawn in place. A failure (a file that cannot be read, a full disk)
            leaves nothing under the export's name, and Ctrl-C stops it the same way. A file inside a show's folder is
            refused (exit 2): it could take an archived file's place.

            With `--library DIR` it writes a folder for players and media servers instead: tagged copies of the
            episodes, never the archive's own files (see `--library`). A library inside the archive is refused (exit 2).
            """,
        exitCodes: [.success, .usage, .archiveFailed],
        exitMeanings: [.success: "the WARC file or the library written"])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.archiveDirectory.at(\.directory),
        WARCOptions.warc.at(\.warc),
        WARCOptions.library.at(\.library),
        WARCOptions.shows.appending(\.shows),
    ]

    struct Arguments: CommandArguments {
        var warc = ""
        var library = ""
        var directory: String? = nil
        /// Only these shows (folder names or feed URLs); every show when empty.
        var shows: [String] = []
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        if let folder = try Operands.atMostOne(operands, "folder", command: info.name) { arguments.directory = folder }
        guard !arguments.warc.isEmpty || !arguments.library.isEmpty else {
            throw UsageError(
                message: "missing --warc FILE or --library DIR: the file or the folder to write", command: info.name)
        }
    }

    let context: CommandContext
    let arguments: Arguments

    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.directory) else { return .usage }
        if !arguments.library.isEmpty { return await library(root: root) }
        var request = ExportRequest(
            root: root, file: URL(fileURLWithPath: context.absolute(arguments.warc)).standardizedFileURL,
            date: context.now(), settings: context.settings())
        request.shows = arguments.shows
        let live = context.terminal.live
        var drawn = ""
        let outcome = await context.configuredArchiver().commands.export(request) { progress in
            guard live else { return }
            let line = progress.line
            // Redrawn only when what it says changes: a chunk of a large file moves it by a tenth of a percent.
            if line != drawn {
                drawn = line
                context.output.write(Printed.control("\r\u{1B}[2K") + line)
            }
        }
        switch outcome.result {
        case .success(let report):
            if live { context.output.write(Printed.control("\r\u{1B}[2K")) }
            context.output.write(report.summary(file: request.file) + "\n")
            if let line = report.withheldLine { context.errors.write(line) }
        case .failure(let error):
            if live, !drawn.isEmpty { context.output.write(Printed.control("\r\u{1B}[2K")) }
            context.say(error)
        }
        return outcome.status
    }

    /// `export --library DIR`: the plan said before the first byte, then what was written.
    private func library(root: URL) async -> ExitCode {
        var request = ExportRequest(
            root: root, file: URL(fileURLWithPath: context.absolute(arguments.library)).standardizedFileURL,
            date: context.now(), settings: context.settings())
        request.shows = arguments.shows
        let outcome = await context.configuredArchiver().commands.exportLibrary(request) { plan in
            context.output.write(plan.line + "\n")
        }
        switch outcome.result {
        case .success(let report):
            context.output.write(report.summary + "\n")
            for line in report.noteLines { context.errors.write(line + "\n") }
        case .failure(let error):
            context.say(error)
        }
        return outcome.status
    }
}
