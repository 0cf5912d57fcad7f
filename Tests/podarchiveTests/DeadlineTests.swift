import Foundation
import TestSupport
import XCTest

// Every command that waits on the network has a deadline (--timeout, the same default as sync's), and a fetch
// that runs out of time or is cancelled ends with one sentence, never a type name.
@testable import ArchiverCore
@testable import podarchive

final class DeadlineTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var feedURL: String { server.url("/feed.xml").absoluteString }

    /// A feed that sends its first bytes, then one byte a second: no idle timeout ever fires.
    private func serveTricklingFeed() {
        let xml = "<rss version=\"2.0\"><channel><title>Slow</title>" + String(repeating: " ", count: 4000)
        server.route("/feed.xml", TestResponse(body: Data(xml.utf8), trickle: (chunk: 1, interval: 1)))
    }

    /// Runs the command line, returning its exit code and how long it took.
    private func timed(_ arguments: String...) async -> (ExitCode, TimeInterval) {
        let started = Date()
        let code = await run(arguments)
        return (code, Date().timeIntervalSince(started))
    }

    private func assertOneSentence(
        _ text: String, saying words: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 1, text, file: file, line: line)
        XCTAssertTrue(text.hasPrefix("podarchive: "), text, file: file, line: line)
        XCTAssertTrue(text.contains(words), text, file: file, line: line)
        XCTAssertFalse(text.contains("Error"), text, file: file, line: line)
    }

    func test_list_takesATimeout_andATricklingFeedEndsWithOneSentence() async {
        serveTricklingFeed()
        let (code, seconds) = await timed("list", feedURL, "--timeout", "1")
        XCTAssertEqual(code, .feedFailed)
        XCTAssertLessThan(seconds, 60, "ended by --timeout 1, long before the default of 3600 s")
        assertOneSentence(errors.text, saying: "not complete within 1 second")
    }

    func test_add_takesATimeout_andATricklingFeedEndsWithOneSentence_nothingSubscribed() async {
        serveTricklingFeed()
        let (code, seconds) = await timed("add", feedURL, "--to", root.path, "--timeout", "1")
        XCTAssertEqual(code, .feedFailed)
        XCTAssertLessThan(seconds, 60)
        assertOneSentence(errors.text, saying: "not complete within 1 second")
        output.clear()
        _ = await run("feeds", "--to", root.path)
        XCTAssertFalse(output.text.contains("Slow"), output.text)
    }

    func test_verifyUpstream_takesATimeout_andAHostThatNeverAnswersIsUnknown() async {
        serveFeed(episodes: [("One", "one.mp3")])
        server.route("/one.mp3", .ok(Data("one".utf8)))
        let synced = await run("sync", feedURL, "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)
        server.route("/one.mp3", TestResponse(delayBeforeHeaders: 3600))
        output.clear()
        let (code, seconds) = await timed("verify", root.path, "--upstream", "--timeout", "1")
        XCTAssertEqual(code, .success, "link rot upstream is no fault of the archive")
        XCTAssertLessThan(seconds, 60)
        XCTAssertTrue(output.text.contains("1 without an answer"), output.text)
    }

    func test_defaultTimeout_isTheSameForEveryNetworkCommand() {
        for command in ["sync", "add", "list", "verify"] {
            XCTAssertTrue(HelpText.text(for: command).contains("--timeout SECONDS"), command)
            XCTAssertTrue(HelpText.text(for: command).contains("(default 3600"), command)
        }
    }

    /// Runs the command line until the feed has been asked for, then cancels it (as Ctrl-C does).
    private func cancelledWhileFetchingTheFeed(_ arguments: [String]) async -> ExitCode {
        server.route("/feed.xml", TestResponse(delayBeforeHeaders: 3600))
        let tool = CommandLineTool(
            environment: ProcessEnvironment(
                variables: ["PODARCHIVE_CONFIG_DIR": configurationFolder.path], currentDirectory: folder.url.path),
            output: output, errors: errors, makeArchiver: { Archiver.live() })
        let running = Task { await tool.run(arguments) }
        let server = self.server!
        let asked = await Task.detached { server.waitUntilRequested("/feed.xml") }.value
        XCTAssertTrue(asked)
        running.cancel()
        return await running.value
    }

    func test_aCancelledList_saysSoInOneSentence() async throws {
        let code = await cancelledWhileFetchingTheFeed(["list", feedURL])
        XCTAssertEqual(code, .interrupted)
        assertOneSentence(errors.text, saying: "interrupted")
        XCTAssertFalse(errors.text.contains("CancellationError"), errors.text)
    }

    func test_aCancelledAdd_saysSoInOneSentence_andSubscribesNothing() async throws {
        let code = await cancelledWhileFetchingTheFeed(["add", feedURL, "--to", root.path])
        XCTAssertEqual(code, .interrupted)
        assertOneSentence(errors.text, saying: "interrupted")
        XCTAssertFalse(errors.text.contains("CancellationError"), errors.text)
    }
}
