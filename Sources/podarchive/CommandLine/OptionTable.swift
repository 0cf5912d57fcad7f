// Every option of every command, declared once, in the tables by concern (`SourcesOptionTable`, ...,
// `ExportOptionTable`, in the order help lists them). The parser, `podarchive help <command>`, the usage lines, the
// man page's OPTIONS, the shell completions and `feeds`' list of a show's saved settings are all made from this
// table, so none of them can offer an option another refuses.

enum OptionTable {
    static let all: [OptionDescriptor] =
        SourcesOptionTable.options + SettingsOptionTable.options + AlternateOptions.all + OutputOptionTable.options
        + TransferOptionTable.options + AccessOptionTable.options + ExportOptionTable.options + HookOptions.all
        + ForgetOptions.all

    /// The options `command` takes, in table order.
    static func options(for command: CommandName) -> [OptionDescriptor] {
        all.filter { $0.commands.contains(command) }
    }

    /// The options saved with a show as its settings, in table order (what `feeds` and `help sync` name).
    static var showSettings: [OptionDescriptor] { all.filter { $0.showKey != nil } }

    /// The options the configuration file may set, in table order.
    static var configurable: [OptionDescriptor] { all.filter(\.config) }

    /// The usage line of `command`, wrapped: `usage: podarchive sync <feed>... [--opml FILE] ...`.
    static func usage(for command: CommandName) -> String {
        let head = "usage: podarchive \(command.rawValue) \(CommandTable.descriptor(command).operands)"
        let words = options(for: command).filter { $0.name != "--help" }.map { option in
            "[\(option.name)\(option.value.map { " " + $0 } ?? "")]"
        }
        return wrap(words, firstLine: head, indent: String(repeating: " ", count: head.count + 1), width: 108)
    }

    /// The `Options:` block of `podarchive help <command>`: name and value in a column, help wrapped beside it.
    static func helpBlock(for command: CommandName) -> String {
        options(for: command).map { option in
            let left = "  \(option.names)\(option.value.map { " " + $0 } ?? "")"
            let words = option.help(for: command).split(separator: " ").map(String.init)
            let column = 21
            let indent = String(repeating: " ", count: column)
            // A name too long for the column gets its help on the lines below.
            let first = left.count < column - 1 ? left.padding(toLength: column, withPad: " ", startingAt: 0) : indent
            let text = wrap(words, firstLine: first, indent: indent, width: 108, join: "")
            return left.count < column - 1 ? text : left + "\n" + text
        }.joined(separator: "\n")
    }

    /// `words` on lines of at most `width` characters (a longer word has a line of its own).
    static func wrap(
        _ words: [String], firstLine: String, indent: String, width: Int, join: String = " "
    ) -> String {
        var lines: [String] = []
        var line = firstLine
        var lineHasWord = false
        for word in words {
            let separator = lineHasWord || (join == " " && !line.hasSuffix(" ")) ? " " : ""
            if lineHasWord, line.count + separator.count + word.count > width {
                lines.append(line)
                line = indent + word
            } else {
                line += separator + word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }
}
