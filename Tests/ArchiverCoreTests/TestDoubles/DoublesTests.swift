import ArchiverCoreTesting
import Foundation
import XCTest

// The shipped doubles (ArchiverCoreTesting) report what nobody scripted, so a test built on them cannot pass
// while the code under test makes a request it did not expect.
@testable import ArchiverCore

final class DoublesTests: XCTestCase {
    private final class Reports: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [String] = []
        var all: [String] { lock.withLock { calls } }
        func append(_ call: String) { lock.withLock { calls.append(call) } }
    }

    func test_unscriptedEpisodeAndFeed_areReportedThroughTheHook() async throws {
        let reports = Reports()
        let feedURL = "https://example.com/feed.xml"
        let world = ArchiveWorld(
            feedURL: feedURL, feed: FeedText.rss([("One", "https://example.com/1.mp3", "1")]), episodes: [:],
            now: Date(timeIntervalSince1970: 1_800_000_000), onUnexpected: reports.append)

        let report = try await world.archiver.sync(
            .remote(URL(string: feedURL)!), into: URL(fileURLWithPath: "/archive"))
        var otherFailed = false
        do {
            _ = try await world.archiver.list(.remote(URL(string: "https://example.com/other.xml")!))
        } catch {
            otherFailed = true
        }

        XCTAssertEqual(report.failed.map(\.episode.title), ["One"], "the unscripted download fails its episode")
        XCTAssertTrue(otherFailed, "an unscripted feed request fails")
        // Each try of the episode (it is retried as a transport failure) is reported.
        XCTAssertEqual(
            Set(reports.all),
            ["unexpected download https://example.com/1.mp3", "unexpected feed request https://example.com/other.xml"])
        XCTAssertEqual(world.unexpectedCalls.sorted(), reports.all.sorted())
    }
}
