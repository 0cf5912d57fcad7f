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
    /// The clock, for the seconds `sync --json` reports and the rates progress shows.
    var now: @Sendable () -> Date = { Date() }
    /// What standard output and error are connected to: progress is drawn only on a terminal.
    var terminal = TerminalInfo.none

    /// A tool writing to `output` and `errors`, both through `RedactingOutput`.
    init(
        environment: ProcessEnvironment, output: any TextOutput, errors: any TextOutput,
        makeArchiver: @escaping @Sendable () -> Archiver, now: @escaping @Sendable () -> Date = { Date() },
        terminal: TerminalInfo = .none
    ) {
        self.environment = environment
        self.output = RedactingOutput.wrap(output)
        self.errors = RedactingOutput.wrap(errors)
        self.makeArchiver = makeArchiver
        self.now = now
        self.terminal = terminal
    }

    static func live() -> CommandLineTool {
        let environment = ProcessEnvironment.live
        // The crash tests make a test build kill itself at a named point; the shipped binary has no such switch.
        #if PODARCHIVE_TEST_HOOKS
            let crashPoint = environment.variables["PODARCHIVE_TEST_CRASH"]
            let makeArchiver: @Sendable () -> Archiver = { liveArchiver(crashingAt: crashPoint) }
        #else
            let makeArchiver: @Sendable () -> Archiver = { Archiver.live() }
        #endif
        return CommandLineTool(
            environment: environment, output: StandardStream.output, errors: StandardStream.error,
            makeArchiver: makeArchiver, terminal: TerminalInfo.detect(environment))
    }

    #if PODARCHIVE_TEST_HOOKS
        /// The live archiver, which kills the process at `point` when one is named, so the crash tests can prove
        /// that dying there loses nothing (`Archiver.injectingFaults` names, `index-write`, `fold-write`,
        /// `journal-append`, `record-write`). Test builds only; with no point it is `Archiver.live()`.
        static func liveArchiver(crashingAt point: String?) -> Archiver {
            guard let point else { return Archiver.live() }
            let die: @Sendable () -> Void = { kill(getpid(), SIGKILL) }
            return Archiver.live(
                writer: DurableFileWriter(
                    beforeRename: { url in
                        guard url.lastPathComponent == ArchiveIndex.fileName else { return }
                        let journal = IndexJournal.url(besideIndex: url)
                        // index-write: any whole write of the index; fold-write: one that folds a journal.
                        if point == "index-write"
                            || (point == "fold-write" && FileManager.default.fileExists(atPath: journal.path))
                        {
                            die()
                        }
                    },
                    midWrite: { url, data in
                        if point == "journal-append", url.lastPathComponent == IndexJournal.fileName { die() }
                        // A download record that names where its body goes: the last write before the rename.
                        if point == "record-write", ArchiveNames.isDownloadRecord(url.lastPathComponent),
                            String(decoding: data, as: UTF8.self).contains("\"target\"")
                        {
                            die()
                        }
                    })
            ).injectingFaults { name in if name == point { die() } }
        }
    #endif

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
        case .success(.completions(let shell)):
            output.write(Completions.script(for: shell) ?? "")
            return .success
        case .success(.version):
            output.write("podarchive \(PodarchiveVersion.current)\n")
            return .success
        case .success(.list(let arguments)):
            return await list(arguments)
        case .success(.sync(let arguments)):
            return await sync(arguments)
        case .success(.verify(let arguments)):
            return await verify(arguments)
        case .success(.add(let arguments)):
            return await add(arguments)
        case .success(.remove(let arguments)):
            return remove(arguments)
        case .success(.feeds(let arguments)):
            return feeds(arguments)
        case .success(.site(let arguments)):
            return site(arguments)
        case .success(.credentials(let arguments)):
            return await credentials(arguments)
        }
    }

    /// The configuration folder the environment names (credentials, the configuration file).
    var configuration: ConfigurationFolder? {
        ConfigurationFolder.resolve(environment: environment.variables, currentDirectory: environment.currentDirectory)
    }

    /// The archiver, keeping credentials in the configuration folder.
    func configuredArchiver() -> Archiver {
        makeArchiver().using(configuration: configuration)
    }

    static func options(_ settings: TransferSettings) -> SyncOptions {
        SyncOptions(
            retry: RetryPolicy(retries: settings.retries), episodeTimeout: settings.timeout, lockWait: settings.wait,
            jobs: settings.jobs)
    }

    func resolveRoot(_ option: String?) -> URL? {
        switch archiveRoot(option) {
        case .success(let url): return url
        case .failure(let usage):
            errors.write("podarchive: \(usage.message)\n")
            return nil
        }
    }

    /// `--to` (or verify's DIR), else `$PODARCHIVE_DIR`, else `~/Podcasts`; relative paths start at the current
    /// directory.
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

    func report(_ error: Error) -> ExitCode {
        errors.write("podarchive: \(SyncFormatter.errorLine(error))\n")
        switch error {
        case FeedError.unsupportedScheme, FeedError.invalidSource, is NetrcError: return .usage
        case is FeedError: return .feedFailed
        // Without its credentials the show's feed cannot be fetched; the configuration folder is the archive's
        // other half: not writable, or not to be trusted, nothing can be kept.
        case CredentialError.missing: return .feedFailed
        case is CredentialError: return .archiveFailed
        case ArchiveError.locked: return .locked
        case ArchiveError.noArchive, ArchiveError.unknownShow: return .usage
        case ArchiveError.interrupted: return .interrupted
        default: return .archiveFailed
        }
    }
}
