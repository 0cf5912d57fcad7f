// Conditional feed fetches on loopback: a 304 still retries failures and missing files, and never hides work an
// earlier, narrower run left undone.
import ArchiverCore
import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

final class ConditionalFetchTests: LoopbackArchiveTestCase {
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
        serveFeed(etag: "\"feed-1\"")
        let audio = self.audio
        server.route("/big.mp3") { request, _ in TestResponse.file(audio, for: request) }
        _ = try await sync()
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("Flaky/Big one.mp3"))

        let second = try await sync()

        XCTAssertTrue(second.feedUnchanged)
        XCTAssertEqual(second.archived.map(\.lastPathComponent), ["Big one.mp3"])
        XCTAssertEqual(archived, audio)
    }

    func test_unchangedFeedWithNothingToDo_downloadsNothing() async throws {
        serveFeed(etag: "\"feed-1\"")
        let audio = self.audio
        server.route("/big.mp3") { request, _ in TestResponse.file(audio, for: request) }
        _ = try await sync()

        let second = try await sync()

        XCTAssertTrue(second.feedUnchanged)
        XCTAssertEqual(second.alreadyArchived, 1)
        XCTAssertEqual(server.requestedPaths, ["/feed.xml", "/big.mp3", "/feed.xml"])
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
