// What one option is, declared once (`Option`): its names, how its value is read and checked, its one text (in
// help's light markup, which help, the man page and the completion menus each render), how its value completes, its
// default, and for a show setting how it is saved. A command binds the options it takes to the fields they fill
// (`BoundOption`), its own arguments' or the core's `ShowSettings`', in one hop. The parser, the help pages, the man
// page, the completions, the configuration file and `feeds`' list of what a show keeps are all made from these.
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

/// How an option's text becomes its value.
struct ValueParser<Value>: Sendable {
    let read: @Sendable (String) throws(ValueProblem) -> Value

    /// Reads values `read` accepts; any other is refused as not being `what` (" needs `what`, got 'text'"), which
    /// is written only then: a list of choices costs every start of the process otherwise, for every option.
    static func checked(
        _ what: @autoclosure @escaping @Sendable () -> String, _ read: @escaping @Sendable (String) -> Value?
    ) -> ValueParser {
        ValueParser { text throws(ValueProblem) in
            guard let value = read(text) else { throw ValueProblem(text: " needs \(what()), got '\(text)'") }
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
    /// Its text, in help's light markup (`HelpMarkup`): the first paragraph is what `help` says of it, the whole
    /// what the man page says, the first clause what completion menus say; `{default}` stands for its default.
    var help: String
    /// What `help <command>` says instead of the first paragraph, for the commands where it reads differently.
    var helpFor: [String: String] = [:]
    var completion = ValueCompletion.none
    /// Options that cannot be given with this one.
    var excludes: [String] = []
    /// Whether its value is kept with the show or the archive.
    var saved = Saved.no
    /// Whether the configuration file may set it (as `key = value`, the key its name without `--`).
    var config = false
    /// The environment variable that sets it when the command line does not (over the configuration file).
    var environment: String? = nil
    /// Options the man page describes under this one's heading (`--no-site` under `--site`).
    var manualAlso: [String] = []
    /// Its default as help shows it (`4`, `256M`), in the form the configuration file takes; nil when it has none
    /// to show.
    var defaultText: String? = nil
    /// For a show setting: how `feeds` shows its saved value (nil: not set; "" for a flag that is set).
    var describe: (@Sendable (ShowSettings) -> String?)? = nil
    /// Reads the value given (nil for a flag), only to judge it: the configuration file's lines are judged so.
    let check: @Sendable (String?) throws(ValueProblem) -> Void
    /// For a show setting: puts the value given into settings (the layer the command line or the file gives).
    var setting: (@Sendable (inout ShowSettings, String?) throws(ValueProblem) -> Void)? = nil

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

    /// What `help <command>` says of it, in plain text on one line.
    func help(for command: String) -> String { HelpMarkup(filled(helpFor[command] ?? help)).lead }

    /// A few words for completion menus: the first clause of its help.
    var summary: String { HelpMarkup(help).summary }

    /// The man page's text for it (roff), after its heading: the whole of its help, after `lead` (`With sync: `).
    func manual(lead: String = "") -> String { HelpMarkup(lead + filled(help)).roff }

    /// `text` with `{default}` replaced by the default.
    func filled(_ text: String) -> String {
        defaultText.map { text.replacingOccurrences(of: "{default}", with: $0) } ?? text
    }
}

/// An option declared once: what it is, and how its text becomes a `Value`.
struct Option<Value>: Sendable {
    var descriptor: OptionDescriptor
    let read: @Sendable (String?) throws(ValueProblem) -> Value
}

extension Option where Value == Bool {
    /// A flag: `sets` (true unless said) in the field it is bound to when given. `setting` makes it a show setting.
    static func flag(
        _ name: String, short: Character? = nil, sets: Bool = true, help: String,
        helpFor: [String: String] = [:], excludes: [String] = [], saved: Saved = .no, config: Bool = false,
        describe: (@Sendable (ShowSettings) -> String?)? = nil, manualAlso: [String] = [],
        setting: (@Sendable (inout ShowSettings) -> Void)? = nil
    ) -> Option {
        var applying: (@Sendable (inout ShowSettings, String?) throws(ValueProblem) -> Void)? = nil
        if let setting { applying = { settings, _ in setting(&settings) } }
        return Option(
            descriptor: OptionDescriptor(
                name: name, short: short, value: nil, help: help, helpFor: helpFor,
                excludes: excludes, saved: saved, config: config, manualAlso: manualAlso,
                describe: describe, check: { _ in }, setting: applying),
            read: { _ in sets })
    }
}

extension Option {
    /// An option with a value, read by `parser` (the last one given counts). `setting` makes it a show setting:
    /// how its value is kept in `ShowSettings`.
    static func value(
        _ name: String, short: Character? = nil, _ placeholder: String, _ parser: ValueParser<Value>,
        help: String, helpFor: [String: String] = [:], completion: ValueCompletion = .none,
        excludes: [String] = [], saved: Saved = .no, config: Bool = false, environment: String? = nil,
        default: Value? = nil, showDefault: (@Sendable (Value) -> String)? = nil,
        describe: (@Sendable (ShowSettings) -> String?)? = nil,
        setting: (@Sendable (inout ShowSettings, Value) -> Void)? = nil
    ) -> Option {
        let read: @Sendable (String?) throws(ValueProblem) -> Value = { text throws(ValueProblem) in
            try parser.read(text ?? "")
        }
        var applying: (@Sendable (inout ShowSettings, String?) throws(ValueProblem) -> Void)? = nil
        if let setting {
            applying = { settings, text throws(ValueProblem) in setting(&settings, try read(text)) }
        }
        return Option(
            descriptor: OptionDescriptor(
                name: name, short: short, value: placeholder, help: help, helpFor: helpFor,
                completion: completion, excludes: excludes, saved: saved, config: config, environment: environment,
                defaultText: `default`.flatMap { value in showDefault?(value) }, describe: describe,
                check: { text throws(ValueProblem) in _ = try read(text) }, setting: applying),
            read: read)
    }
}

/// An option as one command takes it: bound to the field of the command's arguments it fills.
struct BoundOption<Root>: Sendable {
    var descriptor: OptionDescriptor
    /// Puts the value given (nil for a flag) into the arguments.
    let bind: @Sendable (inout Root, String?) throws(ValueProblem) -> Void
    /// For a show setting the configuration file gives: into the arguments' configured layer instead.
    var bindConfigured: (@Sendable (inout Root, String?) throws(ValueProblem) -> Void)? = nil
}

/// The arguments of a command: plain values, each field's initial value its option's default.
protocol CommandArguments: Equatable, Sendable {
    init()
}

/// Arguments that carry show settings: those the command line gives, and those the configuration file gives (a
/// layer under those saved with a show).
protocol CarriesShowSettings: CommandArguments {
    var given: ShowSettings { get set }
    var configured: ShowSettings { get set }
}

extension Option {
    /// Bound to `field`; `help` replaces its help for this command.
    func at<Root: CommandArguments>(_ field: WritableKeyPath<Root, Value> & Sendable, help: String? = nil)
        -> BoundOption<Root>
    {
        BoundOption(descriptor: shown(help)) { root, text throws(ValueProblem) in
            root[keyPath: field] = try read(text)
        }
    }

    /// Bound to `field`, nil until given.
    func at<Root: CommandArguments>(_ field: WritableKeyPath<Root, Value?> & Sendable, help: String? = nil)
        -> BoundOption<Root>
    {
        BoundOption(descriptor: shown(help)) { root, text throws(ValueProblem) in
            root[keyPath: field] = try read(text)
        }
    }

    /// Bound to `field`, each value given added to it.
    func appending<Root: CommandArguments>(_ field: WritableKeyPath<Root, [Value]> & Sendable, help: String? = nil)
        -> BoundOption<Root>
    {
        BoundOption(descriptor: shown(help)) { root, text throws(ValueProblem) in
            root[keyPath: field].append(try read(text))
        }
    }

    /// A show setting, bound to the settings the command line gives, and the file's to those the file gives.
    func setting<Root: CarriesShowSettings>(help: String? = nil) -> BoundOption<Root> {
        guard let apply = descriptor.setting else { preconditionFailure("\(descriptor.name) is not a show setting") }
        return BoundOption(
            descriptor: shown(help),
            bind: { root, text throws(ValueProblem) in try apply(&root.given, text) },
            bindConfigured: { root, text throws(ValueProblem) in try apply(&root.configured, text) })
    }

    /// The descriptor with this command's help.
    private func shown(_ help: String?) -> OptionDescriptor {
        var shown = descriptor
        if let help { shown.help = help }
        return shown
    }
}
