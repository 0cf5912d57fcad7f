import Foundation
import XCTest

// Short options as getopt reads them: -q, -v, -n, -j N, clusters (-qn, -j4, -nj 4), beside --opt=value and --.
@testable import ArchiverCore
@testable import podarchive

final class ShortOptionTests: CommandLineTestCase {
    private func parse(_ line: String) -> Result<Parsed<SyncCommand.Arguments>, UsageError> {
        CommandLineParser.parsed(SyncCommand.self, line)
    }

    private func sync(_ line: String) throws -> SyncCommand.Arguments {
        guard case .success(.run(let arguments)) = parse(line) else {
            return try XCTUnwrap(nil, "'\(line)' did not parse as a sync: \(parse(line))")
        }
        return arguments
    }

    func test_shortFlags_alone_andCombined() throws {
        XCTAssertEqual(try sync("sync -q feed").verbosity, .quiet)
        XCTAssertEqual(try sync("sync -v feed").verbosity, .verbose)
        XCTAssertEqual(try sync("sync -n feed").dryRun, true)
        let combined = try sync("sync -qn feed")
        XCTAssertEqual(combined.verbosity, .quiet)
        XCTAssertEqual(combined.dryRun, true)
        XCTAssertEqual(combined.feeds, ["feed"])
        XCTAssertEqual(CommandLineParser.parsed(ListCommand.self, "list -h"), .success(.help))
        XCTAssertEqual(parse("sync -nh"), .success(.help))
    }

    func test_jobs_takesItsValueJoinedOrNext_asGetoptDoes() throws {
        XCTAssertEqual(try sync("sync -j 4 feed").transfer.jobs, 4)
        XCTAssertEqual(try sync("sync -j4 feed").transfer.jobs, 4)
        let cluster = try sync("sync -nj 4 feed")
        XCTAssertEqual(cluster.transfer.jobs, 4)
        XCTAssertEqual(cluster.dryRun, true)
        XCTAssertEqual(cluster.feeds, ["feed"])
        XCTAssertEqual(try sync("sync -qnj6 feed").transfer.jobs, 6)
        XCTAssertEqual(
            CommandLineParser.parsed(VerifyCommand.self, "verify -j2"),
            .success(.run(VerifyCommand.Arguments(transfer: TransferSettings(jobs: 2)))))
        XCTAssertEqual(try sync("sync --jobs=3 feed").transfer.jobs, 3, "--opt=value keeps working")
        XCTAssertEqual(try sync("sync -- -q").feeds, ["-q"], "-- ends options")
        XCTAssertEqual(try sync("sync -j 2 --jobs 5 feed").transfer.jobs, 5, "the last one given counts")
    }

    func test_shortOptionMistakes_areOneLineNamingTheOption() {
        XCTAssertEqual(parse("sync -x feed"), .failure(UsageError(message: "unknown option '-x'", command: "sync")))
        XCTAssertEqual(parse("sync -qx feed"), .failure(UsageError(message: "unknown option '-x'", command: "sync")))
        XCTAssertEqual(
            CommandLineParser.parsed(ListCommand.self, "list -q feed"),
            .failure(UsageError(message: "unknown option '-q'", command: "list")))
        XCTAssertEqual(parse("sync -j"), .failure(UsageError(message: "option '-j' needs a value", command: "sync")))
        XCTAssertEqual(
            parse("sync -j99 feed"),
            .failure(
                UsageError(message: "option '--jobs' needs a whole number from 1 to 64, got '99'", command: "sync")))
        XCTAssertEqual(
            parse("sync -qv feed"),
            .failure(UsageError(message: "options '--quiet' and '--verbose' exclude each other", command: "sync")))
    }

    func test_unknownShortOption_exitsTwo_withOneLineNamingIt() async {
        let code = await run("sync", "-z", "feed.xml")

        XCTAssertEqual(code, .usage)
        XCTAssertEqual(errors.lines.first, "podarchive: unknown option '-z'")
        XCTAssertEqual(output.text, "")
    }
}
