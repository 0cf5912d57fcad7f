// One command's arguments as the parser first splits them, before any option's value is read.

/// One command's arguments split into options (each with its value) and positionals, as getopt_long does:
/// `--name`, `--name=value`, `--name value`, `-q`, combined short flags (`-qn`), a short option's value joined
/// or next (`-j4`, `-nj 4`), and `--` ending options.
struct ParsedOptions {
    let command: String
    /// The options it may take.
    let accepted: [OptionDescriptor]
    /// Each option given, by its place in `accepted`, with its value (nil for a flag), in order.
    var given: [(index: Int, value: String?)] = []
    var positionals: [String] = []

    /// The long names of the options given.
    var names: Set<String> { Set(given.map { accepted[$0.index].name }) }

    init(_ arguments: [String], command: String, accepted: [OptionDescriptor]) throws(UsageError) {
        self.command = command
        self.accepted = accepted
        var index = 0
        var onlyPositionals = false
        /// The value of an option: joined to it, else the next argument.
        func value(shownAs name: String, joined: String?) throws(UsageError) -> String {
            if let joined {
                guard !joined.isEmpty else {
                    throw UsageError(message: "option '\(name)' needs a value", command: command)
                }
                return joined
            }
            // A value may start with "-" when it is a number ("--retries -1" is then judged as a number).
            guard index < arguments.count,
                !arguments[index].hasPrefix("-") || arguments[index] == "-" || Double(arguments[index]) != nil
            else {
                throw UsageError(message: "option '\(name)' needs a value", command: command)
            }
            index += 1
            return arguments[index - 1]
        }
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || argument == "-" || !argument.hasPrefix("-") {
                positionals.append(argument)
            } else if argument == "--" {
                onlyPositionals = true
            } else if argument.hasPrefix("--") {
                let equals = argument.firstIndex(of: "=")
                let name = equals.map { String(argument[..<$0]) } ?? argument
                let inline = equals.map { String(argument[argument.index(after: $0)...]) }
                guard let found = accepted.firstIndex(where: { $0.name == name }) else {
                    let hint = Suggestion.text(for: name, among: accepted.map(\.name))
                    throw UsageError(message: "unknown option '\(name)'" + hint, command: command)
                }
                guard accepted[found].takesValue else {
                    guard inline == nil else {
                        throw UsageError(message: "option '\(name)' takes no value", command: command)
                    }
                    given.append((found, nil))
                    continue
                }
                given.append((found, try value(shownAs: name, joined: inline)))
            } else {
                // Short options: flags combine (-qn); one that takes a value takes the rest, else the next argument.
                var letters = Substring(argument.dropFirst())
                while let letter = letters.popFirst() {
                    guard let found = accepted.firstIndex(where: { $0.short == letter }) else {
                        throw UsageError(message: "unknown option '-\(letter)'", command: command)
                    }
                    guard accepted[found].takesValue else {
                        given.append((found, nil))
                        continue
                    }
                    let rest = letters.isEmpty ? nil : String(letters)
                    given.append((found, try value(shownAs: "-\(letter)", joined: rest)))
                    break
                }
            }
        }
    }
}
