import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// A whole sync with the live seams (URLSession, FileManager) against a loopback server, into a temp folder.
@testable import ArchiverCore

final class LiveSyncTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        IsolatedHome.activate()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("live-sync")
    }

    override func tearDown() {
        server.stop()
        folder.remove()
    }

    private func archiver() -> Archiver {
        Archiver.live(now: { Date(timeIntervalSince1970: 1_800_000_000) })
    }

    /// No retries: these tests are about what one attempt keeps (retries have tests of their own).
    private let once = SyncOptions(retry: RetryPolicy(retries: 0))

    private func serveFeed(_ items: [(title: String, path: String)]) {
        var xml = "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>Loopback Show</title>"
        for (offset, item) in items.enumerated() {
            xml += "<item><title>\(item.title)</title><guid>g\(offset)</guid>"
            xml += "<pubDate>Fri, 10 Jan 2025 13:00:00 GMT</pubDate>"
            xml += "<enclosure url=\"\(item.path)\" type=\"audio/mpeg\"/></item>"
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    func test_sync_mixOfGoodAndBadEpisodes_keepsOnlyCompleteCheckedFiles() async throws {
        let audio = Data(repeating: 0xAB, count: 200_000)
        serveFeed([
            ("Good", "/good.mp3"), ("Missing", "/missing.mp3"), ("Server error", "/error.mp3"),
            ("Truncated", "/truncated.mp3"), ("Error page", "/errorpage.mp3"),
        ])
        server.route("/good.mp3", .ok(audio))
        server.route("/error.mp3", .status(500, "boom"))
        server.route(
            "/truncated.mp3", TestResponse(headers: [("Content-Type", "audio/mpeg")], body: audio, cutAfter: 50_000))
        server.route(
            "/errorpage.mp3", .ok("<!DOCTYPE html><html><body>Please log in</body></html>", type: "audio/mpeg"))

        let report = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: once)

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Good.mp3"])
        XCTAssertEqual(report.failed.map(\.episode.title), ["Missing", "Server error", "Truncated", "Error page"])
        XCTAssertEqual(report.failed[0].failure, .httpStatus(404))
        XCTAssertEqual(report.failed[1].failure, .httpStatus(500))
        XCTAssertEqual(report.failed[3].failure, .htmlPage)
        XCTAssertEqual(folder.visibleFiles(), ["Loopback Show/Good.mp3"])
        let good = folder.url.appendingPathComponent("Loopback Show/Good.mp3")
        XCTAssertEqual(FileManager.default.contents(atPath: good.path), audio)
        let modified = try FileManager.default.attributesOfItem(atPath: good.path)[.modificationDate] as? Date
        XCTAssertEqual(modified?.timeIntervalSince1970, 1_736_514_000)
        #if os(Linux)
            // Read back from outside, as `getfattr -n user.xdg.origin.url` would (Swift's Glibc lacks getxattr).
            let read = try ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "python3", "-c",
                    "import os, sys; sys.stdout.write(os.getxattr(sys.argv[1], 'user.xdg.origin.url').decode())",
                    good.path,
                ],
                environment: ["PATH": "/usr/bin:/bin"])
            if read.stderr.contains("Operation not supported") { return }  // a file system without user xattrs
            XCTAssertEqual(read.status, 0, read.stderr)
            XCTAssertEqual(read.stdout, server.url("/good.mp3").absoluteString, read.stderr)
        #endif
    }

    func test_sync_secondRun_downloadsOnlyWhatFailedBefore() async throws {
        serveFeed([("One", "/one.mp3"), ("Two", "/two.mp3")])
        server.route("/one.mp3", .ok(Data("one".utf8)))
        server.route("/two.mp3", .status(503))
        _ = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: once)
        server.route("/two.mp3", .ok(Data("two".utf8)))

        let second = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: once)

        let paths = server.requestedPaths
        XCTAssertEqual(paths.prefix(3).sorted(), ["/feed.xml", "/one.mp3", "/two.mp3"], "the first run tried both")
        XCTAssertEqual(Array(paths.dropFirst(3)), ["/feed.xml", "/two.mp3"], "the second only what failed")
        XCTAssertEqual(second.archived.map(\.lastPathComponent), ["Two.mp3"])
        XCTAssertEqual(second.alreadyArchived, 1)
    }

    func test_sync_downloadsInParallelUpToJobsAndReportsInFeedOrder() async throws {
        let titles = (1...8).map { "Episode \($0)" }
        serveFeed(titles.enumerated().map { ($1, "/\($0).mp3") })
        for index in 0..<8 {
            var response = TestResponse.ok(Data(repeating: UInt8(index), count: 40_000))
            // The first three are answered only once all three are being answered: they ran side by side.
            if index < 3 { response.holdUntilActive = 3 }
            // The first finishes last, after every other episode was asked for.
            if index == 0 { response.holdUntilRequested = "/7.mp3" }
            server.route("/\(index).mp3", response)
        }
        let events = EventLog()

        let report = try await archiver().sync(
            .remote(server.url("/feed.xml")), into: folder.url, options: SyncOptions(jobs: 3), onEvent: events.append)
        let order = events.all.compactMap { event -> String? in
            if case .archived(let episode, _, _) = event { return episode.title }
            return nil
        }

        XCTAssertEqual(report.archived.count, 8)
        XCTAssertEqual(server.maximumConcurrentRequests, 3, "three at once, never more")
        XCTAssertEqual(order, titles, "reported in feed order whatever order they finished in")
        XCTAssertEqual(report.archived.map(\.lastPathComponent), titles.map { "\($0).mp3" })
    }

    func test_sync_feedAnswering404_throwsAndCreatesNothing() async throws {
        do {
            _ = try await archiver().sync(.remote(server.url("/nothing.xml")), into: folder.url)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(
                error as? FeedError, .httpStatus(url: server.url("/nothing.xml").absoluteString, status: 404))
        }
        XCTAssertEqual(folder.files(), [])
    }

    func test_sync_feedRedirectingToFTP_isRefused() async throws {
        server.route("/feed.xml", .redirect(to: "ftp://127.0.0.1/feed.xml"))

        do {
            _ = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: once)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(
                error as? FeedError,
                .refusedRedirect(url: server.url("/feed.xml").absoluteString, location: "ftp://127.0.0.1/feed.xml"))
        }
    }

    func test_sync_localFeedFile_isReadFromDisk() async throws {
        let feed = folder.url.appendingPathComponent("local.json")
        try Data("[{\"url\": \"\(server.url("/x.mp3"))\", \"title\": \"Local\"}]".utf8).write(to: feed)
        server.route("/x.mp3", .ok(Data("x".utf8)))

        let report = try await archiver().sync(.local(path: feed.path), into: folder.url.appendingPathComponent("out"))

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Local.mp3"])
        XCTAssertEqual(report.feedTitle, "local")
    }

    func test_sync_bodyEndingWhenTheConnectionCloses_isArchivedAsCurlWould() async throws {
        // HTTP/1.1 without Content-Length or chunked encoding: the body is whatever arrives before the close.
        let audio = Data(repeating: 0x5A, count: 300_000)
        serveFeed([("Close delimited", "/close.mp3")])
        server.route(
            "/close.mp3", TestResponse(headers: [("Content-Type", "audio/mpeg")], body: audio, omitContentLength: true))

        let report = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: once)

        XCTAssertEqual(report.failed.map(\.failure), [])
        let file = folder.url.appendingPathComponent("Loopback Show/Close delimited.mp3")
        XCTAssertEqual(FileManager.default.contents(atPath: file.path), audio)
    }

    func test_damagedIndexes_stopTheSyncAndVerifyWithExit5_leavingTheIndexUntouched() async throws {
        serveFeed([("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("one".utf8)))
        let root = folder.url
        let feed = server.url("/feed.xml")
        _ = try await archiver().sync(.remote(feed), into: root, options: once)
        let index = root.appendingPathComponent("Loopback Show/.podarchive/index.json")
        let climbing = """
            {"version": 2, "feed": "x", "title": "Loopback Show", "episodes": [{"key": "g0", "url": "http://x/1.mp3",
            "file": "../x.mp3", "size": 3, "archived": "2025-01-01T00:00:00Z"}], "failures": []}
            """
        let deep = String(repeating: "[", count: 150_000) + String(repeating: "]", count: 150_000)
        for damage in [climbing, deep, "a folder"] {
            try? FileManager.default.removeItem(at: index)
            if damage == "a folder" {
                try FileManager.default.createDirectory(at: index, withIntermediateDirectories: false)
            } else {
                try Data(damage.utf8).write(to: index)
            }
            let requestsBefore = server.requests.count
            let archiver = archiver()
            let once = self.once

            let synced = try await withWatchdog(seconds: 20) {
                await Result { try await archiver.sync(.remote(feed), into: root, options: once) }
            }
            let verified = try await withWatchdog(seconds: 20) {
                await Result { try await archiver.verify(root, repair: true) }
            }

            for outcome in [synced.map { _ in () }, verified.map { _ in () }] {
                guard case .failure(let error) = outcome, case .damagedIndex = error as? ArchiveError else {
                    return XCTFail("\(damage.prefix(20)): expected a damaged index, got \(outcome)")
                }
            }
            // The feed's conditional request goes out while the index is read (its answer is then left unused).
            let asked = server.requests.dropFirst(requestsBefore).map(\.path)
            XCTAssertEqual(asked.filter { $0 != "/feed.xml" }, [], "stopped before downloading anything")
            XCTAssertLessThanOrEqual(asked.count, 1, "the feed asked for once at most")
            XCTAssertEqual(folder.visibleFiles(), ["Loopback Show/One.mp3"], "nothing downloaded twice")
            if damage != "a folder" {
                XCTAssertEqual(FileManager.default.contents(atPath: index.path), Data(damage.utf8), "left untouched")
            }
        }
    }

    func test_linksWhereStateIsKept_areRefused_neverWrittenThrough() async throws {
        serveFeed([("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("one".utf8)))
        let root = folder.url.appendingPathComponent("archive")
        let feed = server.url("/feed.xml")
        _ = try await archiver().sync(.remote(feed), into: root, options: once)
        let state = root.appendingPathComponent("Loopback Show/.podarchive")
        let outside = folder.url.appendingPathComponent("precious.txt")
        try Data("keep me".utf8).write(to: outside)

        // The lock file is a link to a file outside the archive (root's cron would overwrite any file).
        let lock = state.appendingPathComponent("lock")
        try FileManager.default.removeItem(at: lock)
        try FileManager.default.createSymbolicLink(at: lock, withDestinationURL: outside)
        let lockOutcome = await Result { try await archiver().sync(.remote(feed), into: root, options: once) }
        // The whole state folder is a link.
        try FileManager.default.removeItem(at: lock)
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.moveItem(at: state, to: elsewhere)
        try FileManager.default.createSymbolicLink(at: state, withDestinationURL: elsewhere)
        let folderOutcome = await Result { try await archiver().sync(.remote(feed), into: root, options: once) }

        for outcome in [lockOutcome, folderOutcome] {
            guard case .failure(let error) = outcome, case .storage(_, let reason) = error as? ArchiveError else {
                return XCTFail("expected a storage error, got \(outcome)")
            }
            XCTAssertEqual(reason, "it is a symbolic link, which podarchive never follows for its state")
        }
        XCTAssertEqual(FileManager.default.contents(atPath: outside.path), Data("keep me".utf8))
    }

    func test_showFolderThatIsALink_isFollowed_asUsersDoToPutAShowOnAnotherDisk() async throws {
        serveFeed([("One", "/1.mp3"), ("Two", "/2.mp3")])
        server.route("/1.mp3", .ok(Data("one".utf8)))
        let root = folder.url.appendingPathComponent("archive")
        let feed = server.url("/feed.xml")
        _ = try await archiver().sync(.remote(feed), into: root, options: once)
        let show = root.appendingPathComponent("Loopback Show")
        let otherDisk = folder.url.appendingPathComponent("other-disk")
        try FileManager.default.moveItem(at: show, to: otherDisk)
        try FileManager.default.createSymbolicLink(at: show, withDestinationURL: otherDisk)
        server.route("/2.mp3", .ok(Data("two".utf8)))

        let report = try await archiver().sync(.remote(feed), into: root, options: once)

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Two.mp3"])
        XCTAssertEqual(
            FileManager.default.contents(atPath: otherDisk.appendingPathComponent("Two.mp3").path), Data("two".utf8))
    }

    func test_sync_bodyEndingWhenTheConnectionCloses_shortOfTheFeedsLength_isACutNotAnEpisode() async throws {
        let audio = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 13) })
        let feed = """
            <rss version="2.0"><channel><title>Loopback Show</title><item><title>Close delimited</title><guid>c</guid>
            <enclosure url="/close.mp3" length="300000" type="audio/mpeg"/></item></channel></rss>
            """
        server.route("/feed.xml", .ok(feed, type: "application/rss+xml"))
        server.route("/close.mp3") { _, count in
            TestResponse(
                headers: [("Content-Type", "audio/mpeg")], body: audio, cutAfter: count == 0 ? 100_000 : nil,
                omitContentLength: true)
        }

        let first = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: once)
        let second = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: once)

        XCTAssertEqual(first.failed.map(\.failure), [.shortOfFeedLength(feedLength: 300_000, received: 100_000)])
        XCTAssertEqual(first.archived, [], "a cut body is never archived as the episode")
        XCTAssertEqual(second.archived.map(\.lastPathComponent), ["Close delimited.mp3"])
        let file = folder.url.appendingPathComponent("Loopback Show/Close delimited.mp3")
        XCTAssertEqual(FileManager.default.contents(atPath: file.path), audio)
    }

    func test_sync_diskFillingUpWhileDownloadsRun_stopsWithStorageErrorInsteadOfHanging() async throws {
        // The disk fills after three episodes: the fourth is refused while the next ones are starting. The run
        // stops, cancelling downloads that had only just begun: one of those used to wait forever.
        let titles = (0..<11).map { "Episode \($0)" }
        serveFeed(titles.enumerated().map { ($1, "/\($0).mp3") })
        for index in 0..<11 { server.route("/\(index).mp3", .ok(Data(repeating: UInt8(index), count: 50_000))) }
        let root = folder.url
        let feed = server.url("/feed.xml")

        for _ in 0..<5 {
            try? FileManager.default.removeItem(at: root)
            let disk = FillingDisk(freeChecksBeforeFull: 3)
            let archiver = Archiver.live(files: disk, now: { Date(timeIntervalSince1970: 1_800_000_000) })

            let outcome = try await withWatchdog(seconds: 20) {
                await Result { try await archiver.sync(.remote(feed), into: root, options: SyncOptions(jobs: 4)) }
            }

            guard case .failure(let error) = outcome, case .storage = error as? ArchiveError else {
                return XCTFail("a full disk stops the run with a storage error, got \(outcome)")
            }
        }
    }
}

/// The real file system, except that it reports a nearly full disk after a number of free-space checks.
private final class FillingDisk: RealFileStore, @unchecked Sendable {
    private let lock = NSLock()
    private var checksLeft: Int

    init(freeChecksBeforeFull: Int) { checksLeft = freeChecksBeforeFull }

    func attributesOfFileSystem(forPath path: String) throws -> [FileAttributeKey: Any] {
        let full = lock.withLock { () -> Bool in
            checksLeft -= 1
            return checksLeft < 0
        }
        return [.systemFreeSize: NSNumber(value: full ? 4_096 : 1 << 40)]
    }
}
