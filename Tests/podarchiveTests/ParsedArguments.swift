// Reading a command line into one command's arguments, for the tests of what a command is given.
@testable import podarchive

extension CommandLineParser {
    /// What `arguments` (the command's name first) read into for `type`; nil when they are not its command line
    /// or do not parse.
    static func read<Command: CommandType>(
        _ type: Command.Type, _ arguments: [String], defaults: OptionDefaults = .none
    ) -> Command.Arguments? {
        guard arguments.first == type.info.name,
            case .run(let read)? = try? parse(type, Array(arguments.dropFirst()), defaults: defaults)
        else { return nil }
        return read
    }

    /// What `line` (words separated by spaces, the command's name first) parses into for `type`.
    static func parsed<Command: CommandType>(_ type: Command.Type, _ line: String)
        -> Result<Parsed<Command.Arguments>, UsageError>
    {
        let words = line.split(separator: " ").map(String.init)
        do {
            return .success(try parse(type, Array(words.dropFirst())))
        } catch {
            return .failure(error)
        }
    }
}
