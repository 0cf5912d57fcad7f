// Runs one command line: parse, dispatch to a command, print, and return the exit code.
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct CommandLineTool: Sendable {
    let environment: ProcessEnvironment
    let output: any TextOutput
    let errors: any TextOutput
    /// Builds the archiver only when a command needs it (so `--help` never touches the network stack).
    let makeArchiver: @Sendable () -> Archiver

    static func live() -> CommandLineTool {
        CommandLineTool(
            environment: .live, output: StandardStream.output, errors: StandardStream.error,
            makeArchiver: {
                Archiver(
                    fetcher: FeedSession.make(), downloader: URLSessionDownloader(), now: { Date() })
            })
    }

    func run(_ arguments: [String]) async -> ExitCode {
        switch Arguments.parse(arguments) {
        case .failure(let usage):
            errors.write("podarchive: \(usage.message)\n")
            errors.write(
                usage.command.map { HelpText.text(for: $0).components(separatedBy: "\n\n")[0] } ?? HelpText.usage)
            errors.write("\nRun 'podarchive help\(usage.command.map { " " + $0 } ?? "")' for more.\n")
            return .usage
        case .success(.help(let topic)):
            output.write(HelpText.text(for: topic) + "\n")
            return .success
        case .success(.version):
            output.write("podarchive \(PodarchiveVersion.current)\n")
            return .success
        case .success(.list(let arguments)):
            return await list(arguments)
        case .success(.sync(let arguments)):
            return await sync(arguments)
        }
    }

    // MARK: - list

    private func list(_ arguments: ListArguments) async -> ExitCode {
        do {
            let source = try FeedSource(arguments.feed, currentDirectory: environment.currentDirectory)
            let feed = try await makeArchiver().list(source)
            output.write(arguments.json ? ListFormatter.json(feed) : ListFormatter.table(feed))
            return .success
        } catch {
            return report(error)
        }
    }

    // MARK: - sync

    private func sync(_ arguments: SyncArguments) async -> ExitCode {
        let root: URL
        switch archiveRoot(arguments.archiveDirectory) {
        case .success(let url): root = url
        case .failure(let usage):
            errors.write("podarchive: \(usage.message)\n")
            return .usage
        }
        do {
            let source = try FeedSource(arguments.feed, currentDirectory: environment.currentDirectory)
            let output = self.output
            let errors = self.errors
            let report = try await makeArchiver().sync(source, into: root) { event in
                switch event {
                case .feedRead:
                    break
                case .archived(_, let file, let bytes):
                    output.write("archived \(SyncFormatter.relative(file, to: root)) (\(SyncFormatter.size(bytes)))\n")
                case .failed(let episode, let failure):
                    errors.write("podarchive: \(SyncFormatter.failureLine(episode, failure))\n")
                }
            }
            output.write(SyncFormatter.summary(report) + "\n")
            return report.failed.isEmpty ? .success : .episodesFailed
        } catch {
            return report(error)
        }
    }

    /// `--to`, else `$PODARCHIVE_DIR`, else `~/Podcasts`; relative paths are taken from the current directory.
    func archiveRoot(_ option: String?) -> Result<URL, UsageError> {
        let variables = environment.variables
        let chosen = option ?? variables["PODARCHIVE_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        let path: String
        if let chosen {
            path = chosen.hasPrefix("/") ? chosen : environment.currentDirectory + "/" + chosen
        } else if let home = variables["HOME"], !home.isEmpty {
            path = home + "/Podcasts"
        } else {
            return .failure(
                UsageError(message: "no archive folder: pass --to DIR or set PODARCHIVE_DIR", command: "sync"))
        }
        return .success(URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL)
    }

    private func report(_ error: Error) -> ExitCode {
        errors.write("podarchive: \(SyncFormatter.oneLine(error.localizedDescription))\n")
        switch error {
        case is FeedError: return .feedFailed
        case is ArchiveError: return .archiveFailed
        default: return .archiveFailed
        }
    }
}
