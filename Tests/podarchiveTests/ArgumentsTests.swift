import Foundation
import XCTest

// Argument parsing is a pure function: every command line maps to a command or a usage error.
@testable import ArchiverCore
@testable import podarchive

final class ArgumentsTests: XCTestCase {
    /// The command a whole command line runs, by name (`help` for `sync --help`), or its usage error.
    private func command(_ line: String) -> Result<String, UsageError> {
        CommandLineParser.parse(line.split(separator: " ").map(String.init)).map(\.name)
    }

    /// What `type`'s command line reads into (the command's name first, as typed).
    private func parse<Command: CommandType>(_ type: Command.Type, _ line: String)
        -> Result<Parsed<Command.Arguments>, UsageError>
    {
        CommandLineParser.parsed(type, line)
    }

    func test_parse_validCommandLines() {
        XCTAssertEqual(
            parse(SyncCommand.self, "sync https://x.org/feed"),
            .success(.run(SyncCommand.Arguments(feeds: ["https://x.org/feed"], archiveDirectory: nil))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync https://x.org/feed --to /srv/podcasts"),
            .success(.run(SyncCommand.Arguments(feeds: ["https://x.org/feed"], archiveDirectory: "/srv/podcasts"))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync --to=archive feed.xml"),
            .success(.run(SyncCommand.Arguments(feeds: ["feed.xml"], archiveDirectory: "archive"))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync -- -odd-name.xml"),
            .success(.run(SyncCommand.Arguments(feeds: ["-odd-name.xml"], archiveDirectory: nil)))
        )
        XCTAssertEqual(
            parse(ListCommand.self, "list feed.xml"),
            .success(.run(ListCommand.Arguments(feed: "feed.xml", json: false))))
        XCTAssertEqual(
            parse(ListCommand.self, "list --json feed.xml"),
            .success(.run(ListCommand.Arguments(feed: "feed.xml", json: true))))
        XCTAssertEqual(command("help"), .success("help"))
        XCTAssertEqual(parse(HelpCommand.self, "help sync"), .success(.run(HelpCommand.Arguments(topic: "sync"))))
        XCTAssertEqual(command("--help"), .success("help"))
        XCTAssertEqual(parse(SyncCommand.self, "sync --help"), .success(.help))
        XCTAssertEqual(command("sync --help"), .success("help"))
        XCTAssertEqual(parse(ListCommand.self, "list -h"), .success(.help))
        XCTAssertEqual(command("--version"), .success("version"))
    }

    func test_parse_mistakes_areUsageErrorsWithSuggestions() {
        XCTAssertEqual(command(""), .failure(UsageError(message: "missing command", command: nil)))
        XCTAssertEqual(
            command("snyc feed"),
            .failure(UsageError(message: "unknown command 'snyc' (did you mean 'sync'?)", command: nil)))
        XCTAssertEqual(
            command("lst feed"),
            .failure(UsageError(message: "unknown command 'lst' (did you mean 'list'?)", command: nil)))
        XCTAssertEqual(
            command("frobnicate"), .failure(UsageError(message: "unknown command 'frobnicate'", command: nil)))
        XCTAssertEqual(command("--verbose"), .failure(UsageError(message: "unknown option '--verbose'", command: nil)))
        XCTAssertEqual(
            parse(AddCommand.self, "add"), .failure(UsageError(message: "missing feed URL or file", command: "add")))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync --shard 3/2"),
            .failure(
                UsageError(
                    message: "option '--shard' needs K/N with K from 0 to N-1 (such as 0/4), got '3/2'", command: "sync"
                )))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync --metadata --no-metadata"),
            .failure(
                UsageError(message: "options '--metadata' and '--no-metadata' exclude each other", command: "sync")))
        XCTAssertEqual(
            parse(FeedsCommand.self, "feeds --json --opml"),
            .failure(UsageError(message: "options '--opml' and '--json' exclude each other", command: "feeds")))
        XCTAssertEqual(
            parse(RemoveCommand.self, "remove"),
            .failure(UsageError(message: "missing feed URL or folder name", command: "remove")))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --too dir"),
            .failure(UsageError(message: "unknown option '--too' (did you mean '--to'?)", command: "sync")))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --to"),
            .failure(UsageError(message: "option '--to' needs a value", command: "sync")))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --to="),
            .failure(UsageError(message: "option '--to' needs a value", command: "sync")))
        XCTAssertEqual(parse(SyncCommand.self, "sync a b"), .success(.run(SyncCommand.Arguments(feeds: ["a", "b"]))))
        XCTAssertEqual(
            parse(ListCommand.self, "list feed --jsn"),
            .failure(UsageError(message: "unknown option '--jsn' (did you mean '--json'?)", command: "list")))
        XCTAssertEqual(
            parse(ListCommand.self, "list feed --json=yes"),
            .failure(UsageError(message: "option '--json' takes no value", command: "list")))
        XCTAssertEqual(
            parse(ListCommand.self, "list"), .failure(UsageError(message: "missing feed URL or file", command: "list")))
        XCTAssertEqual(command("help sink"), .success("help"), "help says what it has no page for when it runs")
    }

    func test_parse_transferOptionsAndVerify() {
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --retries 5 --timeout 90 --wait 30 --jobs 8"),
            .success(
                .run(
                    SyncCommand.Arguments(
                        feeds: ["feed"], transfer: TransferSettings(retries: 5, timeout: 90, wait: 30, jobs: 8)))
            ))
        XCTAssertEqual(TransferSettings(retries: 1, timeout: 2, wait: 3, jobs: 5).options.jobs, 5)
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --json"),
            .success(.run(SyncCommand.Arguments(feeds: ["feed"], json: true))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --quiet"),
            .success(.run(SyncCommand.Arguments(feeds: ["feed"], quiet: true))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --verbose"),
            .success(.run(SyncCommand.Arguments(feeds: ["feed"], verbose: true))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --quiet --verbose"),
            .failure(UsageError(message: "options '--quiet' and '--verbose' exclude each other", command: "sync")))
        XCTAssertEqual(parse(VerifyCommand.self, "verify"), .success(.run(VerifyCommand.Arguments(directory: nil))))
        XCTAssertEqual(
            parse(VerifyCommand.self, "verify /srv/podcasts --repair"),
            .success(.run(VerifyCommand.Arguments(directory: "/srv/podcasts", repair: true))))
        XCTAssertEqual(
            parse(VerifyCommand.self, "verify --to /srv/p"),
            .success(.run(VerifyCommand.Arguments(directory: "/srv/p"))))
        XCTAssertEqual(parse(HelpCommand.self, "help verify"), .success(.run(HelpCommand.Arguments(topic: "verify"))))
    }

    func test_parse_severalFeedsAndFeedLists() {
        XCTAssertEqual(
            parse(SyncCommand.self, "sync --opml subs.opml --feeds list.txt https://a.example/feed"),
            .success(
                .run(SyncCommand.Arguments(feeds: ["https://a.example/feed"], opml: "subs.opml", feedList: "list.txt")))
        )
        XCTAssertEqual(
            parse(SyncCommand.self, "sync --opml subs.opml"),
            .success(.run(SyncCommand.Arguments(feeds: [], opml: "subs.opml"))))
    }

    func test_parse_aSwitchAndItsOpposite_fillOneField() {
        XCTAssertEqual(parse(SyncCommand.self, "sync --site"), .success(.run(SyncCommand.Arguments(site: true))))
        XCTAssertEqual(parse(SyncCommand.self, "sync --no-site"), .success(.run(SyncCommand.Arguments(site: false))))
        XCTAssertEqual(parse(SyncCommand.self, "sync"), .success(.run(SyncCommand.Arguments(site: nil))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync --no-metadata --no-companions"),
            .success(.run(SyncCommand.Arguments(given: ShowSettings(metadata: false, companions: false)))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync --metadata --companions"),
            .success(.run(SyncCommand.Arguments(given: ShowSettings(metadata: true, companions: true)))))
    }

    func test_parse_dryRun() {
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --dry-run"),
            .success(.run(SyncCommand.Arguments(feeds: ["feed"], dryRun: true))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --dry-run --json"),
            .success(.run(SyncCommand.Arguments(feeds: ["feed"], json: true, dryRun: true))))
    }

    func test_parse_nameTemplate() throws {
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --name {date}_{title}"),
            .success(
                .run(
                    SyncCommand.Arguments(
                        feeds: ["feed"], given: ShowSettings(name: "{date}_{title}")))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --name {date}_{titel}"),
            .failure(
                UsageError(
                    message: "option '--name': name template '{date}_{titel}' cannot be used: it has an unknown field "
                        + "{titel}; the fields are {title} {date} {feed} {episode} {season} {guid} {year} {month} "
                        + "{day} {number}",
                    command: "sync")))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --name /tmp/{title}"),
            .failure(
                UsageError(
                    message: "option '--name': name template '/tmp/{title}' cannot be used: it starts with '/'; names "
                        + "stay inside the feed folder", command: "sync")))
    }

    func test_parse_filters() {
        XCTAssertEqual(
            parse(ListCommand.self, "list feed --limit 3 --match ^Ep --since 2025-01-31"),
            .success(
                .run(
                    ListCommand.Arguments(
                        feed: "feed", given: ShowSettings(limit: 3, since: "2025-01-31", match: "^Ep")))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --limit 0"),
            .failure(UsageError(message: "option '--limit' needs a whole number of episodes, got '0'", command: "sync"))
        )
        XCTAssertEqual(
            parse(ListCommand.self, "list feed --match (unclosed"),
            .failure(
                UsageError(message: "option '--match' needs a regular expression, got '(unclosed'", command: "list")))
        XCTAssertEqual(
            parse(ListCommand.self, "list feed --since yesterday"),
            .failure(
                UsageError(
                    message:
                        "option '--since' needs a date such as 2025-01-31 or 2025-01-31T18:00:00Z, got 'yesterday'",
                    command: "list")))
    }

    func test_parse_badNumbers_areUsageErrorsQuotingTheValue() {
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --retries many"),
            .failure(
                UsageError(
                    message: "option '--retries' needs a whole number from 0 to 100, got 'many'", command: "sync")))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --retries -1"),
            .failure(
                UsageError(message: "option '--retries' needs a whole number from 0 to 100, got '-1'", command: "sync"))
        )
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --max-feed-size lots"),
            .failure(
                UsageError(
                    message: "option '--max-feed-size' needs a size such as 512M or 2G (at least 1K), got 'lots'",
                    command: "sync")))
        XCTAssertEqual(
            parse(VerifyCommand.self, "verify --jobs 2"),
            .success(.run(VerifyCommand.Arguments(transfer: TransferSettings(jobs: 2)))))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --timeout 0"),
            .failure(UsageError(message: "option '--timeout' needs a number of seconds, got '0'", command: "sync")))
        XCTAssertEqual(
            parse(SyncCommand.self, "sync feed --wait=soon"),
            .failure(UsageError(message: "option '--wait' needs a number of seconds, got 'soon'", command: "sync")))
        XCTAssertEqual(
            parse(VerifyCommand.self, "verify a b"),
            .failure(UsageError(message: "unexpected argument 'b': verify takes one folder", command: "verify")))
        XCTAssertEqual(
            parse(VerifyCommand.self, "verify --repiar"),
            .failure(UsageError(message: "unknown option '--repiar' (did you mean '--repair'?)", command: "verify")))
    }

    func test_editDistance() {
        XCTAssertEqual(Suggestion.editDistance("sync", "sync"), 0)
        XCTAssertEqual(Suggestion.editDistance("snyc", "sync"), 2)
        XCTAssertEqual(Suggestion.editDistance("", "abc"), 3)
        XCTAssertEqual(Suggestion.editDistance("abc", ""), 3)
    }
}
