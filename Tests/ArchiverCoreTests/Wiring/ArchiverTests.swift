import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// The sync pipeline with every effect replaced by a double: what is requested, moved, dated and recorded.
@testable import ArchiverCore

final class ArchiverTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let clock = Date(timeIntervalSince1970: 1_800_000_000)

    private typealias World = ArchiveWorld

    private func audio(_ text: String = "ID3 fake audio") -> SpyDownloader.Canned {
        SpyDownloader.Canned(body: Data(text.utf8), headers: ["Content-Type": "audio/mpeg"])
    }

    private func rss(_ items: [(title: String, url: String, guid: String?)]) -> Data {
        FeedText.rss(items)
    }

    // MARK: - The seed example

    func test_sync_seedFeed_fetchesFeedThenEpisodeMovesItIntoPlaceAndDatesIt() async throws {
        // Given the seed's JSON array with one episode
        let feedURL = "https://example.com/feed.json"
        let world = World(
            feedURL: feedURL, feed: Fixtures.data("feeds/seed.json"),
            episodes: ["https://example.com/episodes/1.mp3": audio()], now: clock, onUnexpected: failOnUnexpected)

        // When
        let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        // Then: one feed request, then one episode request
        let requests = await world.logger.requests
        XCTAssertEqual(requests, [.feed(feedURL), .episode("https://example.com/episodes/1.mp3")])
        // one move, into <root>/<feed>/<title>.mp3
        let expected = "/archive/example.com-feed/The very first episode ever!.mp3"
        XCTAssertEqual(world.mover.moves.map(\.to), [expected])
        XCTAssertTrue(
            world.mover.moves[0].from.hasPrefix("/archive/example.com-feed/.podarchive/"),
            "downloads go to a hidden file in the feed folder")
        // and the file's dates set to the publication date
        let published = Date(timeIntervalSince1970: 1_736_514_000)
        XCTAssertEqual(
            world.attributes.changes, [.init(path: expected, modificationDate: published, creationDate: published)])
        XCTAssertEqual(world.fileSystem.file(expected), Data("ID3 fake audio".utf8))
        XCTAssertEqual(report.archived.map(\.path), [expected])
        XCTAssertTrue(report.failed.isEmpty)
    }

    // MARK: - Re-runs

    func test_sync_whenEpisodeAlreadyArchived_doesNotDownloadAgain() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("One", "https://example.com/1.mp3", "g1")]),
            episodes: ["https://example.com/1.mp3": audio()], now: clock, onUnexpected: failOnUnexpected)
        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        let second = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        let requests = await world.logger.requests
        XCTAssertEqual(requests, [.feed(feedURL), .episode("https://example.com/1.mp3"), .feed(feedURL)])
        XCTAssertEqual(second.alreadyArchived, 1)
        XCTAssertEqual(second.archived, [])
    }

    func test_sync_whenEpisodeFailedBefore_triesItAgainNextRun() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("One", "https://example.com/1.mp3", "g1")]),
            episodes: ["https://example.com/1.mp3": SpyDownloader.Canned(status: 404)], now: clock,
            onUnexpected: failOnUnexpected)

        let first = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)
        world.downloader.script("https://example.com/1.mp3", [audio()])
        let second = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(first.failed.map(\.failure), [.httpStatus(404)])
        XCTAssertEqual(second.archived.map(\.lastPathComponent), ["One.mp3"])
        XCTAssertEqual(world.downloader.requests.count, 2, "a 404 is not retried within the run, but on the next")
        XCTAssertEqual(world.fileSystem.visibleFiles, ["/archive/Show/One.mp3"])
    }

    func test_sync_serverErrors_areRetriedWithExponentialBackoffThenGivenUp() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("One", "https://example.com/1.mp3", "g1")]),
            episodes: ["https://example.com/1.mp3": SpyDownloader.Canned(status: 503)], now: clock,
            onUnexpected: failOnUnexpected)

        let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(report.failed.map(\.failure), [.httpStatus(503)])
        XCTAssertEqual(world.downloader.requests.count, 4, "the first try and three retries")
        XCTAssertEqual(world.sleeper.delays, [1, 2, 4])
        let index = try IndexFormat.decode(XCTUnwrap(world.fileSystem.file("/archive/Show/.podarchive/index.json")))
        XCTAssertEqual(index.failures.map(\.reason), ["server answered HTTP 503"], "remembered for the next run")
    }

    func test_sync_500Then200_succeedsOnTheRetry() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("One", "https://example.com/1.mp3", "g1")]), episodes: [:], now: clock,
            onUnexpected: failOnUnexpected)
        world.downloader.script(
            "https://example.com/1.mp3",
            [SpyDownloader.Canned(status: 500), SpyDownloader.Canned(error: .transport("connection reset")), audio()])

        let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["One.mp3"])
        XCTAssertEqual(world.sleeper.delays, [1, 2])
    }

    func test_sync_429WithRetryAfter_waitsAsLongAsTheServerAsks() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("One", "https://example.com/1.mp3", "g1")]), episodes: [:], now: clock,
            onUnexpected: failOnUnexpected)
        world.downloader.script(
            "https://example.com/1.mp3", [SpyDownloader.Canned(status: 429, headers: ["Retry-After": "30"]), audio()])

        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(world.sleeper.delays, [30])
    }

    func test_sync_clientErrorsOtherThan408And429_areNotRetried() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL,
            feed: rss([("Gone", "https://example.com/410.mp3", "a"), ("Forbidden", "https://example.com/403.mp3", "b")]
            ),
            episodes: [
                "https://example.com/410.mp3": SpyDownloader.Canned(status: 410),
                "https://example.com/403.mp3": SpyDownloader.Canned(status: 403),
            ], now: clock, onUnexpected: failOnUnexpected)

        let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(report.failed.map(\.failure), [.httpStatus(410), .httpStatus(403)])
        XCTAssertEqual(world.downloader.requests.count, 2)
        XCTAssertEqual(world.sleeper.delays, [])
    }

    func test_sync_retryWaitBeyondTheDeadline_givesUpInsteadOfWaiting() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("One", "https://example.com/1.mp3", "g1")]), episodes: [:], now: clock,
            onUnexpected: failOnUnexpected)
        world.downloader.script(
            "https://example.com/1.mp3", [SpyDownloader.Canned(status: 503, headers: ["Retry-After": "7200"])])

        let report = try await world.archiver.sync(
            .remote(URL(string: feedURL)!), into: root, options: SyncOptions(episodeTimeout: 600))

        XCTAssertEqual(
            report.failed.map(\.failure), [.waitRefused(status: 503, asked: 7200, left: 600, deadline: 600)],
            "the 503, and why it was not waited for")
        XCTAssertEqual(world.sleeper.delays, [])
        XCTAssertEqual(world.downloader.requests.count, 1)
    }

    // MARK: - Index

    func test_sync_recordsEachEpisodeInTheIndexRightAfterItIsArchived() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL,
            feed: rss([("One", "https://example.com/1.mp3", "g1"), ("Two", "https://example.com/2.mp3", nil)]),
            episodes: ["https://example.com/1.mp3": audio("one"), "https://example.com/2.mp3": audio("two!")],
            now: clock, onUnexpected: failOnUnexpected)

        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        let indexPath = "/archive/Show/.podarchive/index.json"
        let wholeWrites = world.fileSystem.atomicWrites.filter { $0 == indexPath }.count
        let appends = world.fileSystem.appends.filter { $0.hasSuffix("/index.journal") }.count
        XCTAssertTrue(
            (wholeWrites, appends) == (1, 0) || (wholeWrites, appends) == (2, 1),
            "written whole with the first episodes settled, the rest journaled and folded once: \(wholeWrites), \(appends)"
        )
        let index = try IndexFormat.decode(XCTUnwrap(world.fileSystem.file(indexPath)))
        XCTAssertEqual(index.feed, feedURL)
        // Episodes download in parallel and are recorded as each completes: compare without order.
        let entries = index.episodes.sorted { $0.file < $1.file }
        XCTAssertEqual(entries.map(\.key), ["g1", "https://example.com/2.mp3"], "GUID, else enclosure URL")
        XCTAssertEqual(entries.map(\.file), ["One.mp3", "Two.mp3"])
        XCTAssertEqual(entries.map(\.size), [3, 4])
        XCTAssertEqual(index.episodes.map(\.archived), ["2027-01-15T08:00:00Z", "2027-01-15T08:00:00Z"])
    }

    func test_sync_damagedIndex_stopsWithoutTouchingAnything() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("One", "https://example.com/1.mp3", "g1")]), episodes: [:], now: clock,
            onUnexpected: failOnUnexpected)
        world.fileSystem.put("/archive/Show/.podarchive/index.json", Data("{ torn".utf8))

        do {
            _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(
                error as? ArchiveError,
                .damagedIndex(path: "/archive/Show/.podarchive/index.json", reason: "not valid index JSON"))
        }
        XCTAssertEqual(world.downloader.requests.count, 0)
        XCTAssertEqual(world.fileSystem.file("/archive/Show/.podarchive/index.json"), Data("{ torn".utf8))
    }

    // MARK: - Failures

    func test_sync_oneFailingEpisode_neverStopsTheOthers() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL,
            feed: rss([
                ("Missing", "https://example.com/404.mp3", "a"), ("Broken", "https://example.com/500.mp3", "b"),
                ("Fine", "https://example.com/ok.mp3", "c"),
            ]),
            episodes: [
                "https://example.com/404.mp3": SpyDownloader.Canned(status: 404),
                "https://example.com/500.mp3": SpyDownloader.Canned(status: 500),
                "https://example.com/ok.mp3": audio(),
            ], now: clock, onUnexpected: failOnUnexpected)

        let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(report.failed.map(\.failure), [.httpStatus(404), .httpStatus(500)])
        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Fine.mp3"])
    }

    func test_sync_badDownloads_areDiscardedNotKept() async throws {
        let feedURL = "https://example.com/feed.xml"
        let html = SpyDownloader.Canned(
            body: Data("<!DOCTYPE html><html><body>Not found</body></html>".utf8),
            headers: ["Content-Type": "audio/mpeg"])
        let htmlType = SpyDownloader.Canned(
            body: Data("oops".utf8), headers: ["Content-Type": "text/html; charset=utf-8"])
        let short = SpyDownloader.Canned(body: Data("12345".utf8), headers: ["Content-Length": "10"])
        let empty = SpyDownloader.Canned(body: Data())
        let cut = SpyDownloader.Canned(error: .transport("connection lost"))
        let world = World(
            feedURL: feedURL,
            feed: rss([
                ("Html", "https://example.com/html.mp3", "1"), ("Type", "https://example.com/type.mp3", "2"),
                ("Short", "https://example.com/short.mp3", "3"), ("Empty", "https://example.com/empty.mp3", "4"),
                ("Cut", "https://example.com/cut.mp3", "5"),
            ]),
            episodes: [
                "https://example.com/html.mp3": html, "https://example.com/type.mp3": htmlType,
                "https://example.com/short.mp3": short, "https://example.com/empty.mp3": empty,
                "https://example.com/cut.mp3": cut,
            ], now: clock, onUnexpected: failOnUnexpected)

        let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(
            report.failed.map(\.failure),
            [
                .htmlPage, .htmlPage, .lengthMismatch(expected: 10, received: 5), .emptyBody,
                .transport("connection lost"),
            ])
        XCTAssertEqual(world.mover.moves, [])
        XCTAssertEqual(world.fileSystem.visibleFiles, [], "nothing rejected or partial is visible")
        XCTAssertEqual(
            world.fileSystem.allFiles.filter { $0.hasSuffix(".part") }.count, 1,
            "only the short body is kept, hidden, to be resumed; the HTML and empty ones are discarded")
    }

    func test_sync_feedFailures_throwFeedErrorAndTouchNothing() async throws {
        let feedURL = "https://example.com/feed.xml"
        let notFound = World(
            feedURL: feedURL, feed: Data("nope".utf8), feedStatus: 404, episodes: [:], now: clock,
            onUnexpected: failOnUnexpected)
        let html = World(
            feedURL: feedURL, feed: Fixtures.data("feeds/not-a-feed.html"), episodes: [:], now: clock,
            onUnexpected: failOnUnexpected)

        for (world, expected) in [
            (notFound, FeedError.httpStatus(url: feedURL, status: 404)),
            (html, FeedError.notAFeed(url: feedURL, reason: "the document is <html>, not RSS or Atom")),
        ] {
            do {
                _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)
                XCTFail("expected \(expected)")
            } catch {
                XCTAssertEqual(error as? FeedError, expected)
            }
            XCTAssertEqual(world.fileSystem.allFiles, [])
        }
    }

    func test_sync_episodeWithoutDate_keepsTheDownloadTime() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("Undated", "https://example.com/u.mp3", "u")]),
            episodes: ["https://example.com/u.mp3": audio()], now: clock, onUnexpected: failOnUnexpected)

        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(world.attributes.changes, [], "no date is invented")
    }
}
