// `podarchive feeds [--json | --opml]`: the shows an archive follows, and what each holds.
import ArchiverCore
import Foundation

struct FeedsCommand: Sendable {
    let context: CommandContext
    let arguments: FeedsArguments

    /// Every subscription with what its show holds: lines, `--json` or `--opml`.
    func run() -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = context.configuredArchiver()
        let subscriptions = archiver.subscriptions(in: root)
        for damaged in subscriptions.damaged {
            context.errors.write("podarchive: subscription record \(damaged.path) is damaged (\(damaged.reason))\n")
        }
        for merge in subscriptions.merged {
            context.errors.write(
                "podarchive: <\(merge.removed.shownFeed)> and <\(merge.kept.shownFeed)> were one show, in "
                    + "\(merge.kept.folder)/: one subscription kept\n")
        }
        let shows = subscriptions.shows.map { archiver.status(of: $0, in: root) }
        if arguments.opml {
            var whole: [String: String] = [:]
            if arguments.includeSecrets {
                // Said on standard error, so the OPML on standard output stays a file of its own.
                context.errors.write(
                    "podarchive: the OPML holds each feed's login and token: keep it private (headers are not in it)\n")
                for show in subscriptions.shows {
                    guard let resolved = try? archiver.resolve(show, in: root) else {
                        context.errors.write(
                            "podarchive: \(show.folder): its secrets cannot be read; its URL is redacted\n")
                        continue
                    }
                    whole[show.id] = FeedsFormatter.withLogin(resolved.source.displayName, resolved.credentials)
                }
            }
            context.output.writeWithSecrets(FeedsFormatter.opml(shows, whole: whole))
        } else if arguments.json {
            context.output.write(FeedsFormatter.json(shows, root: root))
        } else {
            context.output.write(FeedsFormatter.table(shows, root: root))
        }
        return subscriptions.damaged.isEmpty ? .success : .archiveFailed
    }
}
