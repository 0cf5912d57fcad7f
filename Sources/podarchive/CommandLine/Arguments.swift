// Hand-written argument parsing: a pure function from the argument list to a command or a usage error.

/// What the user asked for.
enum Command: Equatable, Sendable {
    case sync(SyncArguments)
    case list(ListArguments)
    case help(topic: String?)
    case version
}

struct SyncArguments: Equatable, Sendable {
    var feed: String
    var archiveDirectory: String?
}

struct ListArguments: Equatable, Sendable {
    var feed: String
    var json = false
}

/// A command line podarchive cannot run: the message, and which command's usage to show.
struct UsageError: Error, Equatable, Sendable {
    var message: String
    var command: String?
}

enum Arguments {
    static let commands = ["sync", "list", "help"]

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) -> Result<Command, UsageError> {
        guard let first = arguments.first else {
            return .failure(UsageError(message: "missing command", command: nil))
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h": return .success(.help(topic: nil))
        case "--version", "-V", "version": return .success(.version)
        case "help": return parseHelp(rest)
        case "sync": return parseSync(rest)
        case "list": return parseList(rest)
        default:
            let kind = first.hasPrefix("-") ? "unknown option" : "unknown command"
            return .failure(
                UsageError(message: "\(kind) '\(first)'" + suggestion(for: first, among: commands), command: nil))
        }
    }

    private static func parseHelp(_ arguments: [String]) -> Result<Command, UsageError> {
        guard let topic = arguments.first else { return .success(.help(topic: nil)) }
        guard commands.contains(topic) else {
            return .failure(
                UsageError(message: "no help for '\(topic)'" + suggestion(for: topic, among: commands), command: nil))
        }
        guard arguments.count == 1 else {
            return .failure(UsageError(message: "unexpected argument '\(arguments[1])'", command: "help"))
        }
        return .success(.help(topic: topic))
    }

    private static func parseSync(_ arguments: [String]) -> Result<Command, UsageError> {
        var feeds: [String] = []
        var directory: String?
        var reader = OptionReader(arguments, command: "sync", options: ["--to", "--help"])
        while let item = reader.next() {
            switch item {
            case .failure(let error): return .failure(error)
            case .success(.option("--help", _)): return .success(.help(topic: "sync"))
            case .success(.option("--to", _)):
                switch reader.value(for: "--to") {
                case .success(let value): directory = value
                case .failure(let error): return .failure(error)
                }
            case .success(.option(let name, _)):
                return .failure(UsageError(message: "unknown option '\(name)'", command: "sync"))
            case .success(.positional(let value)): feeds.append(value)
            }
        }
        guard let feed = feeds.first else {
            return .failure(UsageError(message: "missing feed URL or file", command: "sync"))
        }
        guard feeds.count == 1 else {
            return .failure(
                UsageError(message: "unexpected argument '\(feeds[1])': sync takes one feed", command: "sync"))
        }
        return .success(.sync(SyncArguments(feed: feed, archiveDirectory: directory)))
    }

    private static func parseList(_ arguments: [String]) -> Result<Command, UsageError> {
        var feeds: [String] = []
        var json = false
        var reader = OptionReader(arguments, command: "list", options: ["--json", "--help"])
        while let item = reader.next() {
            switch item {
            case .failure(let error): return .failure(error)
            case .success(.option("--help", _)): return .success(.help(topic: "list"))
            case .success(.option("--json", let inlineValue)):
                guard inlineValue == nil else {
                    return .failure(UsageError(message: "option '--json' takes no value", command: "list"))
                }
                json = true
            case .success(.option(let name, _)):
                return .failure(UsageError(message: "unknown option '\(name)'", command: "list"))
            case .success(.positional(let value)): feeds.append(value)
            }
        }
        guard let feed = feeds.first else {
            return .failure(UsageError(message: "missing feed URL or file", command: "list"))
        }
        guard feeds.count == 1 else {
            return .failure(
                UsageError(message: "unexpected argument '\(feeds[1])': list takes one feed", command: "list"))
        }
        return .success(.list(ListArguments(feed: feed, json: json)))
    }

    /// " (did you mean 'sync'?)" when a known word is within two edits of `word`.
    static func suggestion(for word: String, among candidates: [String]) -> String {
        let scored = candidates.map { ($0, editDistance(word, $0)) }.filter { $0.1 <= 2 && $0.1 < max(word.count, 2) }
        guard let best = scored.min(by: { $0.1 < $1.1 }) else { return "" }
        return " (did you mean '\(best.0)'?)"
    }

    static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let a = Array(lhs)
        let b = Array(rhs)
        var previous = Array(0...b.count)
        for i in 1...max(a.count, 1) where !a.isEmpty {
            var current = [i] + Array(repeating: 0, count: b.count)
            for j in 1...max(b.count, 1) where !b.isEmpty {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return a.isEmpty ? b.count : previous[b.count]
    }
}

/// Walks an argument list: options (`--name`, `--name=value`, `-h`), positionals, and `--` ending options.
private struct OptionReader {
    enum Item: Equatable {
        case option(String, inlineValue: String?)
        case positional(String)
    }

    private let arguments: [String]
    private let command: String
    private let options: [String]
    private var index = 0
    private var onlyPositionals = false
    private var pendingInlineValue: String?

    init(_ arguments: [String], command: String, options: [String]) {
        self.arguments = arguments
        self.command = command
        self.options = options
    }

    mutating func next() -> Result<Item, UsageError>? {
        guard index < arguments.count else { return nil }
        let argument = arguments[index]
        index += 1
        if onlyPositionals || argument == "-" || !argument.hasPrefix("-") { return .success(.positional(argument)) }
        if argument == "--" {
            onlyPositionals = true
            return next()
        }
        if argument == "-h" { return .success(.option("--help", inlineValue: nil)) }
        var name = argument
        var inlineValue: String?
        if let equals = argument.firstIndex(of: "="), argument.hasPrefix("--") {
            name = String(argument[..<equals])
            inlineValue = String(argument[argument.index(after: equals)...])
        }
        guard options.contains(name) else {
            let hint = Arguments.suggestion(for: name, among: options)
            return .failure(UsageError(message: "unknown option '\(name)'" + hint, command: command))
        }
        pendingInlineValue = inlineValue
        return .success(.option(name, inlineValue: inlineValue))
    }

    /// The value of the option just read: inline (`--to=DIR`) or the next argument.
    mutating func value(for option: String) -> Result<String, UsageError> {
        if let inline = pendingInlineValue {
            pendingInlineValue = nil
            guard !inline.isEmpty else {
                return .failure(UsageError(message: "option '\(option)' needs a value", command: command))
            }
            return .success(inline)
        }
        guard index < arguments.count, !arguments[index].hasPrefix("-") || arguments[index] == "-" else {
            return .failure(UsageError(message: "option '\(option)' needs a value", command: command))
        }
        index += 1
        return .success(arguments[index - 1])
    }
}
