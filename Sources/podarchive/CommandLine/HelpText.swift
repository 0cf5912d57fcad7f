// The help podarchive prints: `podarchive --help` and `podarchive help <command>`, made from the commands' types
// (`Commands`) and the options they bind, the same way for every command.
import ArchiverCore

enum HelpText {
    /// The general help's usage block: each command's synopsis, and where its help is.
    static let usage: String = {
        var lines = Commands.entries.map { "podarchive " + $0.info.synopsis }
        lines.append("podarchive --version")
        return "usage: " + lines.joined(separator: "\n       ")
            + "\n\n'podarchive help <command>' (or <command> --help) gives a command's options."
    }()

    /// What each exit code means, said once; a command may say it its own way (`CommandInfo.exitMeanings`).
    static let meanings: [ExitCode: String] = [
        .success: "everything archived, or nothing new",
        .episodesFailed: "some episodes failed; they are tried again on the next run",
        .usage: "usage error: a command line, or a configuration file, that cannot be run as it is",
        .feedFailed: "the feed could not be fetched or read",
        .locked: "another podarchive is syncing the same feed (see --wait)",
        .archiveFailed: "the archive could not be written: disk full, folder unwritable, index damaged",
        .interrupted: "interrupted by Ctrl-C (SIGINT); 143: stopped by SIGTERM. Partial downloads are kept and "
            + "resumed next run, or started again where the server cannot continue them; locks are released",
    ]

    /// The exit code table of a command that ends with `codes`, each said as `meanings` (over the general ones).
    static func exitCodes(_ codes: [ExitCode], meanings: [ExitCode: String] = [:], severalFeeds: Bool = true) -> String
    {
        let shown = codes.filter { $0 != .terminated }
        var lines = ["Exit codes:"]
        for code in shown {
            guard let meaning = meanings[code] ?? Self.meanings[code] else { continue }
            let number = String(code.rawValue)
            let lead = String(repeating: " ", count: max(0, 3 - number.count)) + number + "  "
            lines.append(
                HelpMarkup.wrap(
                    meaning.split(separator: " ").map(String.init), firstLine: lead, indent: "       ",
                    width: 108, join: ""))
        }
        if severalFeeds, shown.filter({ ExitCode.failuresWorstFirst.contains($0) }).count > 1 {
            lines.append(
                "When feeds end differently, the exit code is the worst outcome, worst first: \(ExitCode.worstFirst).")
        }
        return lines.joined(separator: "\n")
    }

    /// The table of every code, as the general help says it.
    static let exitCodes = exitCodes(
        [.success, .episodesFailed, .usage, .feedFailed, .locked, .archiveFailed, .interrupted],
        meanings: [
            .success: "everything archived, or nothing new (verify: every file intact)",
            .episodesFailed: "some episodes failed; they are tried again on the next run (verify: problems remain)",
            .usage: "usage error (also: a feed list that cannot be read)",
        ])

    static let general = """
        podarchive \(PodarchiveVersion.current): keep podcasts for good.

        \(usage)

        Commands:
        \(commandList)

        <feed> is an http(s) URL or a local file: RSS 2.0, Atom, JSON Feed, or a JSON array of episodes
        ([{"url": "...", "title": "...", "published": "<RSS date>", "guid": "..."}]; only "url" is needed).
        sync and add also take a show's web page or Apple Podcasts link, and follow it to the feed.

        \(exitCodes)

        Run 'podarchive help sync' for where files go and how they are dated.
        """

    /// The general help's list of commands, each with what it is for.
    static var commandList: String {
        Commands.entries.map { command in
            let name = command.name
            let first = "  " + name + String(repeating: " ", count: max(2, 8 - name.count))
            let words = command.info.about.split(separator: " ").map(String.init)
            return HelpMarkup.wrap(
                words, firstLine: first, indent: String(repeating: " ", count: 10), width: 96, join: "")
        }.joined(separator: "\n")
    }

    /// The help of `topic` (a command's name), else the general help.
    static func text(for topic: String?) -> String { page(for: topic) ?? general }

    /// The help of `topic`, the general help for none; nil for a name no command has.
    static func page(for topic: String?) -> String? {
        guard let topic else { return general }
        return Commands.entry(topic).map(text(for:))
    }

    /// A command's page: its usage, what it does, its options, and its exit codes.
    static func text(for command: CommandEntry) -> String {
        let info = command.info
        var parts = [OptionTable.usage(for: command)]
        if !info.discussion.isEmpty { parts.append(HelpMarkup(info.discussion).plain()) }
        parts.append("Options:\n" + OptionTable.helpBlock(for: command))
        if !info.afterOptions.isEmpty { parts.append(HelpMarkup(info.afterOptions).plain()) }
        parts.append(exitCodes(info.exitCodes, meanings: info.exitMeanings, severalFeeds: info.severalFeeds))
        return parts.joined(separator: "\n\n")
    }
}

/// The usage line and the options block of a command's help, wrapped.
enum OptionTable {
    /// The usage line of `command`, wrapped: `usage: podarchive sync <feed>... [--opml FILE] ...`.
    static func usage(for command: CommandEntry) -> String {
        let head =
            "usage: podarchive \(command.name)" + (command.info.operands.isEmpty ? "" : " " + command.info.operands)
        let words = command.options.filter { $0.name != HelpOption.option.descriptor.name }.map { option in
            "[\(option.name)\(option.value.map { " " + $0 } ?? "")]"
        }
        return HelpMarkup.wrap(
            words, firstLine: head, indent: String(repeating: " ", count: head.count + 1), width: 108)
    }

    /// The `Options:` block of `podarchive help <command>`: name and value in a column, help wrapped beside it.
    static func helpBlock(for command: CommandEntry) -> String {
        command.options.map { option in
            let left = "  \(option.names)\(option.value.map { " " + $0 } ?? "")"
            let words = option.help(for: command.name).split(separator: " ").map(String.init)
            let column = 21
            let indent = String(repeating: " ", count: column)
            // A name too long for the column gets its help on the lines below.
            let first = left.count < column - 1 ? left.padding(toLength: column, withPad: " ", startingAt: 0) : indent
            let text = HelpMarkup.wrap(words, firstLine: first, indent: indent, width: 108, join: "")
            return left.count < column - 1 ? text : left + "\n" + text
        }.joined(separator: "\n")
    }
}
