// What the environment and the configuration file give the options a command line leaves out. Each line of the
// file is read by the declaration of the option it names (its key is the option's long name), so a value is held
// to the same rules as on the command line; which options the file may set is the declarations' `config` flag.
import ArchiverCore
import Foundation

/// The values the environment and the configuration file give options, under the command line's.
struct OptionDefaults: Sendable {
    /// One option the file sets: its value (nil for a switch turned on) and its line.
    struct Configured: Sendable {
        let option: OptionDescriptor
        let value: String?
        let line: Int
    }

    /// The file read; nil when there is none.
    var file: ConfigurationFile?
    /// What the file sets, in file order.
    var configured: [Configured] = []
    /// The process's environment variables.
    var environment: [String: String] = [:]

    /// Nothing set: the defaults of the declarations.
    static let none = OptionDefaults()

    /// The file's lines read through the option declarations, and `environment`.
    /// - Throws: `ConfigurationFileError` naming the line of an unknown key or a value its option refuses.
    init(file: ConfigurationFile?, environment: [String: String]) throws(ConfigurationFileError) {
        self.file = file
        self.environment = environment
        for entry in file?.entries ?? [] {
            let read = try Self.read(entry, in: file?.path ?? "")
            if let other = configured.first(where: { read.option.excludes.contains($0.option.name) }) {
                throw ConfigurationFileError(
                    path: file?.path ?? "", line: entry.line,
                    reason: "\(entry.key) = \(entry.value) contradicts line \(other.line)")
            }
            configured.append(read)
        }
    }

    private init() {}

    /// The configuration file of `folder` and the environment, read.
    /// - Throws: `UntrustedFile` for a file others could have changed; `ConfigurationFileError` for one that
    ///   cannot be read or says what no option takes.
    static func load(_ folder: ConfigurationFolder?, environment: [String: String]) throws -> OptionDefaults {
        let file = try folder.flatMap { folder in
            try ConfigurationFile.load(from: folder, home: environment["HOME"])
        }
        return try OptionDefaults(file: file, environment: environment)
    }

    /// One line of the file as the option it names, its value checked as the command line checks it.
    private static func read(_ entry: ConfigurationFile.Entry, in path: String) throws(ConfigurationFileError)
        -> Configured
    {
        let problem = { (reason: String) in ConfigurationFileError(path: path, line: entry.line, reason: reason) }
        let keys = Self.keys
        guard let option = OptionCatalog.configurable.first(where: { $0.key == entry.key }) else {
            throw problem(
                "unknown key '\(entry.key)'" + Suggestion.text(for: entry.key, among: keys) + " (the keys are "
                    + keys.joined(separator: ", ") + ")")
        }
        guard option.takesValue else {
            // A switch: true sets it, false sets its opposite (metadata = false is --no-metadata).
            switch entry.value.lowercased() {
            case "true", "yes", "on", "1": return Configured(option: option, value: nil, line: entry.line)
            case "false", "no", "off", "0":
                guard let opposite = Self.opposite(of: option) else {
                    return Configured(option: option, value: nil, line: entry.line)
                }
                return Configured(option: opposite, value: nil, line: entry.line)
            default: throw problem("\(entry.key) needs true or false, got '\(entry.value)'")
            }
        }
        do {
            try option.check(entry.value)
        } catch {
            throw problem(entry.key + error.text)
        }
        return Configured(option: option, value: entry.value, line: entry.line)
    }

    /// The keys the file may set, as it writes them: a switch's opposite is `companions = false`, not a key of its
    /// own (`no-companions`).
    static var keys: [String] {
        OptionCatalog.configurable.filter { opposite(of: $0) == nil || !$0.key.hasPrefix("no-") }.map(\.key)
    }

    /// `--no-metadata` for `--metadata` and back, when the file may set it.
    private static func opposite(of option: OptionDescriptor) -> OptionDescriptor? {
        let name = option.key.hasPrefix("no-") ? "--" + option.key.dropFirst(3) : "--no-" + option.key
        return OptionCatalog.configurable.first { $0.name == name && !$0.takesValue }
    }

    /// What sets `option` when the command line does not, and from where: its environment variable over the
    /// file's line (the precedence is `SettingsSource`'s); nil when neither does.
    func fallback(for option: OptionDescriptor) -> (source: SettingsSource, value: String?, line: Int?)? {
        var candidates: [SettingsSource: (String?, Int?)] = [:]
        if let variable = option.environment, let value = environment[variable], !value.isEmpty {
            candidates[.environment] = (value, nil)
        }
        if let entry = configured.first(where: { $0.option.name == option.name }) {
            candidates[.configuration] = (entry.value, entry.line)
        }
        return SettingsSource.highest(candidates).map { ($0.source, $0.value.0, $0.value.1) }
    }

    /// The line that sets show setting `key`, when the file sets it.
    func line(of key: ShowSettings.Key) -> Int? {
        configured.first { $0.option.showKey == key }?.line
    }
}
