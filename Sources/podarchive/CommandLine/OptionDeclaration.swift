// What one option is, declared once: its names, its value and how that value is read, the commands that take it,
// the help, man page text and completion it is shown with, and where it is saved. The parser, the help pages, the
// man page's OPTIONS section, the completions and `feeds`' list of what a show keeps are all made from these.
import ArchiverCore

/// Where an option's value is kept after the run.
enum Saved: Equatable, Sendable {
    /// Not kept: it applies to this run only.
    case no
    /// A show setting, saved with the show's subscription as `ShowSettings`' setting of this key.
    case show(ShowSettings.Key)
    /// Saved with the show too, as its credentials (readable by you only), not among its settings.
    case showCredentials
    /// A setting of the archive, saved for every later run.
    case archive
}

/// A value that could not be read: what the option needs, said after the option's name.
struct ValueProblem: Error {
    /// " needs a whole number from 1 to 64, got 'x'", or ": unknown field {x}".
    var text: String
}

/// How an option's text becomes its value: the reading, and the default shown in help (nil: none shown).
struct ValueParser<Value>: Sendable {
    let read: @Sendable (String) throws(ValueProblem) -> Value

    /// Reads values `read` accepts; any other is refused as not being `what` (" needs `what`, got 'text'").
    static func checked(_ what: String, _ read: @escaping @Sendable (String) -> Value?) -> ValueParser {
        ValueParser { text throws(ValueProblem) in
            guard let value = read(text) else { throw ValueProblem(text: " needs \(what), got '\(text)'") }
            return value
        }
    }
}

/// One option, its value's type erased: what the parser, the help, the man page and the completions read.
struct OptionDescriptor: Sendable {
    /// `--jobs`.
    let name: String
    /// `j` for `-j`.
    var short: Character?
    /// The placeholder of its value (`N`); nil for a flag.
    let value: String?
    /// The commands that take it (`config` takes every option the configuration file may set).
    let commands: [CommandName]
    /// A few words for completion menus.
    let summary: String
    /// What `help` says of it; `{default}` stands for its default.
    let help: String
    /// What `help <command>` says instead, for the commands where it reads differently.
    var helpFor: [CommandName: String] = [:]
    var completion = ValueCompletion.none
    /// Options that cannot be given with this one.
    var excludes: [String] = []
    /// Whether its value is kept with the show or the archive.
    var saved = Saved.no
    /// Whether the configuration file may set it (as `key = value`, the key its name without `--`).
    var config = false
    /// The environment variable that sets it when the command line does not (over the configuration file).
    var environment: String? = nil
    /// The man page's text for it (roff), after its heading; `{default}` stands for its default.
    var manual = ""
    /// Options the man page describes under this one's heading (`--no-site` under `--site`).
    var manualAlso: [String] = []
    /// Its default as help shows it (`4`, `256M`); nil when it has none to show.
    var defaultText: String? = nil
    /// For a show setting: how `feeds` shows its saved value (nil: not set; "" for a flag that is set).
    var describe: (@Sendable (ShowSettings) -> String?)? = nil
    /// Puts the value given (nil for a flag) into the parsed values.
    let bind: @Sendable (inout OptionValues, String?) throws(ValueProblem) -> Void

    var takesValue: Bool { value != nil }

    /// Its key in the configuration file: its name without `--`.
    var key: String { String(name.dropFirst(2)) }

    /// The show setting it sets, when it is one.
    var showKey: ShowSettings.Key? {
        guard case .show(let key) = saved else { return nil }
        return key
    }

    /// `-j, --jobs`, or `--jobs` when it has no short name.
    var names: String { short.map { "-\($0), \(name)" } ?? name }

    func help(for command: CommandName) -> String { filled(helpFor[command] ?? help) }

    /// `text` with `{default}` replaced by the default.
    func filled(_ text: String) -> String {
        defaultText.map { text.replacingOccurrences(of: "{default}", with: $0) } ?? text
    }
}

extension OptionDescriptor {
    /// A flag: true in `field` when given.
    static func flag(
        _ name: String, short: Character? = nil, _ field: WritableKeyPath<OptionValues, Bool> & Sendable,
        commands: [CommandName], summary: String, help: String, helpFor: [CommandName: String] = [:],
        excludes: [String] = [], saved: Saved = .no, config: Bool = false,
        describe: (@Sendable (ShowSettings) -> String?)? = nil, manualAlso: [String] = [], manual: String = ""
    ) -> OptionDescriptor {
        OptionDescriptor(
            name: name, short: short, value: nil, commands: commands + (config ? [.config] : []), summary: summary,
            help: help, helpFor: helpFor, excludes: excludes, saved: saved, config: config, manual: manual,
            manualAlso: manualAlso, describe: describe,
            bind: { values, _ in values[keyPath: field] = true })
    }

    /// An option with a value, read by `parser` into `field` (the last one given counts).
    static func value<Value>(
        _ name: String, short: Character? = nil, _ placeholder: String,
        _ field: WritableKeyPath<OptionValues, Value> & Sendable, _ parser: ValueParser<Value>,
        commands: [CommandName], summary: String, help: String, helpFor: [CommandName: String] = [:],
        completion: ValueCompletion = .none, excludes: [String] = [], saved: Saved = .no, config: Bool = false,
        environment: String? = nil, showDefault: (@Sendable (Value) -> String)? = nil,
        describe: (@Sendable (ShowSettings) -> String?)? = nil, manual: String = ""
    ) -> OptionDescriptor {
        OptionDescriptor(
            name: name, short: short, value: placeholder, commands: commands + (config ? [.config] : []),
            summary: summary, help: help,
            helpFor: helpFor, completion: completion, excludes: excludes, saved: saved, config: config,
            environment: environment, manual: manual,
            defaultText: showDefault.map { $0(OptionValues()[keyPath: field]) }, describe: describe,
            bind: { values, text throws(ValueProblem) in values[keyPath: field] = try parser.read(text ?? "") })
    }

    /// An option that may be given many times, each value read by `parser` and added to `field`.
    static func repeated<Value>(
        _ name: String, _ placeholder: String, _ field: WritableKeyPath<OptionValues, [Value]> & Sendable,
        _ parser: ValueParser<Value>, commands: [CommandName], summary: String, help: String,
        helpFor: [CommandName: String] = [:], saved: Saved = .no, manual: String = ""
    ) -> OptionDescriptor {
        OptionDescriptor(
            name: name, value: placeholder, commands: commands, summary: summary, help: help, helpFor: helpFor,
            saved: saved, manual: manual,
            bind: { values, text throws(ValueProblem) in values[keyPath: field].append(try parser.read(text ?? "")) })
    }
}
