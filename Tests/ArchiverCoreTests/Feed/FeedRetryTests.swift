import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// A feed whose server fails in a way another request may cure (5xx, 408, 429, a dropped connection) is asked
// again, as an episode is: the same policy (`--retries`, backoff with jitter, `Retry-After`), every try and wait
// within `--timeout`. On loopback, the waits skipped by the spy sleeper.
@testable import ArchiverCore

final class FeedRetryTests: LoopbackArchiveTestCase {
    private let feedXML = """
        <rss version="2.0"><channel><title>Flaky</title>
        <item><title>Big one</title><guid>big</guid><enclosure url="/big.mp3" type="audio/mpeg"/></item>
        </channel></rss>
        """

    /// The feed answers `failing(count)` while it returns one, then the feed; the episode is served whole.
    private func serveFeed(failing: @escaping @Sendable (Int) -> TestResponse?) {
        let xml = feedXML
        server.route("/feed.xml") { _, count in failing(count) ?? .ok(xml, type: "application/rss+xml") }
        server.route("/big.mp3", .ok(audio))
    }

    private var feedRequests: Int { requests("/feed.xml").count }

    func test_feedAnswering500Then200_isAskedAgainAfterABackoff_andTheSyncGoesOn() async throws {
        serveFeed { $0 == 0 ? .status(500, "boom") : nil }

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(archived, audio)
        XCTAssertEqual(feedRequests, 2)
        XCTAssertEqual(sleeper.delays, [1])
    }

    func test_feedAnswering503WithRetryAfter_waitsWhatTheServerSays() async throws {
        serveFeed { $0 == 0 ? TestResponse(status: 503, headers: [("Retry-After", "17")]) : nil }

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(sleeper.delays, [17])
    }

    func test_feedAnswering429And408_isAskedAgain_withBackoffDoubling() async throws {
        serveFeed { [429, 408][safe: $0].map { TestResponse(status: $0) } }

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(feedRequests, 3)
        XCTAssertEqual(sleeper.delays, [1, 2])
    }

    func test_feedWhoseConnectionDrops_isAskedAgain() async throws {
        let xml = feedXML
        serveFeed {
            $0 == 0
                ? TestResponse(headers: [("Content-Type", "application/rss+xml")], body: Data(xml.utf8), cutAfter: 40)
                : nil
        }

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(feedRequests, 2)
        XCTAssertEqual(sleeper.delays, [1])
    }

    func test_retriesHonoured_asMany_andNoneWithZero() async throws {
        serveFeed { _ in .status(500, "boom") }

        let five = await syncError(SyncOptions(retry: RetryPolicy(retries: 5)))
        let asked = feedRequests
        let none = await syncError(SyncOptions(retry: RetryPolicy(retries: 0)))

        let status = FeedError.httpStatus(url: server.url("/feed.xml").absoluteString, status: 500)
        XCTAssertEqual(five as? FeedError, status)
        XCTAssertEqual(none as? FeedError, status)
        XCTAssertEqual(asked, 6, "one request and five more")
        XCTAssertEqual(feedRequests, 7, "--retries 0: one request")
        XCTAssertEqual(sleeper.delays, [1, 2, 4, 8, 16])
    }

    func test_aWaitPastTheTimeout_isNotWaited_theFailureIsTheAnswer() async throws {
        serveFeed { $0 == 0 ? TestResponse(status: 503, headers: [("Retry-After", "600")]) : nil }
        var options = SyncOptions()
        options.episodeTimeout = 60

        let error = await syncError(options)

        guard case .waitRefused(let url, let status, let asked, _, let deadline) = error as? FeedError else {
            return XCTFail("expected the 503, and why it was not waited for: \(String(describing: error))")
        }
        XCTAssertEqual(
            [url, "\(status)", "\(asked)", "\(deadline)"],
            [server.url("/feed.xml").absoluteString, "503", "600.0", "60.0"])
        XCTAssertEqual(feedRequests, 1)
        XCTAssertEqual(sleeper.delays, [])
    }

    func test_404AndOther4xx_areNotAskedAgain() async throws {
        serveFeed { _ in .status(404) }

        let error = await syncError(SyncOptions())

        XCTAssertEqual(error as? FeedError, .httpStatus(url: server.url("/feed.xml").absoluteString, status: 404))
        XCTAssertEqual(feedRequests, 1)
        XCTAssertEqual(sleeper.delays, [])
    }

    func test_aPageOfAPagedFeed_answering500Then200_isAskedAgain_andItsEpisodesArchived() async throws {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Flaky</title>
                <atom:link rel="next" href="/page2.xml"/>
                <item><title>Big one</title><guid>big</guid><enclosure url="/big.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        let page2 = """
            <rss version="2.0"><channel><title>Flaky</title>
            <item><title>Older</title><guid>old</guid><enclosure url="/old.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/page2.xml") { _, count in count == 0 ? .status(502) : .ok(page2, type: "application/rss+xml") }
        server.route("/big.mp3", .ok(audio))
        server.route("/old.mp3", .ok(Data("older".utf8)))

        let report = try await sync()

        XCTAssertNil(report.pageProblem)
        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Big one.mp3", "Older.mp3"])
        XCTAssertEqual(requests("/page2.xml").count, 2)
        XCTAssertEqual(sleeper.delays, [1])
    }

    /// What a sync with `options` threw, nil when it did not.
    private func syncError(_ options: SyncOptions) async -> Error? {
        do {
            _ = try await sync(options)
            return nil
        } catch {
            return error
        }
    }
}

extension Array {
    fileprivate subscript(safe index: Int) -> Element? {
        indices.contains(index) ? self[index] : nil
    }
}
