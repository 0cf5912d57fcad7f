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
            let makeArchiver: @Sendable () -> Archiver = { liveArchiver(fetcher: feeds, crashingAt: crashPoint) }
        #else
            let makeArchiver: @Sendable () -> Archiver = { Archiver.live(fetcher: feeds) }
        #endif
        return CommandLineTool(
            environment: environment, output: StandardStream.output, errors: StandardStream.error,
            makeArchiver: makeArchiver, terminal: TerminalInfo.detect(environment))
    }

    /// Whether `arguments` name a command that fetches feeds (see `CommandDescriptor.fetches`): its network comes
    /// up as the process starts, on a thread of its own, while the options, the configuration file, the
    /// subscriptions and the show's state are read; URLSession's set-up (the session template, libcurl, OpenSSL's
    /// configuration) was otherwise on a one-show run's critical path. A command line that turns out to be wrong,
    /// or a run with nothing to fetch, costs that thread's work only.
    static func fetchesFeeds(_ arguments: [String]) -> Bool {
        guard let name = arguments.first.flatMap(CommandName.init(rawValue:)) else { return false }
        return CommandTable.descriptor(name).fetches
    }

    #if PODARCHIVE_TEST_HOOKS
        /// The live archiver, which kills the process at `point` when one is named, so the crash tests can prove
        /// that dying there loses nothing (`Archiver.injectingFaults` names, `index-write`, `fold-write`,
        /// `journal-append`, `record-write`). Test builds only; with no point it is `Archiver.live(fetcher:)`.
        static func liveArchiver(fetcher: FeedSession, crashingAt point: String?) -> Archiver {
            guard let point else { return Archiver.live(fetcher: fetcher) }
            let die: @Sendable () -> Void = { kill(getpid(), SIGKILL) }
            return Archiver.live(
                fetcher: fetcher,
                writer: DurableFileWriter(
                    beforeRename: { url in
                        guard url.lastPathComponent == ArchiveLayout.indexFile else { return }
                        let journal = IndexJournal.url(besideIndex: url)
                        // index-write: any whole write of the index; fold-write: one that folds a journal.
                        if point == "index-write"
                            || (point == "fold-write" && FileManager.default.fileExists(atPath: journal.path))
                        {
                            die()
                        }
                    },
                    midWrite: { url, data in
                        if point == "journal-append", url.lastPathComponent == ArchiveLayout.journalFile { die() }
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

    /// What each command is given: this tool's outputs, environment, archiver factory, clock and terminal.
    var context: CommandContext {
        CommandContext(
            environment: environment, output: output, errors: errors, makeArchiver: makeArchiver, now: now,
            terminal: terminal)
    }

    func run(_ arguments: [String]) async -> ExitCode {
        if arguments == ManualPage.arguments {
            output.write(ManualPage.page)
            return .success
        }
        var parsed = Arguments.parse(arguments)
        var defaults = OptionDefaults.none
        // A command that takes options reads the configuration file (help, completions and the version do not);
        // the command line is judged first, so its mistakes are said before the file's.
        if case .success(let command) = parsed, command.readsDefaults {
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
            parsed = Arguments.parse(arguments, defaults: defaults)
        }
        var context = self.context
        context.defaults = defaults
        let code = await run(parsed, in: context)
        // Whatever the command, a damaged journal it folded is said, and fails it (see `FoldsSaid`).
        var bySync = false
        if case .success(.sync) = parsed { bySync = true }
        return context.folds.say(to: errors, bySync: bySync, after: code)
    }

    /// Runs the command `parsed` names (or says what is wrong with the command line).
    private func run(_ parsed: Result<Command, UsageError>, in context: CommandContext) async -> ExitCode {
        switch parsed {
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
            return await ListCommand(context: context, arguments: arguments).run()
        case .success(.sync(let arguments)):
            return await SyncCommand(context: context, arguments: arguments).run()
        case .success(.verify(let arguments)):
            return await VerifyCommand(context: context, arguments: arguments).run()
        case .success(.add(let arguments)):
            return await AddCommand(context: context, arguments: arguments).run()
        case .success(.remove(let arguments)):
            return RemoveCommand(context: context, arguments: arguments).run()
        case .success(.forget(let arguments)):
            return await ForgetCommand(context: context, arguments: arguments).run()
        case .success(.feeds(let arguments)):
            return FeedsCommand(context: context, arguments: arguments).run()
        case .success(.site(let arguments)):
            return SiteCommand(context: context, arguments: arguments).run()
        case .success(.search(let arguments)):
            return await SearchCommand(context: context, arguments: arguments).run()
        case .success(.export(let arguments)):
            return ExportCommand(context: context, arguments: arguments).run()
        case .success(.credentials(let arguments)):
            return await CredentialsCommand(context: context, arguments: arguments).run()
        case .success(.config(let arguments)):
            return ConfigCommand(context: context, arguments: arguments).run()
        }
    }
}
