// Every command, declared once: its name, what it is for, its operands and how a shell completes them. The general
// help, the usage lines, the man page's synopsis, the completions and the parser's list of commands come from here.

/// How a shell should complete an option's value.
enum ValueCompletion: Equatable, Sendable {
    case none
    case file
    case directory
    /// A show of the archive root: one of its folders, wherever the shell is.
    case shows
    /// One of these words (suggestions; any value is accepted where the parser allows).
    case words([String])
}

/// A command's name.
enum CommandName: String, CaseIterable, Sendable {
    case sync, add, search, remove, forget, feeds, list, verify, site, export, credentials, config, completions, help

    /// The commands that take options (each takes `--help`), in help order.
    static var takingOptions: [CommandName] { CommandTable.all.filter(\.takesOptions).map(\.name) }
}

/// One command: how `help`, the usage lines and the completions show it.
struct CommandDescriptor: Sendable {
    let name: CommandName
    /// What it is for, in the general help.
    let about: String
    /// A few words for completion menus.
    let summary: String
    /// Its operands in its usage line (`[<feed>...]`).
    let operands: String
    /// Its line in the general help's usage block, after `podarchive`.
    let synopsis: String
    /// How a shell completes its operands.
    var completion = ValueCompletion.none
    /// Whether it takes more than one operand.
    var repeats = false
    /// Whether it takes options (`completions` and `help` take only their operand).
    var takesOptions = true
    /// Whether it fetches feeds: the network comes up as the process starts (see `CommandLineTool.fetchesFeeds`).
    var fetches = false
}

enum CommandTable {
    /// In the order the general help lists them.
    static let all: [CommandDescriptor] = [
        CommandDescriptor(
            name: .sync, about: "download every episode not yet archived, of the feeds named or of every subscription",
            summary: "archive every episode not archived yet", operands: "[<feed>...]",
            synopsis: "sync [<feed>...] [options]", completion: .file, repeats: true, fetches: true),
        CommandDescriptor(
            name: .add, about: "subscribe to feeds (with their settings) without downloading",
            summary: "subscribe to feeds without downloading", operands: "<feed>...",
            synopsis: "add <feed>... [options]", completion: .file, repeats: true, fetches: true),
        CommandDescriptor(
            name: .search, about: "find shows by name in the podcast directory (Apple Podcasts): title, author, feed",
            summary: "find shows by name", operands: "<term>...", synopsis: "search <term>... [options]",
            repeats: true, fetches: true),
        CommandDescriptor(
            name: .remove, about: "unsubscribe a show; its files stay",
            summary: "unsubscribe a show, keeping its files",
            operands: "<feed URL or folder name>...", synopsis: "remove <feed or folder>...", completion: .shows,
            repeats: true),
        CommandDescriptor(
            name: .forget,
            about: "forget episodes for good: their files deleted, never fetched again (--undo takes them back)",
            summary: "forget episodes for good", operands: "<show> <episode>...",
            synopsis: "forget <show> <episode>... [options]", completion: .shows, repeats: true),
        CommandDescriptor(
            name: .feeds, about: "list the subscriptions: what each show holds, its last sync",
            summary: "list the subscribed shows", operands: "", synopsis: "feeds [--json | --opml]"),
        CommandDescriptor(
            name: .list, about: "show a feed's episodes without downloading anything",
            summary: "show the episodes of a feed", operands: "<feed>", synopsis: "list <feed> [options]",
            completion: .file, fetches: true),
        CommandDescriptor(
            name: .verify, about: "recheck archived files against their recorded size and SHA-256",
            summary: "recheck archived files against their SHA-256", operands: "[DIR]",
            synopsis: "verify [DIR] [options]", completion: .directory),
        CommandDescriptor(
            name: .site, about: "write the archive's web pages and podcast feeds (browse, play, subscribe)",
            summary: "write the web pages and podcast feeds", operands: "[DIR]", synopsis: "site [DIR] [--out DIR]",
            completion: .directory),
        CommandDescriptor(
            name: .export, about: "write the archive as a WARC 1.1 file, the format the web archives take",
            summary: "write the archive as a WARC file", operands: "[DIR]",
            synopsis: "export --warc FILE [DIR] [options]", completion: .directory),
        CommandDescriptor(
            name: .credentials,
            about: "say where each show's login, headers and feed token are kept; --move takes them out of the archive",
            summary: "where secrets are kept; move them out", operands: "", synopsis: "credentials [--move]"),
        CommandDescriptor(
            name: .config,
            about: "print the settings a run uses and where each comes from: the command line, a show's saved "
                + "settings, the environment, the configuration file or the defaults",
            summary: "the effective settings and their sources", operands: "[<show>]",
            synopsis: "config [<show>] [options]", completion: .shows),
        CommandDescriptor(
            name: .completions, about: "print the completion script for bash, zsh or fish",
            summary: "print a shell completion script", operands: "bash|zsh|fish",
            synopsis: "completions bash|zsh|fish", takesOptions: false),
        CommandDescriptor(
            name: .help, about: "show help for a command", summary: "show help for a command", operands: "[command]",
            synopsis: "help [command]", takesOptions: false),
    ]

    /// The names, in help order.
    static var names: [String] { all.map(\.name.rawValue) }

    static func descriptor(_ name: CommandName) -> CommandDescriptor { all.first { $0.name == name }! }
}
