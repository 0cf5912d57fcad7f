import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// The names a sync gives (duplicate titles, files in the way, hostile feeds, `--name` templates), and the progress
// it reports, with every effect replaced by a double.
@testable import ArchiverCore

final class SyncNamingTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let clock = Date(timeIntervalSince1970: 1_800_000_000)

    private typealias World = ArchiveWorld

    private func audio(_ text: String = "ID3 fake audio") -> SpyDownloader.Canned {
        SpyDownloader.Canned(body: Data(text.utf8), headers: ["Content-Type": "audio/mpeg"])
    }

    private func rss(_ items: [(title: String, url: String, guid: String?)]) -> Data {
        FeedText.rss(items)
    }

    // MARK: - Names

    func test_sync_duplicateTitles_bothSurviveUnderDistinctNames() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL,
            feed: rss([
                ("Same", "https://example.com/a/media.mp3", "a"), ("Same", "https://example.com/b/media.mp3", "b"),
            ]),
            episodes: [
                "https://example.com/a/media.mp3": audio("first"), "https://example.com/b/media.mp3": audio("second"),
            ],
            now: clock, onUnexpected: failOnUnexpected)

        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(world.fileSystem.file("/archive/Show/Same.mp3"), Data("first".utf8))
        XCTAssertEqual(world.fileSystem.file("/archive/Show/Same (2).mp3"), Data("second".utf8))
    }

    func test_sync_existingFileOfAnotherEpisode_isNeverOverwritten() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL, feed: rss([("Same", "https://example.com/new.mp3", "new")]),
            episodes: ["https://example.com/new.mp3": audio("new")], now: clock, onUnexpected: failOnUnexpected)
        world.fileSystem.put("/archive/Show/Same.mp3", Data("the user's own file".utf8))

        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        XCTAssertEqual(world.fileSystem.file("/archive/Show/Same.mp3"), Data("the user's own file".utf8))
        XCTAssertEqual(world.fileSystem.file("/archive/Show/Same (2).mp3"), Data("new".utf8))
    }

    func test_sync_hostileFeed_writesNothingOutsideTheArchiveRootAndNeverRequestsNonHTTP() async throws {
        let feedURL = "https://example.com/hostile.xml"
        var episodes: [String: SpyDownloader.Canned] = [:]
        for index in 1...7 { episodes["https://example.com/h\(index).mp3"] = audio("h\(index)") }
        episodes["https://example.com/same-1.mp3"] = audio("s1")
        episodes["https://example.com/same-2.mp3"] = audio("s2")
        let world = World(
            feedURL: feedURL, feed: Fixtures.data("feeds/hostile.xml"), episodes: episodes, now: clock,
            onUnexpected: failOnUnexpected)

        let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)

        let folder = "/archive/Escape Attempt/"
        for path in world.fileSystem.allFiles where !path.hasPrefix("/archive/.podarchive/") {
            XCTAssertTrue(path.hasPrefix(folder), "\(path) is outside \(folder)")
            let name = String(path.dropFirst(folder.count))
            guard !name.hasPrefix(".podarchive/") else { continue }
            XCTAssertFalse(name.contains("/"), name)
            XCTAssertLessThanOrEqual(name.utf8.count, 255)
            XCTAssertFalse(name.hasPrefix("."), name)
        }
        XCTAssertEqual(world.fileSystem.allFiles.filter { !$0.contains("/.podarchive/") }.count, 9)
        XCTAssertEqual(
            report.failed.map(\.failure),
            [.unsupportedScheme("file"), .unsupportedScheme("ftp"), .unsupportedScheme("data")])
        XCTAssertFalse(world.downloader.requests.contains { !["http", "https"].contains($0.url?.scheme ?? "") })
    }

    // MARK: - Name templates

    func test_sync_withNameTemplate_namesFilesAndSubfoldersAndFindsThemNextRun() async throws {
        let feedURL = "https://example.com/feed.xml"
        let feed = """
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Show</title>
            <item><title>Pilot</title><guid>g1</guid><pubDate>Fri, 10 Jan 2025 13:00:00 GMT</pubDate>
            <itunes:season>1</itunes:season><itunes:episode>1</itunes:episode>
            <enclosure url="https://example.com/1.mp3" type="audio/mpeg"/></item>
            <item><title>../../../etc/x</title><guid>g2</guid>
            <enclosure url="https://example.com/2.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        let world = World(
            feedURL: feedURL, feed: Data(feed.utf8),
            episodes: ["https://example.com/1.mp3": audio(), "https://example.com/2.mp3": audio()], now: clock,
            onUnexpected: failOnUnexpected)
        let options = SyncOptions(names: try NameTemplate("Season {season}/{episode:02} {date} {title}"))

        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)

        XCTAssertEqual(
            world.fileSystem.visibleFiles,
            ["/archive/Show/Season 1/01 2025-01-10 Pilot.mp3", "/archive/Show/etc-x.mp3"],
            "a hostile title stays one name inside the feed folder; a missing season makes no 'Season' folder")

        // Next run: both are found where they are, nothing is downloaded again.
        let second = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)
        XCTAssertEqual(second.alreadyArchived, 2)
        XCTAssertEqual(world.downloader.requests.count, 2)

        // A file deleted by hand from its subfolder comes back under its name, even with another template.
        try world.fileSystem.removeItem(at: URL(fileURLWithPath: "/archive/Show/Season 1/01 2025-01-10 Pilot.mp3"))
        let third = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)
        XCTAssertEqual(third.archived.map(\.path), ["/archive/Show/Season 1/01 2025-01-10 Pilot.mp3"])
    }

    func test_sync_withNameTemplate_aFileWhereAFolderShouldBe_failsThatEpisodeOnly() async throws {
        let feedURL = "https://example.com/feed.xml"
        let feed = """
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Show</title>
            <item><title>One</title><guid>g1</guid><itunes:season>1</itunes:season>
            <enclosure url="https://example.com/1.mp3" type="audio/mpeg"/></item>
            <item><title>Two</title><guid>g2</guid><itunes:season>2</itunes:season>
            <enclosure url="https://example.com/2.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        let world = World(
            feedURL: feedURL, feed: Data(feed.utf8),
            episodes: ["https://example.com/1.mp3": audio(), "https://example.com/2.mp3": audio()], now: clock,
            onUnexpected: failOnUnexpected)
        world.fileSystem.put("/archive/Show/Season 1", Data("a file, not a folder".utf8))

        let report = try await world.archiver.sync(
            .remote(URL(string: feedURL)!), into: root,
            options: SyncOptions(names: try NameTemplate("Season {season}/{title}")))

        XCTAssertEqual(report.archived.map(\.path), ["/archive/Show/Season 2/Two.mp3"])
        XCTAssertEqual(
            report.failed.map(\.failure),
            [.storage("/archive/Show/Season 1 is a file, where the name template wants a folder")])
        XCTAssertEqual(world.fileSystem.file("/archive/Show/Season 1"), Data("a file, not a folder".utf8), "untouched")
    }

    // MARK: - Progress

    func test_sync_reportsStartProgressAndEndOfEachDownload_withTheSizeTheServerAnnounced() async throws {
        let feedURL = "https://example.com/feed.xml"
        let world = World(
            feedURL: feedURL,
            feed: FeedText.rss([("One", "https://example.com/1.mp3", "g1"), ("Two", "https://example.com/2.mp3", "g2")]
            ),
            episodes: ["https://example.com/1.mp3": audio("0123456789"), "https://example.com/2.mp3": audio("abcd")],
            now: clock, onUnexpected: failOnUnexpected)
        let events = EventLog()

        _ = try await world.archiver.sync(
            .remote(URL(string: feedURL)!), into: root, options: SyncOptions(jobs: 1), onEvent: events.append)

        let progress = events.all.filter {
            switch $0 {
            case .started, .progress, .finished: return true
            default: return false
            }
        }
        XCTAssertEqual(
            progress,
            [
                .started(
                    Episode(title: "One", guid: "g1", url: "https://example.com/1.mp3", mimeType: "audio/mpeg"),
                    position: 0, total: 2),
                .progress(position: 0, received: 5, expected: 10), .progress(position: 0, received: 10, expected: 10),
                .finished(position: 0),
                .started(
                    Episode(title: "Two", guid: "g2", url: "https://example.com/2.mp3", mimeType: "audio/mpeg"),
                    position: 1, total: 2),
                .progress(position: 1, received: 2, expected: 4), .progress(position: 1, received: 4, expected: 4),
                .finished(position: 1),
            ])
    }
}
