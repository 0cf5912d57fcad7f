import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// The command line as a user meets it: what it prints where, and the exit code cron sees.
@testable import ArchiverCore
@testable import podarchive

final class CommandLineToolTests: CommandLineTestCase {
    // MARK: - Exit codes

    func test_sync_allArchived_exits0AndSaysWhatItDid() async {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive")

        XCTAssertEqual(code, .success)
        XCTAssertEqual(output.lines, ["archived CLI Show/One.mp3 (5 B)", "CLI Show: 1 archived, 0 already archived"])
        XCTAssertEqual(errors.text, "")
        XCTAssertEqual(folder.visibleFiles(), ["archive/CLI Show/One.mp3"])
    }

    func test_sync_quiet_printsOnlyErrors_verbose_saysWhatItSkipped() async {
        serveFeed(episodes: [("One", "/1.mp3"), ("Gone", "/gone.mp3"), ("Trailer", "")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))

        let quiet = await run(
            "sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--quiet", "--retries", "0")
        let quietOutput = output.text
        let verboseOutput = CapturedOutput()
        let verbose = await CommandLineTool(
            environment: ProcessEnvironment(variables: [:], currentDirectory: folder.url.path), output: verboseOutput,
            errors: CapturedOutput(),
            makeArchiver: { Archiver.live() }
        ).run(["sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--verbose", "--retries", "0"])

        XCTAssertEqual(quiet, .episodesFailed)
        XCTAssertEqual(quietOutput, "", "--quiet: nothing on standard output")
        XCTAssertEqual(errors.lines.count, 1, "but the failure is still reported")
        XCTAssertEqual(verbose, .episodesFailed)
        XCTAssertEqual(
            verboseOutput.lines,
            [
                "CLI Show <\(server.url("/feed.xml"))>: feed lists 2 episodes (and 1 item with nothing to download, "
                    + "left out), 1 to fetch",
                "left out: item \"Trailer\" has nothing to download",
                "skipped One: already archived as One.mp3",
                "CLI Show: 0 archived, 1 failed, 1 already archived, 1 item with nothing to download",
            ], "the item with nothing to download is counted in the summary too")
    }

    func test_sync_someEpisodesFail_exits1WithOneLinePerFailureNamingEpisodeURLAndReason() async {
        serveFeed(episodes: [("One", "/1.mp3"), ("Gone", "/gone.mp3")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive")

        XCTAssertEqual(code, .episodesFailed)
        XCTAssertEqual(
            errors.lines, ["podarchive: episode \"Gone\" <\(server.url("/gone.mp3"))>: server answered HTTP 404"])
        XCTAssertEqual(output.lines.last, "CLI Show: 1 archived, 1 failed, 0 already archived")
    }

    func test_sync_feedUnreachableOrNotAFeed_exits3WithOneLine() async throws {
        server.route("/page.html", .ok("<!DOCTYPE html><html><body>hi</body></html>", type: "text/html"))
        let closed = try TestHTTPServer()
        let closedURL = closed.url("/feed.xml").absoluteString
        closed.stop()

        let cases: [(String, String)] = [
            (
                server.url("/missing.xml").absoluteString,
                "podarchive: feed \(server.url("/missing.xml")) answered HTTP 404"
            ),
            (
                server.url("/page.html").absoluteString,
                "podarchive: \(server.url("/page.html")) is a web page that links to no feed (no <link "
                    + "rel=\"alternate\"> to RSS, Atom or JSON Feed in its head); give the show's feed URL"
            ),
            (closedURL, "podarchive: feed \(closedURL) could not be fetched: connection refused"),
            (
                "ftp://127.0.0.1/feed.xml",
                "podarchive: feed ftp://127.0.0.1/feed.xml: unsupported scheme; use an http(s) URL or a local file path"
            ),
            (
                "no-such-file.xml",
                "podarchive: feed file \(folder.url.path)/no-such-file.xml cannot be read: no such file"
            ),
        ]
        for (feed, message) in cases {
            let errors = CapturedOutput()
            // Waits between tries are skipped and recorded: a refused connection is tried again, as an episode is.
            let sleeper = SpySleeper()
            let tool = CommandLineTool(
                environment: ProcessEnvironment(variables: [:], currentDirectory: folder.url.path), output: output,
                errors: errors,
                makeArchiver: {
                    Archiver.live(sleep: { try await sleeper.sleep($0) }, jitter: { 0.5 })
                })

            let code = await tool.run(["sync", feed, "--to", "archive"])

            // A source that is no feed location at all is a bad argument (2); the others could not be read (3).
            XCTAssertEqual(code, feed.hasPrefix("ftp:") ? .usage : .feedFailed, feed)
            XCTAssertEqual(errors.lines, [message], feed)
            XCTAssertEqual(sleeper.delays, feed == closedURL ? [1, 2, 4] : [], feed)
        }
        XCTAssertEqual(folder.files(), [], "a failed feed creates nothing")
    }

    func test_sync_sameFeedTwice_onTheCommandLineAndInAList_isSyncedOnce() async throws {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))
        let feed = server.url("/feed.xml").absoluteString
        let list = folder.url.appendingPathComponent("feeds.txt")
        try Data("\(feed)\n".utf8).write(to: list)

        let code = await run("sync", feed, feed, "--feeds", "feeds.txt", "--to", "archive")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.requestedPaths.filter { $0 == "/feed.xml" }.count, 1)
        XCTAssertEqual(output.lines.filter { $0.hasPrefix("CLI Show:") }.count, 1)
    }

    func test_sync_feedsFile_relativePathsStartAtTheFilesFolder_notTheCurrentOne() async throws {
        // The systemd service runs from elsewhere: "shows/local.xml" in ~/.config/podarchive/feeds means
        // ~/.config/podarchive/shows/local.xml.
        let config = folder.url.appendingPathComponent("config")
        try FileManager.default.createDirectory(
            at: config.appendingPathComponent("shows"), withIntermediateDirectories: true)
        let json = "[{\"url\": \"\(server.url("/1.mp3"))\", \"title\": \"Local one\"}]"
        try Data(json.utf8).write(to: config.appendingPathComponent("shows/local.json"))
        try Data("shows/local.json\n".utf8).write(to: config.appendingPathComponent("feeds"))
        server.route("/1.mp3", .ok(Data("audio".utf8)))

        let code = await run("sync", "--feeds", "config/feeds", "--to", "archive")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(folder.visibleFiles().filter { $0.hasPrefix("archive/") }, ["archive/local/Local one.mp3"])
    }

    func test_sync_badLineInAFeedsFile_isReportedAndSkipped_theOthersSyncAndTheExitIs2() async throws {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))
        let list = folder.url.appendingPathComponent("feeds.txt")
        try Data("ftp://127.0.0.1/old.xml\n\(server.url("/feed.xml"))\n".utf8).write(to: list)

        let code = await run("sync", "--feeds", "feeds.txt", "--to", "archive")

        XCTAssertEqual(code, .usage)
        XCTAssertEqual(
            errors.lines,
            [
                "podarchive: feed list \(list.path): feed ftp://127.0.0.1/old.xml: unsupported scheme; use an http(s) "
                    + "URL or a local file path"
            ])
        XCTAssertEqual(folder.visibleFiles().filter { $0.hasPrefix("archive/") }, ["archive/CLI Show/One.mp3"])
    }

    func test_sync_severalFeeds_oneFailingNeverStopsTheOthers_exitIsTheWorst() async throws {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))
        let list = folder.url.appendingPathComponent("feeds.txt")
        try Data("# two feeds\n\(server.url("/missing.xml"))\n".utf8).write(to: list)

        let code = await run(
            "sync", server.url("/feed.xml").absoluteString, "--feeds", "feeds.txt", "--to", "archive", "--json")

        XCTAssertEqual(code, .feedFailed, "one feed failed to be read: 3 beats the other's 0")
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any], output.text)
        let feeds = try XCTUnwrap(object["feeds"] as? [[String: Any]])
        XCTAssertEqual(feeds.map { $0["status"] as? String }, ["ok", "feed-failed"])
        XCTAssertEqual(feeds.first?["archived"] as? [String], ["CLI Show/One.mp3"])
        XCTAssertEqual(errors.lines, ["podarchive: feed \(server.url("/missing.xml")) answered HTTP 404"])
    }

    func test_sync_dryRun_walksThePagesAsSyncDoes_andPlansTheSameEpisodes() async {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Paged</title>
                <atom:link rel="next" href="/page2.xml"/>
                <item><title>New</title><guid>n</guid><enclosure url="/n.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route(
            "/page2.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Paged</title>
                <item><title>Old</title><guid>o</guid><enclosure url="/o.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--dry-run")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(output.lines.last, "Paged: 2 to fetch, 0 already archived (dry run)", output.text)
        XCTAssertTrue(output.text.contains("would fetch Old <\(server.url("/o.mp3"))> as Old.mp3"), output.text)
        XCTAssertEqual(server.requestedPaths, ["/feed.xml", "/page2.xml"])
        XCTAssertEqual(folder.files(), [])
    }

    func test_sync_dryRun_saysWhatItWouldFetchAndCreatesNothing() async {
        serveFeed(episodes: [("One", "/1.mp3"), ("Two", "/2.mp3")])

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--dry-run")

        XCTAssertEqual(code, .success)
        XCTAssertEqual(
            output.lines,
            [
                "would fetch One <\(server.url("/1.mp3"))> as One.mp3",
                "would fetch Two <\(server.url("/2.mp3"))> as Two.mp3",
                "CLI Show: 2 to fetch, 0 already archived (dry run)",
            ])
        XCTAssertEqual(server.requestedPaths, ["/feed.xml"])
        XCTAssertEqual(folder.files(), [])

        // Trying a --name template before using it: the names are those a sync would give.
        let preview = CapturedOutput()
        let tool = CommandLineTool(
            environment: ProcessEnvironment(variables: [:], currentDirectory: folder.url.path), output: preview,
            errors: errors,
            makeArchiver: {
                Archiver.live()
            })
        _ = await tool.run([
            "sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--dry-run", "--name", "{feed}/{title}",
        ])
        XCTAssertEqual(
            preview.lines.first, "would fetch One <\(server.url("/1.mp3"))> as CLI Show/One.mp3")
        XCTAssertEqual(folder.files(), [])
    }

    func test_sync_dryRunWithJSON_printsThePlanAsJSONAndCreatesNothing() async throws {
        serveFeed(episodes: [("One", "/1.mp3"), ("Two", "/2.mp3")])

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--dry-run", "--json")

        XCTAssertEqual(code, .success)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let feed = try XCTUnwrap((object?["feeds"] as? [[String: Any]])?.first)
        XCTAssertEqual(feed["title"] as? String, "CLI Show")
        XCTAssertEqual(feed["alreadyArchived"] as? Int, 0)
        let downloads = try XCTUnwrap(feed["downloads"] as? [[String: Any]])
        XCTAssertEqual(downloads.map { $0["file"] as? String }, ["One.mp3", "Two.mp3"])
        XCTAssertEqual(downloads.map { $0["missing"] as? Bool }, [false, false])
        XCTAssertEqual(folder.files(), [])
    }

    func test_sync_unreadableFeedList_exits2() async {
        let code = await run("sync", "--opml", "nowhere.opml", "--to", "archive")

        XCTAssertEqual(code, .usage)
        XCTAssertEqual(errors.lines, ["podarchive: feed list \(folder.url.path)/nowhere.opml cannot be read"])
        XCTAssertEqual(folder.files(), [])
    }

    func test_usageErrors_exit2_sayingTheProblemInOneLine_andWhereTheHelpIs() async {
        let code = await run("sync", "feed.xml", "--too", "x")

        XCTAssertEqual(code, .usage)
        XCTAssertEqual(
            errors.lines,
            ["podarchive: unknown option '--too' (did you mean '--to'?)", "see 'podarchive help sync'"])
        XCTAssertEqual(output.text, "")

        errors.clear()
        let code1 = await run("snyc")
        XCTAssertEqual(code1, .usage)
        XCTAssertEqual(
            errors.lines, ["podarchive: unknown command 'snyc' (did you mean 'sync'?)", "see 'podarchive help'"])
    }

    func test_sync_nameTemplate_namesTheFiles_andABadOneFetchesNothing() async {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))

        let bad = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--name", "{nmae}")
        XCTAssertEqual(bad, .usage)
        XCTAssertEqual(errors.lines.first?.hasPrefix("podarchive: option '--name': name template '{nmae}'"), true)
        XCTAssertEqual(server.requests.count, 0, "nothing is fetched for a command line that cannot run")

        let code = await run(
            "sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--name", "{feed}/{guid} {title}")
        XCTAssertEqual(code, .success)
        let files = folder.visibleFiles()
        XCTAssertEqual(files.count, 1)
        XCTAssertTrue(files[0].hasPrefix("archive/CLI Show/CLI Show/") && files[0].hasSuffix(" One.mp3"), "\(files)")
    }

    func test_sync_archiveFolderUnwritable_exits5() async throws {
        serveFeed(episodes: [("One", "/1.mp3")])
        let blocker = folder.url.appendingPathComponent("file-not-folder")
        try Data("x".utf8).write(to: blocker)

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", blocker.path)

        XCTAssertEqual(code, .archiveFailed)
        XCTAssertTrue(
            errors.lines.first?.hasPrefix(
                "podarchive: cannot create archive folder \(blocker.path)/CLI Show/.podarchive") ?? false, errors.text)
    }

    func test_sync_feedLockedByAnotherProcess_exits4NamingIt() async throws {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))
        _ = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive")
        let lockFile = folder.url.appendingPathComponent("archive/CLI Show/.podarchive/lock")
        let held = try XCTUnwrap(FlockLocker().tryLock(lockFile), "the test takes the lock as another process would")
        defer { held.unlock() }

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive")

        XCTAssertEqual(code, .locked)
        XCTAssertEqual(
            errors.lines,
            [
                "podarchive: \(folder.url.path)/archive/CLI Show is being synced by process \(getpid()); try again later or pass --wait SECONDS"
            ])
    }
}
