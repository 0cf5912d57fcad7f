// Argument parsing: a pure function from the argument list to the command to run with its arguments, or a usage
// error. Which options a command takes and the fields they fill are the command's (`CommandType.options`); how
// each value is read is the option's (`Option`). This file only applies them, the same way for every command.
import ArchiverCore
import Foundation

/// A command with its arguments, ready to run.
struct Invocation: Sendable {
    /// The command's name (`sync`).
    let name: String
    /// Whether it reads the configuration file (see `CommandInfo.readsConfiguration`).
    let readsConfiguration: Bool
    let run: @Sendable (CommandContext) async -> ExitCode
}

/// One command's command line, read: its arguments, or a request for its help.
enum Parsed<Value: Equatable>: Equatable {
    case help
    case run(Value)
}

enum CommandLineParser {
    /// Parses the arguments after the program name; `defaults` gives the options the arguments leave out (the
    /// environment's and the configuration file's values).
    static func parse(_ arguments: [String], defaults: OptionDefaults = .none) -> Result<Invocation, UsageError> {
        guard let first = arguments.first else {
            return .failure(UsageError(message: "missing command", command: nil))
        }
        switch first {
        case "--help", "-h": return .success(help(nil))
        case "--version", "-V", "version":
            return .success(
                Invocation(name: "version", readsConfiguration: false) { context in
                    context.output.write("podarchive \(PodarchiveVersion.current)\n")
                    return .success
                })
        default:
            guard let type = Commands.type(named: first) else {
                let kind = first.hasPrefix("-") ? "unknown option" : "unknown command"
                return .failure(
                    UsageError(
                        message: "\(kind) '\(first)'" + Suggestion.text(for: first, among: Commands.names),
                        command: nil))
            }
            return invocation(type, Array(arguments.dropFirst()), defaults: defaults)
        }
    }

    /// The invocation of `type` with `rest`: its help when `--help` is among them.
    private static func invocation<Command: CommandType>(
        _ type: Command.Type, _ rest: [String], defaults: OptionDefaults
    ) -> Result<Invocation, UsageError> {
        do {
            switch try parse(type, rest, defaults: defaults) {
            case .help: return .success(help(type.info.name))
            case .run(let arguments):
                return .success(
                    Invocation(name: type.info.name, readsConfiguration: type.info.readsConfiguration) { context in
                        await Command(context: context, arguments: arguments).run()
                    })
            }
        } catch {
            return .failure(error)
        }
    }

    /// `podarchive help [topic]`.
    private static func help(_ topic: String?) -> Invocation {
        let arguments = HelpCommand.Arguments(topic: topic)
        return Invocation(name: HelpCommand.info.name, readsConfiguration: false) { context in
            HelpCommand(context: context, arguments: arguments).run()
        }
    }

    /// One command's arguments after its name: the defaults first, each option's from its highest source, then
    /// the command line over them; the show settings the file gives are a layer of their own, under those saved
    /// with a show.
    static func parse<Command: CommandType>(
        _ type: Command.Type, _ rest: [String], defaults: OptionDefaults = .none
    ) throws(UsageError) -> Parsed<Command.Arguments> {
        let name = type.info.name
        let accepted = type.accepted
        let descriptors = accepted.map { $0.descriptor }
        let parsed = try ParsedOptions(rest, command: name, accepted: descriptors)
        if parsed.names.contains(HelpOption.option.descriptor.name) { return .help }
        try excluded(parsed, descriptors)
        var arguments = Command.Arguments()
        for option in accepted {
            guard let fallback = defaults.fallback(for: option.descriptor) else { continue }
            do {
                try (option.bindConfigured ?? option.bind)(&arguments, fallback.value)
            } catch {
                throw UsageError(message: "\(option.descriptor.key)\(error.text)", command: name)
            }
        }
        for (index, text) in parsed.given {
            do {
                try accepted[index].bind(&arguments, text)
            } catch {
                throw UsageError(message: "option '\(accepted[index].descriptor.name)'\(error.text)", command: name)
            }
        }
        try type.take(parsed.positionals, into: &arguments)
        return .run(arguments)
    }

    /// Two options given that exclude each other (their declarations' `excludes`).
    private static func excluded(_ parsed: ParsedOptions, _ accepted: [OptionDescriptor]) throws(UsageError) {
        let given = parsed.names
        for option in accepted where given.contains(option.name) {
            if let other = option.excludes.first(where: given.contains) {
                throw UsageError(
                    message: "options '\(option.name)' and '\(other)' exclude each other", command: parsed.command)
            }
        }
    }
}

/// The operands a command takes, checked the same way for every command.
enum Operands {
    /// Exactly one (`list <feed>`).
    static func one(_ operands: [String], _ what: String, command: String) throws(UsageError) -> String {
        guard let first = operands.first else { throw UsageError(message: "missing \(what)", command: command) }
        try atMostOne(operands, what, command: command)
        return first
    }

    /// None or one (`verify [DIR]`).
    @discardableResult
    static func atMostOne(_ operands: [String], _ what: String, command: String) throws(UsageError) -> String? {
        guard operands.count <= 1 else {
            throw UsageError(
                message: "unexpected argument '\(operands[1])': \(command) takes one \(what)", command: command)
        }
        return operands.first
    }

    /// At least one (`add <feed>...`).
    static func some(_ operands: [String], _ what: String, command: String) throws(UsageError) -> [String] {
        guard !operands.isEmpty else { throw UsageError(message: "missing \(what)", command: command) }
        return operands
    }

    /// None (`feeds`).
    static func none(_ operands: [String], command: String) throws(UsageError) {
        if let extra = operands.first {
            throw UsageError(message: "unexpected argument '\(extra)': \(command) takes none", command: command)
        }
    }
}

/// A command line podarchive cannot run: the message, and which command's help to point to.
struct UsageError: Error, Equatable, Sendable {
    var message: String
    var command: String?
}
