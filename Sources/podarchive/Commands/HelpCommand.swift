// `podarchive help [command]`: the general help, or a command's page.

struct HelpCommand: CommandType {
    static let info = CommandInfo(
        name: "help", about: "show help for a command", operands: "[command]",
        readsConfiguration: false,
        discussion: "Shows the general help, or the help of a command: its usage, what it does, its options and "
            + "its exit codes. 'podarchive <command> --help' shows the same page.",
        exitCodes: [.success, .usage],
        exitMeanings: [.success: "the page printed"])

    static let options: [BoundOption<Arguments>] = [OutputOptions.man.at(\.man)]

    /// What `--man` does, in completion menus.
    static var manSummary: String { OutputOptions.man.descriptor.summary }

    struct Arguments: CommandArguments {
        /// The command whose help is shown; the general help when nil.
        var topic: String? = nil
        /// The whole manual page instead (`--man`).
        var man = false
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        arguments.topic = try Operands.atMostOne(operands, "command", command: info.name)
    }

    let context: CommandContext
    let arguments: Arguments

    /// The page asked for; a name no command has is a usage error (exit 2).
    func run() -> ExitCode {
        if arguments.man {
            context.output.write(context.manual.page())
            return .success
        }
        guard let page = context.manual.help(arguments.topic) else {
            let topic = arguments.topic ?? ""
            context.errors.write(
                "podarchive: no help for '\(topic)'" + Suggestion.text(for: topic, among: context.manual.names)
                    + "\nsee 'podarchive help'\n")
            return .usage
        }
        context.output.write(page + "\n")
        return .success
    }
}
