import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// What a sync's filter and a dry run choose, on the in-memory file system.
@testable import ArchiverCore

final class FilterTests: FakeArchiveTestCase {
    // MARK: - Filters

    func test_sync_withFilter_downloadsOnlyWhatItSelectsAndKeepsOtherFailures() async throws {
        let feed = rss([("Ep 2", "https://example.com/2.mp3", "2"), ("Bonus", "https://example.com/b.mp3", "b")])
        downloader.script("https://example.com/b.mp3", [SpyDownloader.Canned(status: 404)])
        _ = try await sync(
            feed, options: SyncOptions(retry: RetryPolicy(retries: 0), filter: EpisodeFilter(match: "Bonus")))
        downloader.script("https://example.com/2.mp3", [audio("two")])

        let report = try await sync(feed, options: SyncOptions(filter: EpisodeFilter(match: "^Ep")))

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Ep 2.mp3"])
        XCTAssertEqual(downloader.requests.map { $0.url!.lastPathComponent }, ["b.mp3", "2.mp3"])
        XCTAssertEqual(try index.failures.map(\.key), ["b"], "the bonus failure waits for a sync that selects it")
    }

    // MARK: - Dry run

    func test_plan_listsNewFailedAndMissing_andTouchesNothing() async throws {
        let feed = rss([
            ("A", "https://example.com/a.mp3", "a"), ("B", "https://example.com/b.mp3", "b"),
            ("C", "https://example.com/c.mp3", "c"),
        ])
        downloader.script("https://example.com/a.mp3", [audio("a")])
        downloader.script("https://example.com/b.mp3", [audio("b")])
        downloader.script("https://example.com/c.mp3", [SpyDownloader.Canned(status: 404)])
        _ = try await sync(feed, options: SyncOptions(retry: RetryPolicy(retries: 0)))
        try fileSystem.removeItem(at: URL(fileURLWithPath: "/archive/Show/A.mp3"))
        let before = fileSystem.allFiles.map { ($0, fileSystem.file($0)) }
        let writes = fileSystem.atomicWrites.count

        let plan = try await archiver(feed: feed).plan(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(plan.feedTitle, "Show")
        XCTAssertEqual(plan.downloads.map(\.episode.title), ["C", "A"], "the failed one, then the missing file")
        XCTAssertEqual(plan.downloads.map(\.missingFile), [nil, "A.mp3"])
        XCTAssertEqual(plan.downloads.map(\.file), ["C.mp3", "A.mp3"], "the names a sync would give")
        XCTAssertEqual(plan.alreadyArchived, 2)
        XCTAssertEqual(downloader.requests.count, 3, "nothing downloaded by the plan")
        XCTAssertEqual(fileSystem.atomicWrites.count, writes, "nothing written")
        XCTAssertTrue(fileSystem.allFiles.map { ($0, fileSystem.file($0)) }.elementsEqual(before, by: { $0 == $1 }))
        XCTAssertNil(fileSystem.lockHolder(URL(fileURLWithPath: "/archive/Show/.podarchive/lock")), "nothing locked")
    }

    func test_plan_ofANewFeed_createsNoFolder() async throws {
        let plan = try await archiver(feed: rss([("A", "https://example.com/a.mp3", "a")])).plan(
            .remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(plan.downloads.map(\.episode.title), ["A"])
        XCTAssertEqual(plan.folder.path, "/archive/Show")
        XCTAssertFalse(fileSystem.fileExists(atPath: "/archive/Show"))
    }
}
