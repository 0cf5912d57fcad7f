import Foundation
import XCTest

// The body a notification carries (`RunSummary`): every show's episodes in one summary, its JSON schema and its
// plain text, the lists cut at `shown`, and no secret in it: neither a feed's token nor a notification URL.
@testable import ArchiverCore

final class RunSummaryTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")

    private func report() -> SyncRunReport {
        var night = SyncReport(feedTitle: "Night Show", folder: root.appendingPathComponent("Night Show"))
        night.archived = [root.appendingPathComponent("Night Show/Pilot.mp3")]
        night.failed = [
            (Episode(title: "Lost", guid: "l", url: "https://example.com/lost.mp3?token=unitS3cret"), .httpStatus(404))
        ]
        night.gone = [
            (Episode(title: "Old", guid: "o", url: "https://example.com/old.mp3"), .httpStatus(410), "2026-01-31")
        ]
        let day = SyncReport(feedTitle: "Day Show", folder: root.appendingPathComponent("Day Show"))
        return SyncRunReport(
            outcomes: [
                ShowOutcome(feed: "Night Show", result: .synced(night), status: .episodesFailed, seconds: 1),
                ShowOutcome(feed: "Day Show", result: .synced(day), status: .success, seconds: 1),
                ShowOutcome(
                    feed: "https://example.com/feed.xml?token=REDACTED",
                    result: .failed(FeedError.notAFeed(url: "https://example.com/feed.xml", reason: "an HTML page")),
                    status: .feedFailed, seconds: 1),
            ], status: .feedFailed)
    }

    func test_json_holdsEveryShowsEpisodes_andTheRunsStatus() throws {
        let body = RunSummary(report(), root: root).json
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], body)

        XCTAssertEqual(json["podarchive"] as? Int, 1)
        XCTAssertEqual(json["status"] as? String, "feed-failed")
        XCTAssertEqual(json["exit"] as? Int, 3)
        XCTAssertEqual(
            json["archived"] as? [[String: String]], [["show": "Night Show", "file": "Night Show/Pilot.mp3"]])
        XCTAssertEqual(
            json["failed"] as? [[String: String]],
            [["show": "Night Show", "title": "Lost", "reason": "server answered HTTP 404"]])
        XCTAssertEqual(
            json["gone"] as? [[String: String]], [["show": "Night Show", "title": "Old", "since": "2026-01-31"]])
        let showsFailed = try XCTUnwrap(json["showsFailed"] as? [[String: String]])
        XCTAssertEqual(showsFailed.map { $0["show"] }, ["https://example.com/feed.xml?token=REDACTED"])
        XCTAssertEqual(
            json["more"] as? [String: Int], ["archived": 0, "failed": 0, "gone": 0, "showsFailed": 0])
        XCTAssertFalse(body.contains("unitS3cret"), body)
    }

    func test_text_countsThenALineAnEpisode() {
        let summary = RunSummary(report(), root: root)

        XCTAssertEqual(
            summary.title, "podarchive sync: feed-failed (exit 3): 1 new, 1 failed, 1 gone upstream, 1 show failed")
        let lines = summary.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, summary.title)
        XCTAssertEqual(
            Array(lines.dropFirst(2)),
            [
                "failed: Night Show: Lost: server answered HTTP 404", "new: Night Show: Pilot.mp3",
                "gone upstream: Night Show: Old",
            ])
        XCTAssertTrue(
            lines[1]
                == "show failed: https://example.com/feed.xml?token=REDACTED — feed https://example.com/feed.xml is "
                + "not a podcast feed: an HTML page", lines[1])
    }

    func test_longLists_areCut_theRestCounted() throws {
        var show = SyncReport(feedTitle: "Big", folder: root.appendingPathComponent("Big"))
        show.archived = (0..<(RunSummary.shown + 5)).map { root.appendingPathComponent("Big/\($0).mp3") }
        let summary = RunSummary(
            SyncRunReport(
                outcomes: [ShowOutcome(feed: "Big", result: .synced(show), status: .success, seconds: 1)],
                status: .success),
            root: root)

        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(summary.json.utf8)) as? [String: Any])
        XCTAssertEqual((json["archived"] as? [Any])?.count, RunSummary.shown)
        XCTAssertEqual((json["more"] as? [String: Int])?["archived"], 5)
        XCTAssertTrue(summary.text.hasSuffix("new: 5 more\n"), summary.text)
    }

    func test_aRegisteredNotificationAddress_isRedactedWhereverItIsPrinted_andMaskedInTheBody() {
        URLSecrets.registerSecretAddress("https://ntfy.example/unitTopicS3cret?auth=abc123")

        XCTAssertEqual(
            URLSecrets.redacted("https://ntfy.example/unitTopicS3cret?auth=abc123"),
            "https://ntfy.example/REDACTED?auth=REDACTED")
        XCTAssertEqual(
            TextSecrets.redactingURLs(in: "posting to https://ntfy.example/unitTopicS3cret failed"),
            "posting to https://ntfy.example/REDACTED failed")
        var show = SyncReport(feedTitle: "Show unitTopicS3cret", folder: root.appendingPathComponent("Show"))
        show.archived = [root.appendingPathComponent("Show/a.mp3")]
        let summary = RunSummary(
            SyncRunReport(
                outcomes: [ShowOutcome(feed: "Show", result: .synced(show), status: .success, seconds: 1)],
                status: .success),
            root: root)
        XCTAssertFalse(summary.json.contains("unitTopicS3cret"), summary.json)
        XCTAssertFalse(summary.text.contains("unitTopicS3cret"), summary.text)
    }

    func test_when_failureByDefault_newWithSomethingArchived_always() {
        let quiet = RunSummary(SyncRunReport(outcomes: [], status: .success), root: root)
        let failing = RunSummary(SyncRunReport(outcomes: [], status: .episodesFailed), root: root)
        var notice = SyncRequest.Notice()

        XCTAssertEqual(notice.when, .failure)
        XCTAssertFalse(notice.wants(quiet))
        XCTAssertTrue(notice.wants(failing))
        notice.when = .new
        XCTAssertFalse(notice.wants(quiet))
        XCTAssertTrue(notice.wants(RunSummary(report(), root: root)))
        notice.when = .always
        XCTAssertTrue(notice.wants(quiet))
    }
}
