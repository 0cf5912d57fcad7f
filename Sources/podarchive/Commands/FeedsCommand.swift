// `podarchive feeds [--json | --opml]`: the shows an archive follows, and what each holds.
import ArchiverCore
import Foundation

struct FeedsCommand: CommandType {
    static let info = CommandInfo(
        name: "feeds", about: "list the subscriptions: what each show holds, its last sync",
        operands: "",
        discussion: """
            Lists every show <DIR> is subscribed to, in the order they were added: its title, episodes archived and
            their size, the newest episode's date, episodes failing or gone upstream, and when its last sync ended and
            how; then its feed URL and folder, and the URL it replaced when another URL of the show took it over (with
            the 'add --separate' that keeps both). A show whose folder is not named after its title alone (a second show
            of one title) is named with its folder, 'Title (in Title (2)/)', here and in sync's lines. Read from the
            archive alone (no network). A damaged subscription record is named on standard error (exit 5).

            With `--opml`, the list is OPML 2.0, which podcast apps and `sync --opml` read back. Its feed URLs are
            redacted (a token's value is REDACTED); a redacted URL read back by `sync --opml` or `add` is matched to the
            subscription it stands for, and otherwise named and skipped (exit 3), never fetched. `--include-secrets`
            writes each URL whole, with its login and token (not its headers), to move subscriptions to another app.
            """,
        exitCodes: [.success, .usage, .archiveFailed],
        exitMeanings: [
            .success: "the subscriptions listed",
            .archiveFailed: "a subscription record is damaged (named on standard error)",
        ])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.opmlOutput.at(\.opml),
        SourceOptions.includeSecrets.at(\.includeSecrets),
        SourceOptions.archiveDirectory.at(\.archiveDirectory),
        OutputOptions.json.at(\.json),
    ]

    struct Arguments: CommandArguments {
        var archiveDirectory: String? = nil
        var json = false
        var opml = false
        /// With `opml`: feed URLs whole, their secrets included.
        var includeSecrets = false
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        try Operands.none(operands, command: info.name)
    }

    let context: CommandContext
    let arguments: Arguments

    /// Every subscription with what its show holds: lines, `--json` or `--opml`.
    func run() -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let outcome = context.configuredArchiver().commands.feeds(in: root, includeSecrets: arguments.includeSecrets)
        guard let report = context.report(of: outcome) else { return outcome.status }
        for damaged in report.subscriptions.damaged {
            context.errors.write("podarchive: subscription record \(damaged.path) is damaged (\(damaged.reason))\n")
        }
        for merge in report.subscriptions.merged {
            context.errors.write(
                "podarchive: <\(merge.removed.shownFeed)> and <\(merge.kept.shownFeed)> were one show, in "
                    + "\(merge.kept.folder)/: one subscription kept\n")
        }
        if arguments.opml {
            if arguments.includeSecrets {
                // Said on standard error, so the OPML on standard output stays a file of its own.
                context.errors.write(
                    "podarchive: the OPML holds each feed's login and token: keep it private (headers are not in it)\n")
                for folder in report.unreadable {
                    context.errors.write("podarchive: \(folder): its secrets cannot be read; its URL is redacted\n")
                }
            }
            context.output.writeWithSecrets(FeedsFormatter.opml(report.shows, whole: report.whole))
        } else if arguments.json {
            context.output.write(FeedsFormatter.json(report.shows, root: root))
        } else {
            context.output.write(FeedsFormatter.table(report.shows, root: root) { $0.asOptions() })
        }
        return outcome.status
    }
}
