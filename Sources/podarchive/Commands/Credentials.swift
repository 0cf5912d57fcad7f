// `podarchive credentials [--move]`: where each show's secrets are kept, and taking those an earlier podarchive
// kept inside the archive out of it.
import ArchiverCore
import Foundation

extension CommandLineTool {
    func credentials(_ arguments: CredentialsArguments) async -> ExitCode {
        guard let root = resolveRoot(arguments.archiveDirectory) else { return .usage }
        let archiver = configuredArchiver()
        if arguments.move {
            guard let configuration else {
                errors.write(
                    "podarchive: no configuration folder to move the credentials to: set PODARCHIVE_CONFIG_DIR, "
                        + "XDG_CONFIG_HOME or HOME\n")
                return .archiveFailed
            }
            do {
                let moved = try await archiver.moveCredentials(in: root)
                let shows = moved.moved.count == 1 ? "1 show's" : "\(moved.moved.count) shows'"
                output.write(
                    "moved \(shows) credentials to \(configuration.credentials.path); "
                        + "redacted \(moved.redactedFiles) file\(moved.redactedFiles == 1 ? "" : "s") in the archive\n")
            } catch {
                return report(error)
            }
        }
        var worst = ExitCode.success
        for show in archiver.subscriptions(in: root).shows
        where show.holdsSecrets || show.hasCredentials || show.secretFeed == true {
            switch archiver.secretsPlace(of: show, in: root) {
            case .insideArchive:
                output.write("\(show.folder): inside the archive (podarchive credentials --move takes them out)\n")
            case .file(let path):
                output.write("\(show.folder): \(path)\n")
            case .missing(let reason):
                errors.write("podarchive: \(reason)\n")
                worst = .feedFailed
            }
        }
        return worst
    }
}
