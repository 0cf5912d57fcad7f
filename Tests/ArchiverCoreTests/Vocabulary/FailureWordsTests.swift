import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// What a failed download or feed says happened, on loopback with the live sessions: a body cut short of its
// Content-Length says where the connection closed (it said "network error -1"), and a Retry-After past the
// deadline says why it was not waited for (it said only "answered HTTP 503").
@testable import ArchiverCore

final class FailureWordsTests: LoopbackArchiveTestCase {
    private let once = SyncOptions(retry: RetryPolicy(retries: 0))

    private func syncError(_ options: SyncOptions) async -> Error? {
        do {
            _ = try await sync(options)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - Cut short

    func test_anEpisodeCutShortOfItsContentLength_saysTheConnectionClosedAfterSoManyBytes() async throws {
        serveFeed()
        server.route(
            "/big.mp3", TestResponse(headers: [("Content-Type", "audio/mpeg")], body: audio, cutAfter: 100_000))

        let report = try await sync(once)

        XCTAssertEqual(report.failed.map(\.failure.reason), ["the connection closed after 100000 of 300000 bytes"])
    }

    func test_aResumeCutShortAgain_countsTheBytesOfTheWholeFile() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { _, count in
            let headers = [("Content-Type", "audio/mpeg"), ("ETag", "\"v1\""), ("Accept-Ranges", "bytes")]
            guard count > 0 else { return TestResponse(headers: headers, body: audio, cutAfter: 100_000) }
            return TestResponse(
                status: 206, headers: headers + [("Content-Range", "bytes 100000-299999/300000")],
                body: audio.suffix(from: 100_000), cutAfter: 50_000)
        }

        _ = try await sync(once)
        let resumed = try await sync(once)

        XCTAssertEqual(requests("/big.mp3").last?.headers["range"], "bytes=100000-")
        XCTAssertEqual(resumed.failed.map(\.failure.reason), ["the connection closed after 150000 of 300000 bytes"])
    }

    func test_aFeedCutShortOfItsContentLength_saysTheConnectionClosedAfterSoManyBytes() async throws {
        let xml = Data(
            """
            <rss version="2.0"><channel><title>Flaky</title>
            <item><title>Big one</title><guid>big</guid><enclosure url="/big.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """.utf8)
        server.route(
            "/feed.xml", TestResponse(headers: [("Content-Type", "application/rss+xml")], body: xml, cutAfter: 40))

        let error = await syncError(once)

        XCTAssertEqual(
            error as? FeedError,
            .transport(
                url: server.url("/feed.xml").absoluteString,
                reason: "the connection closed after 40 of \(xml.count) bytes"))
    }

    // MARK: - Retry-After past the deadline

    func test_anEpisodesRetryAfterPastItsDeadline_isNotWaitedFor_andSaysWhy() async throws {
        serveFeed()
        server.route("/big.mp3", TestResponse(status: 503, headers: [("Retry-After", "3600")]))

        let report = try await sync(SyncOptions(retry: RetryPolicy(retries: 3), episodeTimeout: 60))

        XCTAssertEqual(
            report.failed.map(\.failure.reason),
            [
                "server answered HTTP 503 and asked to wait 3600 s before another try, longer than the 60 s the "
                    + "episode may take; tried again next run"
            ])
        XCTAssertEqual(sleeper.delays, [], "not waited for")
        XCTAssertEqual(requests("/big.mp3").count, 1)
    }

    func test_aFeedsRetryAfterPastItsDeadline_isNotWaitedFor_andSaysWhy() async throws {
        server.route("/feed.xml", TestResponse(status: 503, headers: [("Retry-After", "3600")]))

        let error = await syncError(SyncOptions(retry: RetryPolicy(retries: 3), episodeTimeout: 60))

        XCTAssertEqual(
            error?.localizedDescription,
            "feed \(server.url("/feed.xml")) answered HTTP 503 (a server error) and asked to wait 3600 s before "
                + "another try, longer than the 60 s the feed may take")
        XCTAssertEqual(sleeper.delays, [])
    }
}
