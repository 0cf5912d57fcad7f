// One command's arguments as the parser first splits them, before any option's value is judged.
/// One command's arguments split into flags, option values and positionals (`--name`, `--name=value`,
/// `--name value`, `-h`, and `--` ending options).
struct ParsedOptions {
    let command: String
    var flags: Set<String> = []
    /// The last value given for each option.
    var values: [String: String] = [:]
    /// Every value given for each option, in order (`--header` may be given many times).
    var allValues: [String: [String]] = [:]
    var positionals: [String] = []

    init(_ arguments: [String], command: String, accepted: [String: Bool]) throws {
        self.command = command
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            var name = argument == "-h" ? "--help" : argument
            var inline: String?
            if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<equals])
                inline = String(argument[argument.index(after: equals)...])
            }
            guard let takesValue = accepted[name] else {
                let hint = Suggestion.text(for: name, among: accepted.keys.sorted())
                throw UsageError(message: "unknown option '\(name)'" + hint, command: command)
            }
            guard takesValue else {
                guard inline == nil else {
                    throw UsageError(message: "option '\(name)' takes no value", command: command)
                }
                flags.insert(name)
                continue
            }
            if let inline {
                guard !inline.isEmpty else {
                    throw UsageError(message: "option '\(name)' needs a value", command: command)
                }
                values[name] = inline
                allValues[name, default: []].append(inline)
            } else {
                // A value may start with "-" when it is a number ("--retries -1" is then judged as a number).
                guard index < arguments.count,
                    !arguments[index].hasPrefix("-") || arguments[index] == "-" || Double(arguments[index]) != nil
                else {
                    throw UsageError(message: "option '\(name)' needs a value", command: command)
                }
                values[name] = arguments[index]
                allValues[name, default: []].append(arguments[index])
                index += 1
            }
        }
    }

    func onePositional(named what: String) throws -> String {
        guard let first = positionals.first else { throw UsageError(message: "missing \(what)", command: command) }
        guard positionals.count == 1 else {
            throw UsageError(
                message: "unexpected argument '\(positionals[1])': \(command) takes one feed", command: command)
        }
        return first
    }
}
