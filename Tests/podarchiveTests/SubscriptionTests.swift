import Foundation
import TestSupport
import XCTest

// Subscriptions as a user meets them: `sync` remembers each show and its settings, `sync` alone syncs them all,
// `add`, `remove` and `feeds` manage them, and bad records or names get one clear line.
@testable import ArchiverCore
@testable import podarchive

final class SubscriptionTests: CommandLineTestCase {
    /// Serves show `name` at /<name>.xml with the given episodes (title, then path /<name>/<n>.mp3).
    private func serveShow(_ name: String, episodes: Int, dated: Bool = true, feedHeldUntilActive: Int? = nil) {
        var xml = "<rss version=\"2.0\"><channel><title>Show \(name)</title>"
        for number in 1...episodes {
            let path = "/\(name)/\(number).mp3"
            xml += "<item><title>\(name) \(number)</title><guid>\(name)-\(number)</guid>"
            if dated { xml += "<pubDate>Fri, 0\(number) Jan 2025 10:00:00 GMT</pubDate>" }
            xml += "<enclosure url=\"\(path)\" type=\"audio/mpeg\"/></item>"
            server.route(path, .ok(Data("audio of \(name) \(number)".utf8)))
        }
        var feed = TestResponse.ok(xml + "</channel></rss>", type: "application/rss+xml")
        feed.holdUntilActive = feedHeldUntilActive
        server.route("/\(name).xml", feed)
    }

    private var root: String { folder.url.appendingPathComponent("archive").path }

    private func feedsJSON() async throws -> [[String: Any]] {
        output.clear()
        let code = await run("feeds", "--json", "--to", root)
        XCTAssertEqual(code, .success, errors.text)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["feeds"] as? [[String: Any]], output.text)
    }

    func test_syncRemembersTheShowAndItsSettings_andSyncAloneUsesThem() async throws {
        serveShow("a", episodes: 3)
        let feed = server.url("/a.xml").absoluteString

        let first = await run("sync", feed, "--to", root, "--limit", "1", "--name", "{date} {title}")
        let firstFiles = folder.files()
        serveShow("a", episodes: 4)
        output.clear()
        let second = await run("sync", "--to", root)

        XCTAssertEqual(first, .success, errors.text)
        XCTAssertEqual(firstFiles.filter { $0.hasSuffix(".mp3") }, ["archive/Show a/2025-01-03 a 3.mp3"])
        XCTAssertEqual(second, .success, errors.text)
        XCTAssertEqual(
            folder.files().filter { $0.hasSuffix(".mp3") },
            ["archive/Show a/2025-01-03 a 3.mp3", "archive/Show a/2025-01-04 a 4.mp3"],
            "the saved --limit 1 and --name apply to 'sync' alone")
        let shows = try await feedsJSON()
        XCTAssertEqual(shows.count, 1)
        XCTAssertEqual(shows.first?["feed"] as? String, feed)
        XCTAssertEqual(shows.first?["episodes"] as? Int, 2)
        XCTAssertEqual(shows.first?["outcome"] as? String, "ok")
        let settings = try XCTUnwrap(shows.first?["settings"] as? [String: Any])
        XCTAssertEqual(settings["limit"] as? Int, 1)
        XCTAssertEqual(settings["name"] as? String, "{date} {title}")
    }

    func test_aSavedFilter_isNeverSilent_andAllClearsIt() async throws {
        serveFeed(episodes: [("One", "/1.mp3"), ("Two", "/2.mp3"), ("Three", "/3.mp3")])
        for path in ["/1.mp3", "/2.mp3", "/3.mp3"] { server.route(path, .ok(Data(repeating: 1, count: 100))) }
        let feed = server.url("/feed.xml").absoluteString
        _ = await run("sync", feed, "--to", root, "--limit", "1")
        output.clear()

        let plain = await run("sync", "--to", root, "--verbose")
        let plainLines = output.text
        output.clear()
        _ = await run("sync", "--to", root, "--json")
        let json = output.text
        output.clear()
        _ = await run("feeds", "--to", root)
        let feedsLines = output.text
        output.clear()
        let all = await run("sync", feed, "--to", root, "--all")
        let allLines = output.text
        output.clear()
        _ = await run("feeds", "--to", root)

        XCTAssertEqual(plain, .success, errors.text)
        XCTAssertTrue(plainLines.contains("feed lists 3 episodes"), plainLines)
        XCTAssertTrue(
            plainLines.contains(
                "2 more listed, left out by the saved filter (--limit 1): 'podarchive sync \(feed) --all' clears it"),
            plainLines)
        XCTAssertTrue(json.contains("\"leftOut\": 2"), json)
        XCTAssertTrue(feedsLines.contains("saved: --limit 1"), feedsLines)
        XCTAssertEqual(all, .success, errors.text)
        XCTAssertTrue(allLines.contains("2 archived"), allLines)
        XCTAssertFalse(output.text.contains("saved: --limit"), "cleared for good: \(output.text)")
    }

    func test_commandLineOverSaved_forThatRunOnly() async throws {
        serveShow("a", episodes: 3)
        let feed = server.url("/a.xml").absoluteString
        _ = await run("add", feed, "--to", root, "--limit", "1")

        // On the command line with no feed: over the saved settings, for this run; nothing saved.
        let code = await run("sync", "--to", root, "--limit", "2")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(folder.files().filter { $0.hasSuffix(".mp3") }.count, 2)
        let settings = try await feedsJSON().first?["settings"] as? [String: Any]
        XCTAssertEqual(settings?["limit"] as? Int, 1, "still the saved one")
    }

    func test_add_subscribesWithoutDownloading_aBadFeedIsNotSaved_andFeedsListsThem() async throws {
        serveShow("a", episodes: 2)
        serveShow("b", episodes: 1)
        server.route("/gone.xml", .status(404))

        let code = await run(
            "add", server.url("/a.xml").absoluteString, server.url("/gone.xml").absoluteString,
            server.url("/b.xml").absoluteString, "--to", root, "--metadata")
        let added = folder.files()
        output.clear()
        let listed = await run("feeds", "--to", root)

        XCTAssertEqual(code, .feedFailed, "a feed that cannot be read: exit 3")
        XCTAssertEqual(errors.lines.count, 1, errors.text)
        XCTAssertTrue(errors.text.contains("/gone.xml"), errors.text)
        XCTAssertEqual(added.filter { $0.hasSuffix(".mp3") }, [], "nothing downloaded")
        XCTAssertEqual(listed, .success)
        XCTAssertEqual(
            output.lines,
            [
                "Show a: 0 episodes, 0 B, never synced", "    \(server.url("/a.xml").absoluteString) -> Show a/",
                "    saved: --metadata",
                "Show b: 0 episodes, 0 B, never synced", "    \(server.url("/b.xml").absoluteString) -> Show b/",
                "    saved: --metadata",
            ], "the settings each show keeps are shown with it")
        XCTAssertFalse(server.requestedPaths.contains("/a/1.mp3"))
    }

    func test_remove_byFolderName_keepsEveryFile_unknownShowExits2() async throws {
        serveShow("a", episodes: 1)
        _ = await run("sync", server.url("/a.xml").absoluteString, "--to", root)
        let before = folder.files()

        output.clear()
        let removed = await run("remove", "Show a", "--to", root)
        let unknown = await run("remove", "Show z", "--to", root)

        XCTAssertEqual(removed, .success, errors.text)
        XCTAssertEqual(
            output.lines.first, "unsubscribed \(server.url("/a.xml").absoluteString); Show a/ keeps every file")
        XCTAssertEqual(unknown, .usage)
        XCTAssertEqual(
            errors.lines.last,
            "podarchive: no subscribed show has the feed URL or folder name 'Show z'; the archive follows no show yet")
        XCTAssertEqual(
            folder.files().filter { !$0.contains("/.podarchive/feeds/") },
            before.filter {
                !$0.contains("/.podarchive/feeds/")
            })
        let remaining = try await feedsJSON()
        XCTAssertEqual(remaining.count, 0)
    }

    func test_feedsOPML_isReadBackBySyncOPML_toTheSameSubscriptions() async throws {
        serveShow("a", episodes: 1)
        serveShow("b", episodes: 1)
        _ = await run("add", server.url("/a.xml").absoluteString, server.url("/b.xml").absoluteString, "--to", root)
        output.clear()
        _ = await run("feeds", "--opml", "--to", root)
        let opml = folder.url.appendingPathComponent("subscriptions.opml")
        try Data(output.text.utf8).write(to: opml)
        let other = folder.url.appendingPathComponent("other").path

        let code = await run("sync", "--opml", opml.path, "--to", other)
        output.clear()
        _ = await run("feeds", "--json", "--to", other)

        XCTAssertEqual(code, .success, errors.text)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let feeds = (object?["feeds"] as? [[String: Any]])?.compactMap { $0["feed"] as? String }
        XCTAssertEqual(feeds, [server.url("/a.xml").absoluteString, server.url("/b.xml").absoluteString])
    }

    func test_aShowWhoseFeedIsGone_failsAlone_andTwoShowsOfOneTitleGetTwoFolders() async throws {
        serveShow("a", episodes: 1)
        serveShow("b", episodes: 1)
        // Another feed whose show has the same title as a's.
        server.route(
            "/a-again.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Show a</title><item><title>other</title><guid>x</guid>"
                    + "<enclosure url=\"/b/1.mp3\" type=\"audio/mpeg\"/></item></channel></rss>",
                type: "application/rss+xml"))
        _ = await run(
            "add", server.url("/a.xml").absoluteString, server.url("/a-again.xml").absoluteString,
            server.url("/b.xml").absoluteString, "--to", root)
        server.route("/a.xml", .status(410, "gone"))

        let code = await run("sync", "--to", root)

        XCTAssertEqual(code, .feedFailed, errors.text)
        XCTAssertEqual(errors.lines.count, 1, errors.text)
        XCTAssertEqual(
            folder.files().filter { $0.hasSuffix(".mp3") }, ["archive/Show a (2)/other.mp3", "archive/Show b/b 1.mp3"])
        let outcomes = try await feedsJSON().map { ($0["feed"] as? String ?? "", $0["outcome"] as? String ?? "") }
        XCTAssertEqual(outcomes.first { $0.0.hasSuffix("/a.xml") }?.1, "feed-failed")
        XCTAssertEqual(outcomes.first { $0.0.hasSuffix("/b.xml") }?.1, "ok")
    }

    func test_damagedRecord_isNamed_theOthersStillSync_exit5() async throws {
        serveShow("a", episodes: 1)
        _ = await run("add", server.url("/a.xml").absoluteString, "--to", root)
        let records = folder.url.appendingPathComponent("archive/.podarchive/feeds")
        let damaged = records.appendingPathComponent("0000000000000000.json")
        try Data("{ not json".utf8).write(to: damaged)

        let code = await run("sync", "--to", root)

        XCTAssertEqual(code, .archiveFailed)
        XCTAssertEqual(
            errors.lines,
            ["podarchive: subscription record \(damaged.path) is damaged (it is not a subscription record); skipped"])
        XCTAssertEqual(folder.files().filter { $0.hasSuffix(".mp3") }, ["archive/Show a/a 1.mp3"])
    }

    func test_anArchiveFromBeforeSubscriptions_keepsWorking() async throws {
        serveShow("a", episodes: 2)
        let feed = server.url("/a.xml").absoluteString
        _ = await run("sync", feed, "--to", root)
        // What an earlier podarchive wrote: the feed and its folder, nothing more.
        let records = folder.url.appendingPathComponent("archive/.podarchive/feeds")
        let record = try XCTUnwrap(try FileManager.default.contentsOfDirectory(atPath: records.path).first)
        try Data("{\"feed\":\"\(feed)\",\"folder\":\"Show a\"}".utf8).write(
            to: records.appendingPathComponent(record))
        serveShow("a", episodes: 3)

        let code = await run("sync", "--to", root)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(folder.files().filter { $0.hasSuffix(".mp3") }.count, 3)
        let shows = try await feedsJSON()
        XCTAssertEqual(shows.first?["outcome"] as? String, "ok")
    }

    func test_severalShowsAtOnce_printEachShowTogether_inSubscriptionOrder() async throws {
        for name in ["a", "b", "c", "d"] { serveShow(name, episodes: 2) }
        _ = await run(
            "add", server.url("/a.xml").absoluteString, server.url("/b.xml").absoluteString,
            server.url("/c.xml").absoluteString, server.url("/d.xml").absoluteString, "--to", root)
        output.clear()
        // The four feeds are answered only once all four are asked for at once, and the first show's last
        // episode only after the last show's: the shows run side by side and the first finishes last.
        for name in ["a", "b", "c", "d"] { serveShow(name, episodes: 2, feedHeldUntilActive: 4) }
        var last = TestResponse.ok(Data("audio of a 2".utf8))
        last.holdUntilRequested = "/d/2.mp3"
        server.route("/a/2.mp3", last)

        let code = await run("sync", "--to", root, "--feed-jobs", "4")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(
            output.lines,
            ["a", "b", "c", "d"].flatMap { name in
                [
                    "archived Show \(name)/\(name) 1.mp3 (12 B)", "archived Show \(name)/\(name) 2.mp3 (12 B)",
                    "Show \(name): 2 archived, 0 already archived",
                ]
            })
        XCTAssertGreaterThanOrEqual(server.maximumConcurrentRequests, 4)
    }

    func test_severalShowsOnATerminal_aStatusLineSaysWhatRuns_andIsGoneAtTheEnd() async throws {
        for name in ["a", "b", "c"] { serveShow(name, episodes: 1) }
        _ = await run(
            "add", server.url("/a.xml").absoluteString, server.url("/b.xml").absoluteString,
            server.url("/c.xml").absoluteString, "--to", root)
        let screen = CapturedOutput()
        var tool = CommandLineTool(
            environment: ProcessEnvironment(variables: [:], currentDirectory: folder.url.path), output: screen,
            errors: errors, makeArchiver: { Archiver.live(now: { Date(timeIntervalSince1970: 0) }) })
        tool.terminal = TerminalInfo(
            outputIsTerminal: true, errorsIsTerminal: true, dumb: false, noColor: true, columns: { 80 })

        let code = await tool.run(["sync", "--to", root, "--feed-jobs", "3"])

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(screen.text.contains("of 3 shows done; syncing"), screen.text)
        XCTAssertEqual(
            Screen(screen.text).lines,
            ["a", "b", "c"].flatMap { name in
                ["archived Show \(name)/\(name) 1.mp3 (12 B)", "Show \(name): 1 archived, 0 already archived"]
            }, "the status line is gone; each show's lines stand together")
    }
}
