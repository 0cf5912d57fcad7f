import ArchiverCoreTesting
import Foundation
import XCTest

// An episode its publisher deleted (404 or 410 for good) stops failing every nightly run: after a week and three
// runs it is recorded as gone upstream, reported once, listed by verify, and tried again only when asked.
@testable import ArchiverCore

final class GoneUpstreamTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let feedURL = "https://example.com/feed.xml"
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let day: TimeInterval = 86_400
    private let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))

    private let feed = Data(
        """
        <rss><channel><title>Show</title>
        <item><title>Kept</title><guid>k</guid><enclosure url="https://example.com/kept.mp3"/></item>
        <item><title>Deleted</title><guid>d</guid><enclosure url="https://example.com/deleted.mp3"/></item>
        </channel></rss>
        """.utf8)

    private func world(deleted status: Int = 404, etag: String? = nil) -> ArchiveWorld {
        let clock = self.clock
        return ArchiveWorld(
            feedURL: feedURL, feed: feed, feedETag: etag,
            episodes: [
                "https://example.com/kept.mp3": SpyDownloader.Canned(body: Data("audio".utf8)),
                "https://example.com/deleted.mp3": SpyDownloader.Canned(status: status),
            ], clock: { clock.now }, onUnexpected: failOnUnexpected)
    }

    private func sync(_ world: ArchiveWorld, retryGone: Bool = false) async throws -> SyncReport {
        try await world.archiver.sync(
            .remote(URL(string: feedURL)!), into: root, options: SyncOptions(retryGone: retryGone))
    }

    func test_404OnRunsSpanningAWeek_isRecordedGoneOnce_thenNoLongerTriedOrFailing() async throws {
        let world = world()
        // Nightly runs: days 0, 3, 6 are failures (not yet a week); day 7 is the third run past a week.
        var reports: [SyncReport] = []
        for offset in [0.0, 3, 6, 7, 8] {
            clock.now = start.addingTimeInterval(offset * day)
            reports.append(try await sync(world))
        }

        XCTAssertEqual(reports[0...2].map { $0.failed.map(\.failure) }, Array(repeating: [.httpStatus(404)], count: 3))
        XCTAssertEqual(reports[3].failed.count, 0, "the run that gives up reports it as gone, not failed")
        XCTAssertEqual(reports[3].gone.map(\.episode.title), ["Deleted"])
        XCTAssertEqual(reports[3].gone.first?.since, "2027-01-15T08:00:00Z")
        XCTAssertEqual(reports[4].failed.count + reports[4].gone.count, 0, "reported once, then quiet")
        let requests = world.downloader.requests.filter { $0.url?.lastPathComponent == "deleted.mp3" }
        XCTAssertEqual(requests.count, 4, "not requested after it was recorded gone")
    }

    func test_goneEpisode_isTriedAgainWithRetryGone_andArchivedIfItCameBack() async throws {
        let world = world(deleted: 410)
        for offset in [0.0, 4, 8] {
            clock.now = start.addingTimeInterval(offset * day)
            _ = try await sync(world)
        }
        world.downloader.script("https://example.com/deleted.mp3", [SpyDownloader.Canned(body: Data("back".utf8))])

        let quiet = try await sync(world)
        let retried = try await sync(world, retryGone: true)

        XCTAssertEqual(quiet.archived, [])
        XCTAssertEqual(retried.archived.map(\.lastPathComponent), ["Deleted.mp3"])
    }

    func test_otherFailures_neverBecomeGone() async throws {
        let world = world(deleted: 503)
        var last: SyncReport?
        for offset in [0.0, 4, 8, 12, 30] {
            clock.now = start.addingTimeInterval(offset * day)
            last = try await sync(world)
        }

        XCTAssertEqual(last?.failed.map(\.failure), [.httpStatus(503)])
        XCTAssertEqual(last?.gone.count, 0)
    }

    func test_a404ThatWasOnceSomethingElse_startsCountingAgain() async throws {
        let world = world()
        clock.now = start
        _ = try await sync(world)
        clock.now = start.addingTimeInterval(3 * day)
        world.downloader.script("https://example.com/deleted.mp3", [SpyDownloader.Canned(status: 500)])
        _ = try await sync(world)
        world.downloader.script("https://example.com/deleted.mp3", [SpyDownloader.Canned(status: 404)])
        var reports: [SyncReport] = []
        for offset in [8.0, 9] {
            clock.now = start.addingTimeInterval(offset * day)
            reports.append(try await sync(world))
        }

        XCTAssertEqual(reports.map { $0.gone.count }, [0, 0], "the 500 broke the run of 404s: the week starts again")
    }

    func test_unchangedFeed_doesNotRetryAGoneEpisodeEither() async throws {
        let world = world(etag: "\"same\"")
        for offset in [0.0, 4, 8] {
            clock.now = start.addingTimeInterval(offset * day)
            _ = try await sync(world)
        }

        let quiet = try await sync(world)

        XCTAssertTrue(quiet.feedUnchanged)
        XCTAssertEqual(quiet.failed.count + quiet.gone.count, 0)
    }

    func test_verify_listsGoneEpisodesWithoutCountingThemAsProblems() async throws {
        let world = world()
        for offset in [0.0, 4, 8] {
            clock.now = start.addingTimeInterval(offset * day)
            _ = try await sync(world)
        }
        let events = VerifyEventLog()

        let report = try await world.archiver.verify(root, repair: false, onEvent: events.append)

        XCTAssertEqual(report.gone, 1)
        XCTAssertEqual(report.remaining, 0)
        XCTAssertEqual(events.goneTitles, ["Deleted"])
    }
}

private final class VerifyEventLog: @unchecked Sendable {
    private let lock = NSLock()
    private var titles: [String] = []

    func append(_ event: VerifyEvent) {
        if case .gone(_, let failure) = event { lock.withLock { titles.append(failure.title ?? "") } }
    }

    var goneTitles: [String] { lock.withLock { titles } }
}
