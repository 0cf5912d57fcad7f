// A command is one type (`CommandType`): its name, what it is for, its operands, the options it takes bound to its
// arguments' fields, the exit codes it ends with, and `run`. `Commands.all` lists the types; the parser, the
// general and per-command help, the man page and the completions read them there, and nothing switches over
// commands.

/// How a shell should complete an option's value or a command's operands.
enum ValueCompletion: Equatable, Sendable {
    case none
    case file
    case directory
    /// A show of the archive root: one of its folders, wherever the shell is.
    case shows
    /// A show of the archive root, then that show's archived episodes by file name (`forget SHOW EPISODE...`).
    case showThenEpisodes
    /// One of these words (suggestions; any value is accepted where the parser allows).
    case words([String])
}

/// What a command is, as help, the man page and the completions show it.
struct CommandInfo: Sendable {
    /// `sync`.
    let name: String
    /// What it is for, in the general help and the man page: one text, whose first clause is its `summary`.
    let about: String
    /// Its operands in its usage line (`[<feed>...]`).
    let operands: String
    /// How a shell completes its operands.
    let completion: ValueCompletion
    /// Whether it takes more than one operand.
    let repeats: Bool
    /// Whether it fetches feeds: the network comes up as the process starts (see `CommandLineTool.fetchesFeeds`).
    let fetches: Bool
    /// Whether it reads the configuration file (every command but `help` and `completions`).
    let readsConfiguration: Bool
    /// What it does, in help's light markup (`HelpMarkup`): what `help <name>` says before its options, and the man
    /// page under the command's name. Written when asked for: `sync`'s names every show setting, which a run that
    /// only parses its command line never needs.
    var discussion: String { discussionText() }
    private let discussionText: @Sendable () -> String
    /// What `help <name>` says after its options (light markup): what the man page says in sections of its own.
    let afterOptions: String
    /// The exit codes it ends with, and what each means for it where that is not the general meaning.
    let exitCodes: [ExitCode]
    let exitMeanings: [ExitCode: String]
    /// Whether one run ends for several feeds (or pages) that may end differently: its help says which code wins.
    let severalFeeds: Bool

    init(
        name: String, about: String, operands: String, completion: ValueCompletion = .none, repeats: Bool = false,
        fetches: Bool = false, readsConfiguration: Bool = true,
        discussion: @autoclosure @escaping @Sendable () -> String = "", afterOptions: String = "",
        exitCodes: [ExitCode] = [.success], exitMeanings: [ExitCode: String] = [:], severalFeeds: Bool = false
    ) {
        self.name = name
        self.about = about
        self.operands = operands
        self.completion = completion
        self.repeats = repeats
        self.fetches = fetches
        self.readsConfiguration = readsConfiguration
        discussionText = discussion
        self.afterOptions = afterOptions
        self.exitCodes = exitCodes
        self.exitMeanings = exitMeanings
        self.severalFeeds = severalFeeds
    }

    /// A few words for completion menus: the first clause of `about` (as an option's summary is of its help).
    var summary: String { HelpMarkup(about).summary }

    /// Its line in the general help's usage block, after `podarchive`.
    var synopsis: String {
        [name, operands, readsConfiguration ? "[options]" : ""].filter { !$0.isEmpty }.joined(separator: " ")
    }
}

/// One command: what it is, the options it takes and what it does with its arguments.
protocol CommandType: Sendable {
    associatedtype Arguments: CommandArguments
    static var info: CommandInfo { get }
    /// The options it takes, in the order help lists them (`--help` is added to every command's).
    static var options: [BoundOption<Arguments>] { get }
    /// Puts the operands into the arguments, once the options are read; throws for a wrong count.
    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError)
    init(context: CommandContext, arguments: Arguments)
    func run() async -> ExitCode
}

extension CommandType {
    /// Every option it takes, `--help` last.
    static var accepted: [BoundOption<Arguments>] { options + [HelpOption.option.ignored()] }

    /// What help, the man page and the completions read of it.
    /// (Closures, not key paths, over `BoundOption<Arguments>`: a key path in this generic context is resolved
    /// at run time through a conformance lookup, which cost every start of the process milliseconds.)
    static var entry: CommandEntry { CommandEntry(info: info, options: accepted.map { $0.descriptor }) }
}

/// A command with its options, their types erased: what help, the man page and the completions read.
struct CommandEntry: Sendable {
    let info: CommandInfo
    let options: [OptionDescriptor]

    var name: String { info.name }
}

/// Every command, in the order the general help lists them.
enum Commands {
    static let all: [any CommandType.Type] = [
        SyncCommand.self, AddCommand.self, SearchCommand.self, RemoveCommand.self, ForgetCommand.self,
        OffloadCommand.self, RenameCommand.self,
        FeedsCommand.self, ListCommand.self, VerifyCommand.self, SiteCommand.self, ExportCommand.self,
        CredentialsCommand.self, ConfigCommand.self, CompletionsCommand.self, HelpCommand.self,
    ]

    static let entries: [CommandEntry] = all.map { $0.entry }

    /// The names, in help order (read from the commands' `info`, without building every command's options).
    static var names: [String] { all.map { $0.info.name } }

    static func entry(_ name: String) -> CommandEntry? { entries.first { $0.name == name } }

    static func type(named name: String) -> (any CommandType.Type)? { all.first { $0.info.name == name } }
}

/// `--help`, which every command takes.
enum HelpOption {
    static let option: Option<Bool> = .flag(
        "--help", short: "h",
        help: #"""
            show help
            """#)
}

extension Option {
    /// Taken by a command without filling any field (`--help`, which the parser sees by name).
    func ignored<Root>() -> BoundOption<Root> { BoundOption(descriptor: descriptor) { _, _ in } }
}
