// Hand-written argument parsing: a pure function from the argument list to a command or a usage error.
import ArchiverCore
import Foundation

enum Arguments {
    static let commands = [
        "sync", "list", "verify", "add", "remove", "feeds", "site", "credentials", "completions", "help",
    ]

    /// The options each command accepts; `true` when the option takes a value (from `OptionTable`).
    static let options: [String: [String: Bool]] = Dictionary(
        uniqueKeysWithValues: OptionTable.commands.map { ($0, OptionTable.accepted(by: $0)) })

    /// Parses the arguments after the program name.
    static func parse(_ arguments: [String]) -> Result<Command, UsageError> {
        guard let first = arguments.first else {
            return .failure(UsageError(message: "missing command", command: nil))
        }
        let rest = Array(arguments.dropFirst())
        switch first {
        case "--help", "-h": return .success(.help(topic: nil))
        case "--version", "-V", "version": return .success(.version)
        case "help": return parseHelp(rest)
        case "completions":
            guard rest.count == 1, let shell = rest.first, Completions.shells.contains(shell) else {
                let got = rest.first.map { ", got '\($0)'" } ?? ""
                return .failure(UsageError(message: "completions needs one of bash, zsh, fish\(got)", command: first))
            }
            return .success(.completions(shell: shell))
        case _ where OptionTable.commands.contains(first):
            do {
                let parsed = try ParsedOptions(rest, command: first, accepted: options[first]!)
                if parsed.flags.contains("--help") { return .success(.help(topic: first)) }
                try excluded(parsed)
                return .success(try command(first, parsed))
            } catch let error as UsageError {
                return .failure(error)
            } catch {
                return .failure(UsageError(message: "\(error)", command: first))
            }
        default:
            let kind = first.hasPrefix("-") ? "unknown option" : "unknown command"
            return .failure(
                UsageError(message: "\(kind) '\(first)'" + Suggestion.text(for: first, among: commands), command: nil))
        }
    }

    private static func command(_ name: String, _ parsed: ParsedOptions) throws -> Command {
        switch name {
        case "sync":
            return .sync(
                SyncArguments(
                    feeds: parsed.positionals, opml: parsed.values["--opml"], feedList: parsed.values["--feeds"],
                    archiveDirectory: parsed.values["--to"], transfer: try transfer(parsed),
                    json: parsed.flags.contains("--json"), verbosity: try verbosity(parsed), filter: try filter(parsed),
                    dryRun: try dryRun(parsed), names: try names(parsed),
                    metadata: parsed.flags.contains("--metadata"), retryGone: parsed.flags.contains("--retry-gone"),
                    maximumFeedSize: try maximumFeedSize(parsed), given: try settings(parsed),
                    feedJobs: try count("--feed-jobs", parsed, default: 8), shard: try shard(parsed),
                    headers: try headers(parsed), site: site(parsed)))
        case "site":
            guard parsed.positionals.count <= 1 else {
                throw UsageError(
                    message: "unexpected argument '\(parsed.positionals[1])': site takes one folder", command: name)
            }
            return .site(
                SiteArguments(
                    directory: parsed.positionals.first ?? parsed.values["--to"], baseURL: try baseURL(parsed),
                    out: parsed.values["--out"]))
        case "add":
            guard !parsed.positionals.isEmpty else {
                throw UsageError(message: "missing feed URL or file", command: name)
            }
            return .add(
                AddArguments(
                    feeds: parsed.positionals, archiveDirectory: parsed.values["--to"], settings: try settings(parsed),
                    headers: try headers(parsed), timeout: try transfer(parsed).timeout))
        case "remove":
            guard !parsed.positionals.isEmpty else {
                throw UsageError(message: "missing feed URL or folder name", command: name)
            }
            return .remove(RemoveArguments(shows: parsed.positionals, archiveDirectory: parsed.values["--to"]))
        case "feeds":
            if let extra = parsed.positionals.first {
                throw UsageError(message: "unexpected argument '\(extra)': feeds takes none", command: name)
            }
            return .feeds(
                FeedsArguments(
                    archiveDirectory: parsed.values["--to"], json: parsed.flags.contains("--json"),
                    opml: parsed.flags.contains("--opml"), includeSecrets: parsed.flags.contains("--include-secrets")))
        case "credentials":
            if let extra = parsed.positionals.first {
                throw UsageError(message: "unexpected argument '\(extra)': credentials takes none", command: name)
            }
            return .credentials(
                CredentialsArguments(archiveDirectory: parsed.values["--to"], move: parsed.flags.contains("--move")))
        case "list":
            return .list(
                ListArguments(
                    feed: try parsed.onePositional(named: "feed URL or file"), json: parsed.flags.contains("--json"),
                    filter: try filter(parsed), maximumFeedSize: try maximumFeedSize(parsed),
                    firstPage: parsed.flags.contains("--first-page"), archived: parsed.flags.contains("--archived"),
                    archiveDirectory: parsed.values["--to"], headers: try headers(parsed), access: try access(parsed),
                    timeout: try transfer(parsed).timeout))
        default:
            guard parsed.positionals.count <= 1 else {
                throw UsageError(
                    message: "unexpected argument '\(parsed.positionals[1])': verify takes one folder", command: name)
            }
            return .verify(
                VerifyArguments(
                    directory: parsed.positionals.first ?? parsed.values["--to"],
                    repair: parsed.flags.contains("--repair"),
                    transfer: try transfer(parsed), upstream: parsed.flags.contains("--upstream"),
                    json: parsed.flags.contains("--json"), access: try access(parsed)))
        }
    }

    private static func filter(_ parsed: ParsedOptions) throws -> EpisodeFilter {
        var filter = EpisodeFilter()
        if let text = parsed.values["--limit"] {
            guard let value = Int(text), value >= 1 else {
                throw UsageError(
                    message: "option '--limit' needs a whole number of episodes, got '\(text)'", command: parsed.command
                )
            }
            filter.limit = value
        }
        if let text = parsed.values["--since"] {
            guard let date = FeedDate.parseRFC3339(text) else {
                throw UsageError(
                    message: "option '--since' needs a date such as 2025-01-31 or 2025-01-31T18:00:00Z, got '\(text)'",
                    command: parsed.command)
            }
            filter.since = date
        }
        if let text = parsed.values["--match"] {
            guard EpisodeFilter.validate(pattern: text) else {
                throw UsageError(
                    message: "option '--match' needs a regular expression, got '\(text)'", command: parsed.command)
            }
            filter.match = text
        }
        return filter
    }

    /// Two options given that exclude each other (`OptionTable`'s `excludes`).
    private static func excluded(_ parsed: ParsedOptions) throws {
        let given = parsed.flags.union(parsed.values.keys)
        for option in OptionTable.options(for: parsed.command) where given.contains(option.name) {
            if let other = option.excludes.first(where: given.contains) {
                throw UsageError(
                    message: "options '\(option.name)' and '\(other)' exclude each other", command: parsed.command)
            }
        }
    }

    /// The show settings given: checked as the options they come from, kept as written.
    private static func settings(_ parsed: ParsedOptions) throws -> ShowSettings {
        let filter = try filter(parsed)
        _ = try names(parsed)
        var metadata: Bool?
        if parsed.flags.contains("--metadata") { metadata = true }
        if parsed.flags.contains("--no-metadata") { metadata = false }
        var companions: Bool?
        if parsed.flags.contains("--companions") { companions = true }
        if parsed.flags.contains("--no-companions") { companions = false }
        var settings = try access(parsed)
        settings.name = parsed.values["--name"]
        settings.metadata = metadata
        settings.limit = filter.limit
        settings.since = parsed.values["--since"]
        settings.match = filter.match
        if parsed.flags.contains("--all") { settings = settings.overlaid(by: .everyEpisode) }
        settings.companions = companions
        return settings
    }

    /// A whole number from 1 to 64 given as `option`, else `fallback`.
    private static func count(_ option: String, _ parsed: ParsedOptions, default fallback: Int) throws -> Int {
        guard let text = parsed.values[option] else { return fallback }
        guard let value = Int(text), (1...64).contains(value) else {
            throw UsageError(
                message: "option '\(option)' needs a whole number from 1 to 64, got '\(text)'", command: parsed.command)
        }
        return value
    }

    /// `--shard K/N`: K from 0 to N - 1.
    private static func shard(_ parsed: ParsedOptions) throws -> Shard? {
        guard let text = parsed.values["--shard"] else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1, count <= 100_000,
            index >= 0, index < count
        else {
            throw UsageError(
                message: "option '--shard' needs K/N with K from 0 to N-1 (such as 0/4), got '\(text)'",
                command: parsed.command)
        }
        return Shard(index: index, count: count)
    }

    /// `--max-feed-size 512M`: bytes, with an optional K, M or G (powers of 1024).
    private static func maximumFeedSize(_ parsed: ParsedOptions) throws -> Int64 {
        guard let text = parsed.values["--max-feed-size"] else { return FeedLimits.defaultMaximumBytes }
        guard let bytes = ByteSize.parse(text), bytes >= 1024 else {
            throw UsageError(
                message: "option '--max-feed-size' needs a size such as 512M or 2G (at least 1K), got '\(text)'",
                command: parsed.command)
        }
        return bytes
    }

    private static func names(_ parsed: ParsedOptions) throws -> NameTemplate {
        guard let text = parsed.values["--name"] else { return .standard }
        do {
            return try NameTemplate(text)
        } catch {
            throw UsageError(message: "option '--name': \(error.localizedDescription)", command: parsed.command)
        }
    }

    private static func dryRun(_ parsed: ParsedOptions) throws -> Bool {
        parsed.flags.contains("--dry-run")
    }

    private static func verbosity(_ parsed: ParsedOptions) throws -> Verbosity {
        switch (parsed.flags.contains("--quiet"), parsed.flags.contains("--verbose")) {
        case (true, true):
            throw UsageError(message: "options '--quiet' and '--verbose' exclude each other", command: parsed.command)
        case (true, false): return .quiet
        case (false, true): return .verbose
        case (false, false): return .normal
        }
    }

    private static func transfer(_ parsed: ParsedOptions) throws -> TransferSettings {
        var settings = TransferSettings()
        if let text = parsed.values["--retries"] {
            guard let value = Int(text), (0...100).contains(value) else {
                throw UsageError(
                    message: "option '--retries' needs a whole number from 0 to 100, got '\(text)'",
                    command: parsed.command)
            }
            settings.retries = value
        }
        if let text = parsed.values["--jobs"] {
            guard let value = Int(text), (1...64).contains(value) else {
                throw UsageError(
                    message: "option '--jobs' needs a whole number from 1 to 64, got '\(text)'", command: parsed.command
                )
            }
            settings.jobs = value
        }
        for option in ["--timeout", "--wait"] {
            guard let text = parsed.values[option] else { continue }
            guard let value = TimeInterval(text), value.isFinite, value >= 0, value <= 31_536_000,
                option == "--wait" || value > 0
            else {
                throw UsageError(
                    message: "option '\(option)' needs a number of seconds, got '\(text)'", command: parsed.command)
            }
            if option == "--timeout" { settings.timeout = value } else { settings.wait = value }
        }
        settings.limitRate = try limitRate(parsed)
        return settings
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
