// Argument parsing is a pure function: every command line maps to a command or a usage error.
import ArchiverCore
import Foundation
import XCTest

@testable import podarchive

final class ArgumentsTests: XCTestCase {
    private func parse(_ line: String) -> Result<Command, UsageError> {
        Arguments.parse(line.split(separator: " ").map(String.init))
    }

    func test_parse_validCommandLines() {
        XCTAssertEqual(
            parse("sync https://x.org/feed"),
            .success(.sync(SyncArguments(feeds: ["https://x.org/feed"], archiveDirectory: nil))))
        XCTAssertEqual(
            parse("sync https://x.org/feed --to /srv/podcasts"),
            .success(.sync(SyncArguments(feeds: ["https://x.org/feed"], archiveDirectory: "/srv/podcasts"))))
        XCTAssertEqual(
            parse("sync --to=archive feed.xml"),
            .success(.sync(SyncArguments(feeds: ["feed.xml"], archiveDirectory: "archive"))))
        XCTAssertEqual(
            parse("sync -- -odd-name.xml"),
            .success(.sync(SyncArguments(feeds: ["-odd-name.xml"], archiveDirectory: nil)))
        )
        XCTAssertEqual(parse("list feed.xml"), .success(.list(ListArguments(feed: "feed.xml", json: false))))
        XCTAssertEqual(parse("list --json feed.xml"), .success(.list(ListArguments(feed: "feed.xml", json: true))))
        XCTAssertEqual(parse("help"), .success(.help(topic: nil)))
        XCTAssertEqual(parse("help sync"), .success(.help(topic: "sync")))
        XCTAssertEqual(parse("--help"), .success(.help(topic: nil)))
        XCTAssertEqual(parse("sync --help"), .success(.help(topic: "sync")))
        XCTAssertEqual(parse("list -h"), .success(.help(topic: "list")))
        XCTAssertEqual(parse("--version"), .success(.version))
    }

    func test_parse_mistakes_areUsageErrorsWithSuggestions() {
        XCTAssertEqual(Arguments.parse([]), .failure(UsageError(message: "missing command", command: nil)))
        XCTAssertEqual(
            parse("snyc feed"),
            .failure(UsageError(message: "unknown command 'snyc' (did you mean 'sync'?)", command: nil)))
        XCTAssertEqual(
            parse("lst feed"),
            .failure(UsageError(message: "unknown command 'lst' (did you mean 'list'?)", command: nil)))
        XCTAssertEqual(parse("frobnicate"), .failure(UsageError(message: "unknown command 'frobnicate'", command: nil)))
        XCTAssertEqual(parse("--verbose"), .failure(UsageError(message: "unknown option '--verbose'", command: nil)))
        XCTAssertEqual(parse("add"), .failure(UsageError(message: "missing feed URL or file", command: "add")))
        XCTAssertEqual(
            parse("sync --shard 3/2"),
            .failure(
                UsageError(
                    message: "option '--shard' needs K/N with K from 0 to N-1 (such as 0/4), got '3/2'", command: "sync"
                )))
        XCTAssertEqual(
            parse("sync --metadata --no-metadata"),
            .failure(
                UsageError(message: "options '--metadata' and '--no-metadata' exclude each other", command: "sync")))
        XCTAssertEqual(
            parse("feeds --json --opml"),
            .failure(UsageError(message: "options '--opml' and '--json' exclude each other", command: "feeds")))
        XCTAssertEqual(
            parse("remove"), .failure(UsageError(message: "missing feed URL or folder name", command: "remove")))
        XCTAssertEqual(
            parse("sync feed --too dir"),
            .failure(UsageError(message: "unknown option '--too' (did you mean '--to'?)", command: "sync")))
        XCTAssertEqual(
            parse("sync feed --to"), .failure(UsageError(message: "option '--to' needs a value", command: "sync")))
        XCTAssertEqual(
            parse("sync feed --to="), .failure(UsageError(message: "option '--to' needs a value", command: "sync")))
        XCTAssertEqual(parse("sync a b"), .success(.sync(SyncArguments(feeds: ["a", "b"]))))
        XCTAssertEqual(
            parse("list feed --jsn"),
            .failure(UsageError(message: "unknown option '--jsn' (did you mean '--json'?)", command: "list")))
        XCTAssertEqual(
            parse("list feed --json=yes"),
            .failure(UsageError(message: "option '--json' takes no value", command: "list")))
        XCTAssertEqual(parse("list"), .failure(UsageError(message: "missing feed URL or file", command: "list")))
        XCTAssertEqual(
            parse("help sink"), .failure(UsageError(message: "no help for 'sink' (did you mean 'sync'?)", command: nil))
        )
    }

    func test_parse_transferOptionsAndVerify() {
        XCTAssertEqual(
            parse("sync feed --retries 5 --timeout 90 --wait 30 --jobs 8"),
            .success(
                .sync(
                    SyncArguments(
                        feeds: ["feed"], transfer: TransferSettings(retries: 5, timeout: 90, wait: 30, jobs: 8)))
            ))
        XCTAssertEqual(CommandContext.options(TransferSettings(retries: 1, timeout: 2, wait: 3, jobs: 5)).jobs, 5)
        XCTAssertEqual(parse("sync feed --json"), .success(.sync(SyncArguments(feeds: ["feed"], json: true))))
        XCTAssertEqual(parse("sync feed --quiet"), .success(.sync(SyncArguments(feeds: ["feed"], verbosity: .quiet))))
        XCTAssertEqual(
            parse("sync feed --verbose"), .success(.sync(SyncArguments(feeds: ["feed"], verbosity: .verbose))))
        XCTAssertEqual(
            parse("sync feed --quiet --verbose"),
            .failure(UsageError(message: "options '--quiet' and '--verbose' exclude each other", command: "sync")))
        XCTAssertEqual(parse("verify"), .success(.verify(VerifyArguments(directory: nil))))
        XCTAssertEqual(
            parse("verify /srv/podcasts --repair"),
            .success(.verify(VerifyArguments(directory: "/srv/podcasts", repair: true))))
        XCTAssertEqual(parse("verify --to /srv/p"), .success(.verify(VerifyArguments(directory: "/srv/p"))))
        XCTAssertEqual(parse("help verify"), .success(.help(topic: "verify")))
    }

    func test_parse_severalFeedsAndFeedLists() {
        XCTAssertEqual(
            parse("sync --opml subs.opml --feeds list.txt https://a.example/feed"),
            .success(.sync(SyncArguments(feeds: ["https://a.example/feed"], opml: "subs.opml", feedList: "list.txt"))))
        XCTAssertEqual(parse("sync --opml subs.opml"), .success(.sync(SyncArguments(feeds: [], opml: "subs.opml"))))
    }

    func test_parse_dryRun() {
        XCTAssertEqual(parse("sync feed --dry-run"), .success(.sync(SyncArguments(feeds: ["feed"], dryRun: true))))
        XCTAssertEqual(
            parse("sync feed --dry-run --json"),
            .success(.sync(SyncArguments(feeds: ["feed"], json: true, dryRun: true))))
    }

    func test_parse_nameTemplate() throws {
        XCTAssertEqual(
            parse("sync feed --name {date}_{title}"),
            .success(
                .sync(
                    SyncArguments(
                        feeds: ["feed"], names: try NameTemplate("{date}_{title}"),
                        given: ShowSettings(name: "{date}_{title}")))))
        XCTAssertEqual(
            parse("sync feed --name {date}_{titel}"),
            .failure(
                UsageError(
                    message: "option '--name': name template '{date}_{titel}' cannot be used: it has an unknown field "
                        + "{titel}; the fields are {title} {date} {feed} {episode} {season} {guid}",
                    command: "sync")))
        XCTAssertEqual(
            parse("sync feed --name /tmp/{title}"),
            .failure(
                UsageError(
                    message: "option '--name': name template '/tmp/{title}' cannot be used: it starts with '/'; names "
                        + "stay inside the feed folder", command: "sync")))
    }

    func test_parse_filters() {
        XCTAssertEqual(
            parse("list feed --limit 3 --match ^Ep --since 2025-01-31"),
            .success(
                .list(
                    ListArguments(
                        feed: "feed",
                        filter: EpisodeFilter(limit: 3, since: Date(timeIntervalSince1970: 1_738_281_600), match: "^Ep")
                    ))))
        XCTAssertEqual(
            parse("sync feed --limit 0"),
            .failure(UsageError(message: "option '--limit' needs a whole number of episodes, got '0'", command: "sync"))
        )
        XCTAssertEqual(
            parse("list feed --match (unclosed"),
            .failure(
                UsageError(message: "option '--match' needs a regular expression, got '(unclosed'", command: "list")))
        XCTAssertEqual(
            parse("list feed --since yesterday"),
            .failure(
                UsageError(
                    message:
                        "option '--since' needs a date such as 2025-01-31 or 2025-01-31T18:00:00Z, got 'yesterday'",
                    command: "list")))
    }

    func test_parse_badNumbers_areUsageErrorsQuotingTheValue() {
        XCTAssertEqual(
            parse("sync feed --retries many"),
            .failure(
                UsageError(
                    message: "option '--retries' needs a whole number from 0 to 100, got 'many'", command: "sync")))
        XCTAssertEqual(
            parse("sync feed --retries -1"),
            .failure(
                UsageError(message: "option '--retries' needs a whole number from 0 to 100, got '-1'", command: "sync"))
        )
        XCTAssertEqual(
            parse("sync feed --max-feed-size lots"),
            .failure(
                UsageError(
                    message: "option '--max-feed-size' needs a size such as 512M or 2G (at least 1K), got 'lots'",
                    command: "sync")))
        XCTAssertEqual(
            parse("verify --jobs 2"), .success(.verify(VerifyArguments(transfer: TransferSettings(jobs: 2)))))
        XCTAssertEqual(
            parse("sync feed --timeout 0"),
            .failure(UsageError(message: "option '--timeout' needs a number of seconds, got '0'", command: "sync")))
        XCTAssertEqual(
            parse("sync feed --wait=soon"),
            .failure(UsageError(message: "option '--wait' needs a number of seconds, got 'soon'", command: "sync")))
        XCTAssertEqual(
            parse("verify a b"),
            .failure(UsageError(message: "unexpected argument 'b': verify takes one folder", command: "verify")))
        XCTAssertEqual(
            parse("verify --repiar"),
            .failure(UsageError(message: "unknown option '--repiar' (did you mean '--repair'?)", command: "verify")))
    }

    func test_editDistance() {
        XCTAssertEqual(Suggestion.editDistance("sync", "sync"), 0)
        XCTAssertEqual(Suggestion.editDistance("snyc", "sync"), 2)
        XCTAssertEqual(Suggestion.editDistance("", "abc"), 3)
        XCTAssertEqual(Suggestion.editDistance("abc", ""), 3)
    }
}
