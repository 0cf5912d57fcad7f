// What every command is given: where it writes, the process's environment, the archiver it builds on demand,
// the clock and the terminal; and the few things each derives from them the same way (the archive root, the
// configuration folder, absolute paths, an error's line and exit code).
import ArchiverCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

struct CommandContext: Sendable {
    let environment: ProcessEnvironment
    let output: any TextOutput
    let errors: any TextOutput
    /// Builds the archiver only when a command needs it (so `--help` never touches the network stack).
    let makeArchiver: @Sendable () -> Archiver
    /// The clock, for the seconds `sync --json` reports and the rates progress shows.
    let now: @Sendable () -> Date
    /// What standard output and error are connected to: progress is drawn only on a terminal.
    let terminal: TerminalInfo
    /// What the environment and the configuration file give the options the command line leaves out.
    var defaults = OptionDefaults.none
    /// What the archivers this command made folded (see `Archiver.journalFolds`), said once it is done.
    var folds = FoldsSaid()
    /// What the tool says of itself: its help and completion scripts, made from every command's declaration.
    var manual = ToolManual.none

    /// This context writing to `output` and `errors` instead, with no terminal (no live progress).
    func writing(to output: any TextOutput, errors: any TextOutput) -> CommandContext {
        CommandContext(
            environment: environment, output: output, errors: errors, makeArchiver: makeArchiver, now: now,
            terminal: .none, defaults: defaults, folds: folds, manual: manual)
    }

    /// The configuration folder the environment names (credentials, the configuration file).
    var configuration: ConfigurationFolder? {
        ConfigurationFolder.resolve(environment: environment.variables, currentDirectory: environment.currentDirectory)
    }

    /// The archiver, keeping credentials in the configuration folder; what it folds is said when the command ends.
    func configuredArchiver() -> Archiver {
        let archiver = makeArchiver().using(configuration: configuration)
        folds.watch(archiver.journalFolds)
        return archiver
    }

    /// The archive root, or nil once its problem is said.
    func resolveRoot(_ option: String?) -> URL? {
        switch archiveRoot(option) {
        case .success(let url): return url
        case .failure(let usage):
            errors.write("podarchive: \(usage.message)\n")
            return nil
        }
    }

    /// The archive root `option` names (`--to` or verify's DIR, else `$PODARCHIVE_DIR`, else the configuration
    /// file's `to`, as the parser chose), else `~/Podcasts`; relative paths start at the current directory.
    func archiveRoot(_ option: String?) -> Result<URL, UsageError> {
        let path: String
        if let option {
            path = absolute(option)
        } else if let home = environment.variables["HOME"], !home.isEmpty {
            path = home + "/Podcasts"
        } else {
            return .failure(
                UsageError(
                    message: "no archive folder: pass --to DIR, set PODARCHIVE_DIR or set to in the configuration file",
                    command: "sync"))
        }
        return .success(URL(fileURLWithPath: path, isDirectory: true).standardizedFileURL)
    }

    /// Says what went wrong in one line; the exit code it ends with, as ArchiverCore decides it (`RunStatus.of`):
    /// `interrupted` when the run was stopped (`cancelled`, said by `Interruption`).
    func report(_ error: Error, cancelled: Bool = false) -> ExitCode {
        if !cancelled { say(error) }
        return ExitCode.of(error, cancelled: cancelled)
    }

    /// The report of `outcome`, or nil once the error that stopped the command is said (nothing is, when the
    /// run was stopped: `Interruption` says so).
    func report<Report>(of outcome: CommandOutcome<Report>) -> Report? {
        switch outcome.result {
        case .success(let report): return report
        case .failure(let error):
            if outcome.status != .interrupted { say(error) }
            return nil
        }
    }

    /// Says what is wrong with the command line, and where the command's help is; the usage exit code.
    func usage(_ usage: UsageError) -> ExitCode {
        errors.write("podarchive: \(usage.message)\n")
        errors.write("see 'podarchive help\(usage.command.map { " " + $0 } ?? "")'\n")
        return .usage
    }

    /// Says what went wrong, in one line on standard error.
    func say(_ error: Error) {
        errors.write("podarchive: \(SettingsSaid.errorLine(error))\n")
    }

    /// `path` from the current directory, when it is relative.
    func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : environment.currentDirectory + "/" + path
    }

    /// The show settings the command is given (`given`, the command line's) and the configuration file's, for
    /// ArchiverCore to resolve with each show's saved ones (`CommandSettings`).
    func settings(given: ShowSettings = ShowSettings(), configured: ShowSettings = ShowSettings()) -> CommandSettings {
        CommandSettings(
            given: given, configured: configured, currentDirectory: environment.currentDirectory,
            home: environment.variables["HOME"])
    }
}

/// The pages the tool prints about itself, made from the registry of commands (`Commands`) by whoever holds it: a
/// command is given them, so none names the registry that names it.
struct ToolManual: Sendable {
    /// The help of a command by name, else the general help; nil for a name no command has.
    let help: @Sendable (String?) -> String?
    /// The completion script of a shell; nil for one it has none for.
    let completions: @Sendable (String) -> String?
    /// The whole manual page, in roff.
    var page: @Sendable () -> String = { "" }
    /// The commands' names, for suggestions.
    var names: [String] = []

    static let none = ToolManual(help: { _ in nil }, completions: { _ in nil })
}
