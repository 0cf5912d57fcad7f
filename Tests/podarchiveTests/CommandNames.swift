// The commands and their options as the tests of the generated help, man page and completions name them: read
// from the registry (`Commands`), so a test lists every command without naming one.
@testable import podarchive

/// A command's name, as the tests iterate over them.
struct CommandName: RawRepresentable, Hashable, CustomStringConvertible {
    let rawValue: String

    init?(rawValue: String) {
        guard Commands.entry(rawValue) != nil else { return nil }
        self.rawValue = rawValue
    }

    var description: String { rawValue }

    /// The commands that take options (every one but `help` and `completions`), in help order.
    static var takingOptions: [CommandName] {
        Commands.entries.filter(\.info.readsConfiguration).compactMap { CommandName(rawValue: $0.name) }
    }
}

enum CommandTable {
    static var names: [String] { Commands.names }
}

extension OptionTable {
    /// The options `command` takes, `--help` included.
    static func options(for command: CommandName) -> [OptionDescriptor] { Commands.entry(command.rawValue)!.options }

    static var all: [OptionDescriptor] { OptionCatalog.all }

    static var showSettings: [OptionDescriptor] { OptionCatalog.showSettings }
}
