// The man page, made whole each time it is asked for (`podarchive help --man`, `make man`, `make install`): the
// SYNOPSIS, each command's heading and text, the show settings, the configuration file's keys, OPTIONS and EXIT STATUS
// from the declarations the parser and `help` use (their texts in help's light markup, HelpMarkup), around the prose
// written once in Documentation/ (ManualProse, ManualTopics). Nothing of it is kept in git. The only place the command
// and option tables are read for the page.
import ArchiverCore

enum ManualPage {
    /// The whole page, in roff.
    static var page: String {
        [
            #".\" podarchive(1): made by `podarchive help --man` from its declarations and Documentation/*.swift."#,
            #".TH PODARCHIVE 1 "" "podarchive \#(PodarchiveVersion.current)" "User Commands""#,
            ".SH NAME", ManualProse.name, ".SH SYNOPSIS", synopsis, ".SH DESCRIPTION", ManualProse.description,
            ".SH COMMANDS", commands, ".SH SHOW SETTINGS", showSettings, options, ".SH EXIT STATUS", exitStatus,
            ".SH ENVIRONMENT", ManualProse.environment, ".SH CONFIGURATION FILE", configurationFile,
            ManualTopics.text, ".SH SEE ALSO", ManualProse.seeAlso,
        ].joined(separator: "\n") + "\n"
    }

    /// roff for a name or word: each hyphen written `\-`.
    static func roff(_ text: String) -> String { text.replacingOccurrences(of: "-", with: #"\-"#) }

    /// Each command with its operands and options, as its usage line gives them.
    static var synopsis: String {
        let lines = Commands.entries.map { command in
            var words = [".B podarchive \(command.name)"]
            if !command.info.operands.isEmpty { words.append(".RI \"\(roff(command.info.operands))\"") }
            for option in command.options where option.name != HelpOption.option.descriptor.name {
                let names = roff(option.short.map { "-\($0) | \(option.name)" } ?? option.name)
                let value = option.value.map { "\n.IR \(roff($0.lowercased())) ]" } ?? " ]"
                words.append(".RB [ \"\(names)\"" + value)
            }
            return words.joined(separator: "\n")
        }
        return (lines + [#".B podarchive \-\-version"#]).joined(separator: "\n.br\n")
    }

    /// Each command's heading and summary, then its paragraphs.
    static var commands: String {
        Commands.entries.map { command in
            let prose = command.info.discussion.isEmpty ? "" : "\n.IP\n" + HelpMarkup(command.info.discussion).roff
            return ".TP\n.B \(command.name)\n\(roff(capitalized(command.info.about))).\(prose)"
        }.joined(separator: "\n")
    }

    /// The settings saved with a show: their names, in table order.
    static var showSettings: String {
        ManualProse.showSettings + "\n" + list(OptionCatalog.showSettings.map(\.name)) + "\n.PP\n"
            + ManualProse.showSettingsOrder
    }

    /// The file's prose, then its keys: the options the file may set, without their dashes.
    static var configurationFile: String {
        ManualProse.configurationFile + "\n.PP\nIts keys:\n"
            + list(OptionDefaults.keys) + "\n.PP\n"
            + ManualProse.configurationExample
    }

    /// `names`, one a line in bold, joined by commas and ending with a full stop.
    static func list(_ names: [String]) -> String {
        names.enumerated().map { index, name in ".BR \(roff(name)) \(index == names.count - 1 ? "." : ",")" }
            .joined(separator: "\n")
    }

    private static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// An option's heading in OPTIONS (`.BI "\-j, \-\-jobs" " n"`); with `also`, the options described under it.
    static func heading(for option: OptionDescriptor, also: [OptionDescriptor] = []) -> String {
        let names = option.short.map { "-\($0), \(option.name)" } ?? option.name
        if !also.isEmpty {
            return ".BR " + ([option] + also).map { roff($0.name) }.joined(separator: #" ", " "#)
        }
        switch (option.value, option.short) {
        case (nil, nil): return ".B \(roff(names))"
        case (nil, .some(let short)): return #".BR \-\#(short) ", " "# + roff(option.name)
        case (.some(let value), nil): return ".BI \(roff(names)) \" \(value.lowercased())\""
        case (.some(let value), .some): return ".BI \"\(roff(names))\" \" \(value.lowercased())\""
        }
    }

    /// The OPTIONS section: every option in table order (one described under another's heading is left to it), then
    /// `--version`, which only the program takes.
    static var options: String {
        let described = Set(OptionCatalog.all.flatMap(\.manualAlso))
        var entries = OptionCatalog.all.filter { !described.contains($0.name) }.map { option in
            let also = option.manualAlso.compactMap { name in OptionCatalog.all.first { $0.name == name } }
            return ".TP\n" + heading(for: option, also: also) + "\n" + option.manual(lead: takenBy(option))
        }
        entries.append(".TP\n.BR \\-V \", \" \\-\\-version\nShow the version.")
        return ".SH OPTIONS\n" + entries.joined(separator: "\n")
    }

    /// `With sync or add: ` for an option a few commands take (the registry says which), else nothing. `config`,
    /// which takes every option the configuration file may set (to show the values a run would use), is not counted.
    static func takenBy(_ option: OptionDescriptor) -> String {
        let names = Commands.entries.filter { command in
            command.name != ConfigCommand.info.name
                && command.options.contains { $0.name == option.name && $0.takesValue == option.takesValue }
        }.map { "`\($0.name)`" }
        guard (1...3).contains(names.count) else { return "" }
        return "With \(names.alternatives): "
    }

    /// The exit codes as `help` gives them (`  3  the feed could not be fetched`), a paragraph each, then the rule
    /// for runs whose feeds end differently.
    static var exitStatus: String {
        var entries: [String] = []
        var closing: [String] = []
        for line in HelpText.exitCodes.split(separator: "\n").dropFirst() {
            if let code = line.firstMatch(of: /^ *([0-9]+)  (.*)/) {
                entries.append(".TP\n.B \(code.output.1)\n" + roff(capitalized(String(code.output.2))))
            } else if line.first == " ", let last = entries.popLast() {
                entries.append(last + "\n" + roff(line.trimmingCharacters(in: .whitespaces)))
            } else {
                closing.append(roff(String(line)))
            }
        }
        return (entries + [".PP"] + closing + [ManualProse.exitStatus]).joined(separator: "\n")
    }
}
