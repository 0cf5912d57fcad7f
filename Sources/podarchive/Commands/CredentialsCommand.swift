// `podarchive credentials [--move]`: where each show's secrets are kept, and taking those an earlier podarchive
// kept inside the archive out of it.
import ArchiverCore
import Foundation

struct CredentialsCommand: Sendable {
    let context: CommandContext
    let arguments: CredentialsArguments

    func run() async -> ExitCode {
        guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = context.configuredArchiver()
        if arguments.move {
            guard let configuration = context.configuration else {
                context.errors.write(
                    "podarchive: no configuration folder to move the credentials to: set PODARCHIVE_CONFIG_DIR, "
                        + "XDG_CONFIG_HOME or HOME\n")
                return .archiveFailed
            }
            do {
                let moved = try await archiver.moveCredentials(in: root)
                let shows = moved.moved.count == 1 ? "1 show's" : "\(moved.moved.count) shows'"
                context.output.write(
                    "moved \(shows) credentials to \(configuration.credentials.path); "
                        + "redacted \(moved.redactedFiles) file\(moved.redactedFiles == 1 ? "" : "s") in the archive\n")
            } catch {
                return context.report(error)
            }
        }
        var worst = ExitCode.success
        for show in archiver.subscriptions(in: root).shows
        where show.holdsSecrets || show.hasCredentials || show.secretFeed == true {
            switch archiver.secretsPlace(of: show, in: root) {
            case .insideArchive:
                context.output.write(
                    "\(show.folder): inside the archive (podarchive credentials --move takes them out)\n")
            case .file(let path):
                context.output.write("\(show.folder): \(path)\n")
            case .missing(let reason):
                context.errors.write("podarchive: \(reason)\n")
                worst = .feedFailed
            }
        }
        // A move killed part way: the show's files may still hold a secret until it is finished.
        for folder in archiver.pendingMoves(in: root) {
            context.output.write(
                "\(folder): a credentials move is not finished (podarchive credentials --move, or the show's next "
                    + "sync, finishes it)\n")
        }
        return worst
    }
}
