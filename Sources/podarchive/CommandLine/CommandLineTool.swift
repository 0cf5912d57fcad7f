// Runs one command line: parse, then hand the arguments to their command (a type each, in Commands/) with what
// it needs; help, completions and the version are printed here.
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

    /// The tool on the live system, for `arguments`: one session for the feeds of the process, whichever archiver
    /// asks, which a command that fetches feeds brings up at once (see `fetchesFeeds`).
    static func live(for arguments: [String]) -> CommandLineTool {
        let feeds = FeedSession()
        if fetchesFeeds(arguments) { feeds.prepare() }
        let environment = ProcessEnvironment.live
        // The crash tests make a test build kill itself at a named point; the shipped binary has no such switch.
        #if PODARCHIVE_TEST_HOOKS
            let crashPoint = environment.variables["PODARCHIVE_TEST_CRASH"]
            let makeArchiver: @Sendable () -> Archiver = { Archiver.live(fetcher: feeds, crashingAt: crashPoint) }
        #else
            let makeArchiver: @Sendable () -> Archiver = { Archiver.live(fetcher: feeds) }
        #endif
        return CommandLineTool(
            environment: environment, output: StandardStream.output, errors: StandardStream.error,
            makeArchiver: makeArchiver, terminal: TerminalInfo.detect(environment))
    }

    /// Whether `arguments` name a command that fetches feeds (see `CommandInfo.fetches`): its network comes
    /// up as the process starts, on a thread of its own, while the options, the configuration file, the
    /// subscriptions and the show's state are read; URLSession's set-up (the session template, libcurl, OpenSSL's
    /// configuration) was otherwise on a one-show run's critical path. A command line that turns out to be wrong,
    /// or a run with nothing to fetch, costs that thread's work only.
    static func fetchesFeeds(_ arguments: [String]) -> Bool {
        guard let name = arguments.first, let command = Commands.type(named: name) else { return false }
        return command.info.fetches
    }

    /// What each command is given: this tool's outputs, environment, archiver factory, clock and terminal.
    var context: CommandContext {
        CommandContext(
            environment: environment, output: output, errors: errors, makeArchiver: makeArchiver, now: now,
            terminal: terminal)
    }

    func run(_ arguments: [String]) async -> ExitCode {
        var parsed = CommandLineParser.parse(arguments)
        var defaults = OptionDefaults.none
        // A command that reads the configuration file reads it once its command line is judged, so the command
        // line's mistakes are said before the file's.
        if case .success(let invocation) = parsed, invocation.readsConfiguration {
            do {
                let folder = ConfigurationFolder.resolve(
                    environment: environment.variables, currentDirectory: environment.currentDirectory)
                defaults = try OptionDefaults.load(folder, environment: environment.variables)
            } catch let refusal as UntrustedFile {
                // Not a mistake in the file: someone else could have written it (exit 5, as for credentials).
                return context.report(refusal)
            } catch {
                errors.write("podarchive: \(error.localizedDescription)\n")
                return .usage
            }
            parsed = CommandLineParser.parse(arguments, defaults: defaults)
        }
        switch parsed {
        case .failure(let usage):
            // One line saying what is wrong, and where the command's help is.
            return context.usage(usage)
        case .success(let invocation):
            var context = self.context
            context.defaults = defaults
            context.manual = ToolManual(
                help: HelpText.page(for:),
                completions: Completions.script(for:), page: { ManualPage.page }, names: Commands.names)
            let code = await invocation.run(context)
            // Whatever the command, a damaged journal it folded is said, and fails it (see `FoldsSaid`).
            for line in context.folds.lines(bySync: invocation.name == SyncCommand.info.name) {
                errors.write("podarchive: \(line)\n")
            }
            return context.folds.status(after: code)
        }
    }
}
