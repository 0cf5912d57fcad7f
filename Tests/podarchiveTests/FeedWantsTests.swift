import Foundation
import TestSupport
import XCTest

// What a show wants and the 304, through the command line against a loopback feed behind an ETag: a saved filter
// costs one conditional request a night and says what it leaves out only when the feed was read; a change of what
// the show wants (a filter, --all, companions) or `forget --undo` makes the next sync read the feed in full, once;
// `sync -n` and `-v` say what the sync does.
@testable import ArchiverCore
@testable import podarchive

final class FeedWantsTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }
    private var feed: String { server.url("/feed.xml").absoluteString }

    /// Three dated episodes, newest first, behind the ETag `"same"`, which never changes; each has a transcript.
    private func serveThreeEpisodes() {
        var xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Wants</title>
            """
        for number in [3, 2, 1] {
            xml += """
                <item><title>Ep \(number)</title><guid>ep-\(number)</guid>
                <pubDate>Wed, 0\(number) Jan 2025 10:00:00 GMT</pubDate>
                <enclosure url="/\(number).mp3" type="audio/mpeg"/>
                <podcast:transcript url="/\(number).vtt" type="text/vtt"/></item>
                """
            server.route("/\(number).mp3", .ok(Data("audio \(number)".utf8)))
            server.route("/\(number).vtt", .ok("WEBVTT\n\n00:00.000 --> 00:01.000\nline \(number)\n", type: "text/vtt"))
        }
        let body = Data((xml + "</channel></rss>").utf8)
        server.route("/feed.xml") { request, _ in
            if request.headers["if-none-match"] == "\"same\"" { return TestResponse(status: 304) }
            return TestResponse(headers: [("ETag", "\"same\""), ("Content-Type", "application/rss+xml")], body: body)
        }
    }

    /// Whether each request for the feed so far was conditional, in order.
    private var conditional: [Bool] {
        server.requests.filter { $0.path == "/feed.xml" }.map { $0.headers["if-none-match"] != nil }
    }

    private func sync(_ arguments: String...) async -> (ExitCode, String) {
        output.clear()
        let code = await run(["sync"] + arguments + ["--to", root])
        return (code, output.text)
    }

    func test_aSavedLimit_costsOneConditionalRequestANight_andSaysWhatItLeavesOutWhenTheFeedIsRead() async throws {
        serveThreeEpisodes()

        let (first, firstLines) = await sync(feed, "--limit", "1")
        let (night, nightLines) = await sync("--json")
        let (verbose, verboseLines) = await sync("--verbose")

        XCTAssertEqual([first, night, verbose], [.success, .success, .success], errors.text)
        XCTAssertTrue(firstLines.contains("2 more listed, left out by --limit 1"), firstLines)
        XCTAssertEqual(conditional, [false, true, true], "one conditional request a night, answered 304")
        XCTAssertTrue(nightLines.contains("\"feedUnchanged\": true"), nightLines)
        XCTAssertTrue(nightLines.contains("\"leftOut\": 0"), "a 304 says nothing new: \(nightLines)")
        XCTAssertFalse(verboseLines.contains("left out by"), "a 304 says nothing new: \(verboseLines)")
        XCTAssertTrue(verboseLines.contains("feed lists 3 episodes, 0 to fetch"), verboseLines)
        XCTAssertEqual(server.requests.count { $0.path.hasSuffix(".mp3") }, 1)
    }

    func test_aChangeOfWhatTheShowWants_readsTheFeedInFullOnce() async throws {
        serveThreeEpisodes()
        _ = await sync(feed, "--limit", "1")

        let (wider, widerLines) = await sync(feed, "--limit", "2")
        let (same, _) = await sync()
        let (all, allLines) = await sync(feed, "--all")
        let (afterAll, _) = await sync()

        XCTAssertEqual([wider, same, all, afterAll], [.success, .success, .success, .success], errors.text)
        XCTAssertEqual(conditional, [false, false, true, false, true], "in full after each change, then a 304")
        XCTAssertTrue(widerLines.contains("1 archived"), widerLines)
        XCTAssertTrue(widerLines.contains("1 more listed, left out by --limit 2"), widerLines)
        XCTAssertTrue(allLines.contains("1 archived"), allLines)
        XCTAssertFalse(allLines.contains("left out by"), allLines)
        for number in 1...3 {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: root + "/Wants/Ep \(number).mp3"), "episode \(number)")
        }
    }

    func test_companionsTurnedBackOn_readTheFeedInFullOnce_andFetchWhatTheyLeftOut() async throws {
        serveThreeEpisodes()
        let (first, _) = await sync(feed, "--no-companions")
        let (back, _) = await sync(feed, "--companions")
        let (then, _) = await sync()

        XCTAssertEqual([first, back, then], [.success, .success, .success], errors.text)
        XCTAssertEqual(conditional, [false, false, true])
        XCTAssertTrue(transcriptKept, "the transcript left out by --no-companions is fetched")
    }

    /// Whether a transcript of the first episode is beside it, whatever its language suffix.
    private var transcriptKept: Bool {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Wants")) ?? []
        return names.contains { $0.hasPrefix("Ep 1") && $0.hasSuffix(".vtt") }
    }

    func test_forgetUndo_whileTheFeedAnswers304_fetchesTheEpisodeOnTheNextSync_andDryRunAndVerboseAgree()
        async throws
    {
        serveThreeEpisodes()
        _ = await sync(feed, "--no-companions")
        output.clear()
        let forget = await run("forget", "--to", root, "Wants", "Ep 2")
        let (afterForget, _) = await sync()
        output.clear()
        let undo = await run("forget", "--undo", "--to", root, "Wants", "Ep 2")
        let (dryRun, dryLines) = await sync(feed, "-n")
        let (back, backLines) = await sync("--verbose")
        let (then, _) = await sync()

        XCTAssertEqual(
            [forget, afterForget, undo, dryRun, back, then], Array(repeating: .success, count: 6), errors.text)
        XCTAssertTrue(dryLines.contains("would fetch Ep 2"), dryLines)
        XCTAssertTrue(backLines.contains("feed lists 3 episodes, 1 to fetch"), backLines)
        XCTAssertTrue(backLines.contains("1 archived"), backLines)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/Wants/Ep 2.mp3"))
        XCTAssertEqual(server.requests.count { $0.path == "/2.mp3" }, 2)
        // The first sync, the 304 after forget, the dry run's, the full read after the undo, then a 304 again.
        XCTAssertEqual(conditional, [false, true, false, false, true])
    }
}
