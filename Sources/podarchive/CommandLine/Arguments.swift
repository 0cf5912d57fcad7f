// Argument parsing: a pure function from the argument list to a command or a usage error. Which options a command
// takes, how each value is read and where it lands are the options' declarations (OptionTable); this file only says
// what each command makes of them.
import ArchiverCore
import Foundation

enum Arguments {
    /// Every command's name, in help order.
    static var commands: [String] { CommandTable.names }

    /// Parses the arguments after the program name; `defaults` gives the options the arguments leave out (the
    /// environment's and the configuration file's values).
    static func parse(_ arguments: [String], defaults: OptionDefaults = .none) -> Result<Command, UsageError> {
        guard let first = arguments.first else {
            return .failure(UsageError(message: "missing command", command: nil))
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h": return .success(.help(topic: nil))
        case "--version", "-V", "version": return .success(.version)
        case CommandName.help.rawValue: return parseHelp(rest)
        case CommandName.completions.rawValue:
            guard rest.count == 1, let shell = rest.first, Completions.shells.contains(shell) else {
                let got = rest.first.map { ", got '\($0)'" } ?? ""
                return .failure(UsageError(message: "completions needs one of bash, zsh, fish\(got)", command: first))
            }
            return .success(.completions(shell: shell))
        default:
            guard let name = CommandName(rawValue: first), CommandName.takingOptions.contains(name) else {
                let kind = first.hasPrefix("-") ? "unknown option" : "unknown command"
                return .failure(
                    UsageError(
                        message: "\(kind) '\(first)'" + Suggestion.text(for: first, among: commands), command: nil))
            }
            do {
                let parsed = try ParsedOptions(rest, command: first, accepted: OptionTable.options(for: name))
                if parsed.names.contains("--help") { return .success(.help(topic: first)) }
                try excluded(parsed, name)
                // The defaults first, each option's from its highest source, then the command line over them; the
                // show settings the file gives are a layer of their own, under those saved with a show.
                var values = OptionValues()
                var configured = OptionValues()
                for option in OptionTable.options(for: name) {
                    guard let fallback = defaults.fallback(for: option) else { continue }
                    do {
                        if option.showKey != nil {
                            try option.bind(&configured, fallback.value)
                        } else {
                            try option.bind(&values, fallback.value)
                        }
                    } catch {
                        throw UsageError(message: "\(option.key)\(error.text)", command: first)
                    }
                }
                for (option, text) in parsed.given {
                    do {
                        try option.bind(&values, text)
                    } catch {
                        throw UsageError(message: "option '\(option.name)'\(error.text)", command: first)
                    }
                }
                return .success(try command(name, parsed, values, configured: configured.settings))
            } catch let error as UsageError {
                return .failure(error)
            } catch {
                return .failure(UsageError(message: "\(error)", command: first))
            }
        }
    }

    private static func command(
        _ name: CommandName, _ parsed: ParsedOptions, _ values: OptionValues, configured: ShowSettings
    ) throws -> Command {
        switch name {
        case .sync:
            return .sync(
                SyncArguments(
                    feeds: parsed.positionals, opml: values.opmlFile, feedList: values.feedList,
                    archiveDirectory: values.archiveDirectory, transfer: values.transfer, json: values.json,
                    verbosity: values.verbosity, filter: values.filter, dryRun: values.dryRun,
                    names: values.name?.value ?? .standard, metadata: values.metadata, retryGone: values.retryGone,
                    maximumFeedSize: values.maximumFeedSize, given: values.settings, feedJobs: values.feedJobs,
                    shard: values.shard, headers: values.headers, site: values.siteChoice, hook: values.hook,
                    configured: configured))
        case .site:
            return .site(
                SiteArguments(
                    directory: try atMostOne(parsed, "folder") ?? values.archiveDirectory, baseURL: values.baseURL,
                    out: values.out, noOut: values.noOut))
        case .export:
            guard let warc = values.warc else {
                throw UsageError(message: "missing --warc FILE: the file to write", command: parsed.command)
            }
            return .export(
                ExportArguments(
                    warc: warc, directory: try atMostOne(parsed, "folder") ?? values.archiveDirectory,
                    shows: values.shows))
        case .add:
            guard !parsed.positionals.isEmpty else {
                throw UsageError(message: "missing feed URL or file", command: parsed.command)
            }
            return .add(
                AddArguments(
                    feeds: parsed.positionals, archiveDirectory: values.archiveDirectory, settings: values.settings,
                    headers: values.headers, timeout: values.timeout, verbose: values.verbose, configured: configured,
                    separate: values.separate))
        case .search:
            guard !parsed.positionals.isEmpty else {
                throw UsageError(message: "missing the words to search for", command: parsed.command)
            }
            if let limit = values.limit, !(1...200).contains(limit) {
                throw UsageError(
                    message: "option '--limit' of search takes 1 to 200 shows, got \(limit)", command: parsed.command)
            }
            return .search(
                SearchArguments(terms: parsed.positionals, json: values.json, limit: values.limit ?? 10))
        case .remove:
            guard !parsed.positionals.isEmpty else {
                throw UsageError(message: "missing feed URL or folder name", command: parsed.command)
            }
            return .remove(RemoveArguments(shows: parsed.positionals, archiveDirectory: values.archiveDirectory))
        case .forget:
            guard parsed.positionals.count >= 2 else {
                let missing = parsed.positionals.isEmpty ? "the show and the episodes" : "the episodes to forget"
                throw UsageError(message: "missing \(missing)", command: parsed.command)
            }
            return .forget(
                ForgetArguments(
                    show: parsed.positionals[0], episodes: Array(parsed.positionals.dropFirst()), undo: values.undo,
                    keepFiles: values.keepFiles, archiveDirectory: values.archiveDirectory, wait: values.wait))
        case .feeds:
            try noPositionals(parsed)
            return .feeds(
                FeedsArguments(
                    archiveDirectory: values.archiveDirectory, json: values.json, opml: values.opmlOutput,
                    includeSecrets: values.includeSecrets))
        case .credentials:
            try noPositionals(parsed)
            return .credentials(CredentialsArguments(archiveDirectory: values.archiveDirectory, move: values.move))
        case .list:
            return .list(
                ListArguments(
                    feed: try parsed.onePositional(named: "feed URL or file"), json: values.json, filter: values.filter,
                    maximumFeedSize: values.maximumFeedSize, firstPage: values.firstPage, archived: values.archived,
                    archiveDirectory: values.archiveDirectory, headers: values.headers, access: values.access,
                    timeout: values.timeout, configured: configured))
        case .config:
            return .config(
                ConfigArguments(
                    show: try atMostOne(parsed, "show"), archiveDirectory: values.archiveDirectory,
                    json: values.json,
                    given: Dictionary(parsed.given.map { ($0.option.name, $0.value ?? "true") }) {
                        $1
                    }, settings: values.settings, configured: configured))
        case .help, .completions:
            // Read before options are (see `parse`): never reached with options to bind.
            preconditionFailure("\(name) is parsed without options")
        case .verify:
            return .verify(
                VerifyArguments(
                    directory: try atMostOne(parsed, "folder") ?? values.archiveDirectory, repair: values.repair,
                    transfer: values.transfer, upstream: values.upstream, json: values.json, access: values.access,
                    configured: configured))
        }
    }

    /// The one operand `site` and `verify` take, if given.
    private static func atMostOne(_ parsed: ParsedOptions, _ what: String) throws -> String? {
        guard parsed.positionals.count <= 1 else {
            throw UsageError(
                message: "unexpected argument '\(parsed.positionals[1])': \(parsed.command) takes one \(what)",
                command: parsed.command)
        }
        return parsed.positionals.first
    }

    private static func noPositionals(_ parsed: ParsedOptions) throws {
        if let extra = parsed.positionals.first {
            throw UsageError(
                message: "unexpected argument '\(extra)': \(parsed.command) takes none", command: parsed.command)
        }
    }

    /// Two options given that exclude each other (their declarations' `excludes`).
    private static func excluded(_ parsed: ParsedOptions, _ command: CommandName) throws {
        let given = parsed.names
        for option in OptionTable.options(for: command) where given.contains(option.name) {
            if let other = option.excludes.first(where: given.contains) {
                throw UsageError(
                    message: "options '\(option.name)' and '\(other)' exclude each other", command: parsed.command)
            }
        }
    }

    private static func parseHelp(_ arguments: [String]) -> Result<Command, UsageError> {
        guard let topic = arguments.first else { return .success(.help(topic: nil)) }
        guard commands.contains(topic) else {
            return .failure(
                UsageError(
                    message: "no help for '\(topic)'" + Suggestion.text(for: topic, among: commands), command: nil))
        }
        guard arguments.count == 1 else {
            return .failure(UsageError(message: "unexpected argument '\(arguments[1])'", command: "help"))
        }
        return .success(.help(topic: topic))
    }
}
