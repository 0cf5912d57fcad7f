// `podarchive config [<show>] [options]`: every setting the configuration file may set, with the value a run would
// use and where it comes from. The order of the sources is `SettingsSource`'s; a show's saved settings are among
// them when a show is named. Printed as the configuration file it describes, each line's source in a comment.
import ArchiverCore
import Foundation

struct ConfigCommand: CommandType {
    static let info = CommandInfo(
        name: "config",
        about: "print the settings a run uses and where each comes from: the command line, a show's saved "
            + "settings, the environment, the configuration file or the defaults",
        operands: "[<show>]", completion: .shows,
        discussion: """
            Prints every setting the configuration file may set, as the file would say it (`key = value`), with the value a run
            uses and where it comes from: the command line (the options given here), the saved settings of <show> (its folder
            name or feed URL), the environment (`$PODARCHIVE_DIR` for `to`), the configuration file (with its line), or the
            default. The file is `config` in the configuration folder (`$PODARCHIVE_CONFIG_DIR`, else
            `$XDG_CONFIG_HOME/podarchive`, else `~/.config/podarchive`): `key = value` lines, `#` comments, `~` for your home
            folder, each key the long name of an option `config` takes but `--json`. Its values are defaults, under the command
            line and a show's saved settings, never saved with a show. An unknown key or a bad value is a usage error (exit 2)
            naming the file and line, for every command but help and completions; the man page's CONFIGURATION FILE says more.
            """,
        exitCodes: [.success, .usage, .archiveFailed],
        exitMeanings: [
            .success: "the settings printed", .archiveFailed: "the show's subscription record could not be read",
        ])

    /// `--to`, `--json`, and every option the configuration file may set (each recorded as given, as written).
    static let options: [BoundOption<Arguments>] =
        [OutputOptions.json.at(\.json)] + OptionCatalog.configurable.map(recording)

    /// `option` taken by `config`: its text kept as given (a show setting's value among the settings too), and a
    /// value the environment or the file gives only judged (`config` reads those itself).
    private static func recording(_ option: OptionDescriptor) -> BoundOption<Arguments> {
        let root = SourceOptions.archiveDirectory.descriptor.name
        return BoundOption(
            descriptor: option,
            bind: { arguments, text throws(ValueProblem) in
                try option.check(text)
                try option.setting?(&arguments.given, text)
                arguments.texts[option.name] = text ?? "true"
                if option.name == root { arguments.archiveDirectory = text }
            },
            bindConfigured: { arguments, text throws(ValueProblem) in
                try option.check(text)
                try option.setting?(&arguments.configured, text)
                if option.name == root { arguments.archiveDirectory = text }
            })
    }

    struct Arguments: CarriesShowSettings {
        /// A show whose saved settings are layered in (its folder name or feed URL).
        var show: String? = nil
        var archiveDirectory: String? = nil
        var json = false
        /// The options given on the command line, by name, with their text ("true" for a switch).
        var texts: [String: String] = [:]
        /// The show settings given, and those the configuration file gives.
        var given = ShowSettings()
        var configured = ShowSettings()
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        arguments.show = try Operands.atMostOne(operands, "show", command: info.name)
    }

    let context: CommandContext
    let arguments: Arguments

    /// One setting: its key, its value (nil: none), where it comes from, and the file's line when from there.
    struct Row: Equatable {
        var key: String
        var value: String?
        var source: SettingsSource
        var line: Int?
    }

    func run() -> ExitCode {
        var saved: ShowSettings?
        if let show = arguments.show {
            guard let root = context.resolveRoot(arguments.archiveDirectory) else { return .usage }
            do {
                saved = try context.configuredArchiver().commands.savedSettings(
                    ofShow: show, in: root, currentDirectory: context.environment.currentDirectory)
            } catch {
                return context.report(error)
            }
        }
        let rows = rows(saved: saved)
        let file = context.defaults.file?.path
        let directory = Self.directory(context.environment.variables)
        if arguments.json {
            context.output.write(Self.json(rows, file: file, directory: directory))
        } else {
            context.output.write(Self.text(rows, file: file, folder: context.configuration) + directory.line + "\n")
        }
        return .success
    }

    /// The podcast directory a run would ask (not a setting of the file: `$PODARCHIVE_DIRECTORY_URL`).
    struct Directory: Equatable {
        var url: String
        var source: SettingsSource
        var problem: String?

        /// `# podcast directory: URL  # source`, or what is wrong with the variable.
        var line: String {
            if let problem {
                return "# podcast directory: \(problem); search and Apple Podcasts links refuse it (exit 2)"
            }
            return "# podcast directory: \(url)  # "
                + (source == .environment ? "environment (PODARCHIVE_DIRECTORY_URL)" : ConfigCommand.sourceName(source))
        }
    }

    static func directory(_ variables: [String: String]) -> Directory {
        let directory = PodcastDirectory.from(environment: variables)
        return Directory(
            url: variables["PODARCHIVE_DIRECTORY_URL"] ?? directory.base.absoluteString,
            source: variables["PODARCHIVE_DIRECTORY_URL"] == nil ? .defaults : .environment,
            problem: directory.refusal.map { $0.description })
    }

    /// A row for each setting the configuration file may set, in the option table's order (a switch and its
    /// opposite are one show setting, one row).
    func rows(saved: ShowSettings?) -> [Row] {
        let layers = SettingsLayers(given: arguments.given, saved: saved, configuration: arguments.configured)
        var shown: Set<ShowSettings.Key> = []
        return OptionCatalog.configurable.compactMap { option in
            guard let key = option.showKey else { return row(option) }
            guard !shown.contains(key) else { return nil }
            shown.insert(key)
            let source = layers.source(of: key)
            return Row(
                key: Self.settingName(key), value: layers.effective.text(of: key) ?? defaultText(of: key),
                source: source, line: source == .configuration ? context.defaults.line(of: key) : nil)
        }
    }

    /// The row of an option that is no show setting: the command line's value, else the environment's or the
    /// file's, else its default.
    private func row(_ option: OptionDescriptor) -> Row {
        if let given = arguments.texts[option.name] {
            return Row(key: option.key, value: given, source: .given)
        }
        if let fallback = context.defaults.fallback(for: option) {
            return Row(key: option.key, value: fallback.value, source: fallback.source, line: fallback.line)
        }
        let standard = option.name == "--to" ? (try? context.archiveRoot(nil).get().path) : option.defaultText
        return Row(key: option.key, value: standard, source: .defaults)
    }

    /// The key a show setting is written with in the file: the option that turns it on (`companions`, not
    /// `no-companions`).
    private static func settingName(_ key: ShowSettings.Key) -> String {
        let options = OptionCatalog.configurable.filter { $0.showKey == key }
        return (options.first { !$0.key.hasPrefix("no-") } ?? options[0]).key
    }

    /// A show setting's built-in default, as text.
    private func defaultText(of key: ShowSettings.Key) -> String? {
        switch key {
        case .name: return NameTemplate.standard.text
        case .metadata: return "false"
        case .companions: return "true"
        case .userAgent: return PodarchiveVersion.userAgent
        case .netrcFile: return context.environment.variables["HOME"].map { $0 + "/.netrc" }
        default: return nil
        }
    }

    /// What a source is called where it is shown.
    static func sourceName(_ source: SettingsSource) -> String {
        switch source {
        case .given: return "command line"
        case .saved: return "saved"
        case .environment: return "environment"
        case .configuration: return "config file"
        case .defaults: return "default"
        }
    }

    /// The rows as a configuration file: `key = value` (commented out when it has none), then its source.
    static func text(_ rows: [Row], file: String?, folder: ConfigurationFolder?) -> String {
        let header =
            file.map { "# configuration file: \($0)" }
            ?? "# no configuration file"
            + (folder.map { " (\($0.url.appendingPathComponent(ConfigurationFile.fileName).path) is read)" } ?? "")
        let lines = rows.map { row in
            let setting = row.value.map { "\(row.key) = \($0)" } ?? "# \(row.key) (none)"
            let source =
                sourceName(row.source) + (row.line.map { ":\($0)" } ?? "")
                + (row.source == .environment ? " (PODARCHIVE_DIR)" : "")
            return setting.padding(toLength: max(setting.count, 40), withPad: " ", startingAt: 0) + "  # " + source
        }
        return ([header] + lines).joined(separator: "\n") + "\n"
    }

    /// `{"file", "settings": [{"key", "value", "source", "line"}]}`.
    static func json(_ rows: [Row], file: String?, directory: Directory) -> String {
        var out = JSONWriter()
        out.raw("{\"file\": ")
        out.string(file)
        out.raw(", \"settings\": [")
        for (position, row) in rows.enumerated() {
            out.raw(position == 0 ? "\n  {\"key\": " : ",\n  {\"key\": ")
            out.string(row.key)
            out.raw(", \"value\": ")
            out.string(row.value)
            out.raw(", \"source\": ")
            out.string(sourceName(row.source))
            out.raw(", \"line\": " + (row.line.map(String.init) ?? "null") + "}")
        }
        out.raw("\n], \"directory\": {\"url\": ")
        out.string(directory.url)
        out.raw(", \"source\": ")
        out.string(sourceName(directory.source))
        out.raw(", \"problem\": ")
        out.string(directory.problem)
        out.raw("}}\n")
        return out.text
    }
}
