import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// Conditional feed fetches on loopback: a 304 still retries failures and missing files, and never hides work an
// earlier, narrower run left undone.
@testable import ArchiverCore

final class ConditionalFetchTests: LoopbackArchiveTestCase {
    /// The one-episode feed behind the ETag `"feed-1"`, archived once.
    private func archiveBehindAnETag() async throws {
        serveFeed(etag: "\"feed-1\"")
        let audio = self.audio
        server.route("/big.mp3") { request, _ in TestResponse.file(audio, for: request) }
        _ = try await sync()
    }

    func test_unchangedFeed_is304AndStillRetriesEarlierFailures() async throws {
        serveFeed(etag: "\"feed-1\"")
        server.route("/big.mp3", .status(503))
        let first = try await sync(SyncOptions(retry: RetryPolicy(retries: 0)))
        let audio = self.audio
        server.route("/big.mp3") { request, _ in TestResponse.file(audio, for: request) }

        let second = try await sync()

        XCTAssertEqual(first.failed.count, 1)
        XCTAssertTrue(second.feedUnchanged)
        XCTAssertEqual(requests("/feed.xml")[1].headers["if-none-match"], "\"feed-1\"")
        XCTAssertEqual(second.archived.count, 1, "the failed episode was retried although the feed was unchanged")
        XCTAssertEqual(archived, audio)
    }

    func test_fileDeletedByHand_isFetchedAgainEvenWhenTheFeedIsUnchanged() async throws {
        try await archiveBehindAnETag()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Flaky/Big one.mp3"))

        let second = try await sync()

        XCTAssertTrue(second.feedUnchanged)
        XCTAssertEqual(second.archived.map(\.lastPathComponent), ["Big one.mp3"])
        XCTAssertEqual(archived, audio)
    }

    func test_unchangedFeedWithNothingToDo_downloadsNothing() async throws {
        try await archiveBehindAnETag()

        let second = try await sync()

        XCTAssertTrue(second.feedUnchanged)
        XCTAssertEqual(second.alreadyArchived, 1)
        XCTAssertEqual(server.requestedPaths, ["/feed.xml", "/big.mp3", "/feed.xml"])
    }

    // The conditional request goes out as soon as the show is locked and its validators read, before its index
    // is: what the index then says decides whether the answer stands.

    func test_unchangedFeed_afterARunWhoseJournalWasTorn_isAskedAgainInFull() async throws {
        try await archiveBehindAnETag()
        // A crash tore the record the run was appending: what it held is found again from the feed.
        let journal = folder.url.appendingPathComponent("Flaky/.podarchive/\(ArchiveLayout.journalFile)")
        try Data("{\"torn".utf8).write(to: journal)

        let second = try await sync()

        let asked = requests("/feed.xml").dropFirst().map { $0.headers["if-none-match"] }
        XCTAssertEqual(asked, ["\"feed-1\"", nil], "the 304 did not stand: the feed was read in full")
        XCTAssertFalse(second.feedUnchanged)
        XCTAssertEqual(second.alreadyArchived, 1)
        XCTAssertEqual(requests("/big.mp3").count, 1, "nothing downloaded again")
    }

    func test_unchangedFeed_withAFailureWhoseSecretOnlyTheFeedHolds_isAskedForOnce_inFull() async throws {
        serveFeed(etag: "\"feed-1\"", enclosure: "/big.mp3?token=s3cret")
        server.route("/big.mp3", .status(404))
        let once = SyncOptions(retry: RetryPolicy(retries: 0))
        let first = try await sync(once)

        let second = try await sync(once)

        XCTAssertEqual(first.failed.count, 1)
        let asked = requests("/feed.xml").dropFirst().map { $0.headers["if-none-match"] }
        XCTAssertEqual(asked, [nil], "one request, in full: the failed episode's address needs the feed's secret")
        XCTAssertEqual(second.failed.count, 1)
        XCTAssertEqual(
            server.requests.map(\.path).filter { $0.hasPrefix("/big.mp3") },
            Array(repeating: "/big.mp3?token=s3cret", count: 2),
            "tried again, with its secret")
    }

    func test_damagedIndex_whileTheFeedRequestIsUnderWay_stopsTheSync_andLeavesTheIndexAndLockAlone() async throws {
        try await archiveBehindAnETag()
        let index = folder.url.appendingPathComponent("Flaky/.podarchive/\(ArchiveLayout.indexFile)")
        let damaged = Data("{\"version\": 1, \"episodes\": [".utf8)
        try damaged.write(to: index)
        // The feed answers slowly: the index is found damaged while its request is still under way.
        server.route("/feed.xml", TestResponse(status: 304, delayBeforeHeaders: 0.3))

        for attempt in 1...2 {
            do {
                _ = try await sync()
                XCTFail("attempt \(attempt): a damaged index must stop the sync")
            } catch ArchiveError.damagedIndex(let path, _) {
                XCTAssertEqual(path, index.path, "attempt \(attempt): the second finds the lock free")
            }
        }
        XCTAssertEqual(FileManager.default.contents(atPath: index.path), damaged, "the index is left as it was")
    }

    /// Three episodes, newest first, behind an ETag that never changes.
    private func serveThreeEpisodes() {
        let xml = """
            <rss version="2.0"><channel><title>Flaky</title>
            <item><title>Three</title><guid>3</guid><pubDate>Wed, 03 Jan 2024 10:00:00 GMT</pubDate>
            <enclosure url="/3.mp3" type="audio/mpeg"/></item>
            <item><title>Two</title><guid>2</guid><pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>
            <enclosure url="/2.mp3" type="audio/mpeg"/></item>
            <item><title>One</title><guid>1</guid><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>
            <enclosure url="/1.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml") { request, _ in
            if request.headers["if-none-match"] == "\"same\"" { return TestResponse(status: 304) }
            return TestResponse(headers: [("ETag", "\"same\"")], body: Data(xml.utf8))
        }
        for number in 1...3 { server.route("/\(number).mp3", .ok(Data("episode \(number)".utf8))) }
    }

    func test_unchangedFeed_afterALimitedRun_stillFetchesWhatTheLimitLeftOut() async throws {
        serveThreeEpisodes()
        let first = try await sync(SyncOptions(filter: EpisodeFilter(limit: 1)))

        let second = try await sync()
        let third = try await sync()

        XCTAssertEqual(first.archived.map(\.lastPathComponent), ["Three.mp3"])
        XCTAssertNil(requests("/feed.xml")[1].headers["if-none-match"], "the feed is fetched in full, not as a 304")
        XCTAssertEqual(second.archived.map(\.lastPathComponent), ["Two.mp3", "One.mp3"])
        XCTAssertEqual(requests("/feed.xml")[2].headers["if-none-match"], "\"same\"", "complete now: 304 again")
        XCTAssertTrue(third.feedUnchanged)
        XCTAssertEqual(third.alreadyArchived, 3)
    }

    func test_unchangedFeed_afterANarrowerSince_fetchesTheOlderEpisodes() async throws {
        serveThreeEpisodes()
        let since = FeedDate.parseRFC3339("2024-01-02T00:00:00Z")!
        _ = try await sync(SyncOptions(filter: EpisodeFilter(since: since)))

        let wider = try await sync()

        XCTAssertEqual(wider.archived.map(\.lastPathComponent), ["One.mp3"])
    }
}
