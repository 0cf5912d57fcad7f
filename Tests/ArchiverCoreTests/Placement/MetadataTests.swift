import ArchiverCoreTesting
import Foundation
import XCTest

// `--metadata`: a sidecar per archived file, the feed's artwork once, and names that keep both apart.
@testable import ArchiverCore

final class MetadataTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let clock = Date(timeIntervalSince1970: 1_800_000_000)
    private let feedURL = "https://example.com/feed.xml"
    private let published = Date(timeIntervalSince1970: 1_736_514_000)  // 2025-01-10T13:00:00Z

    private func feed(artwork: String? = "https://example.com/art.png", extraItems: String = "") -> Data {
        Data(
            """
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Show</title>
            \(artwork.map { "<itunes:image href=\"\($0)\"/>" } ?? "")
            <item><title>Pilot</title><guid>g1</guid><pubDate>Fri, 10 Jan 2025 13:00:00 GMT</pubDate>
            <description>&lt;p&gt;Notes&lt;/p&gt;</description><link>https://example.com/ep/1</link>
            <itunes:duration>1:00:01</itunes:duration><itunes:episode>1</itunes:episode>
            <enclosure url="https://example.com/1.mp3" type="audio/mpeg"/></item>
            \(extraItems)
            </channel></rss>
            """.utf8)
    }

    private func audio(_ text: String = "ID3 audio") -> SpyDownloader.Canned {
        SpyDownloader.Canned(body: Data(text.utf8), headers: ["Content-Type": "audio/mpeg"])
    }

    private let png = SpyDownloader.Canned(
        body: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("fake".utf8),
        headers: ["Content-Type": "image/png"])

    private func sidecar(_ world: ArchiveWorld, _ path: String) throws -> [String: Any] {
        let data = try XCTUnwrap(world.fileSystem.file(path), "no sidecar at \(path)")
        return try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    func test_metadata_writesASidecarPerEpisodeAndTheArtworkOnce() async throws {
        let world = ArchiveWorld(
            feedURL: feedURL, feed: feed(),
            episodes: ["https://example.com/1.mp3": audio(), "https://example.com/art.png": png], now: clock,
            onUnexpected: failOnUnexpected)
        let options = SyncOptions(metadata: true)

        let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)

        XCTAssertEqual(
            world.fileSystem.visibleFiles,
            ["/archive/Show/Pilot.info.json", "/archive/Show/Pilot.mp3", "/archive/Show/cover.png"])
        XCTAssertEqual(report.artwork?.path, "/archive/Show/cover.png")
        XCTAssertNil(report.artworkFailure)
        let json = try sidecar(world, "/archive/Show/Pilot.info.json")
        XCTAssertEqual(json["title"] as? String, "Pilot")
        XCTAssertEqual(json["description"] as? String, "<p>Notes</p>")
        XCTAssertEqual(json["guid"] as? String, "g1")
        XCTAssertEqual(json["url"] as? String, "https://example.com/1.mp3")
        XCTAssertEqual(json["link"] as? String, "https://example.com/ep/1")
        XCTAssertEqual(json["published"] as? String, "2025-01-10T13:00:00Z")
        XCTAssertEqual(json["duration"] as? Double, 3601)
        XCTAssertEqual(json["episode"] as? Int, 1)
        XCTAssertEqual(json["file"] as? String, "Pilot.mp3")
        XCTAssertEqual(json["size"] as? Int, 9)
        XCTAssertEqual((json["feed"] as? [String: String])?["url"], feedURL)
        XCTAssertNil(json["season"], "absent values are left out")
        XCTAssertTrue(
            world.attributes.changes.contains {
                $0.path == "/archive/Show/Pilot.info.json" && $0.modificationDate == published
            },
            "the sidecar is dated like its episode")

        // Next run: nothing fetched or written again.
        let writes = world.fileSystem.atomicWrites.filter { $0.hasSuffix(".info.json") }.count
        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)
        XCTAssertEqual(world.downloader.requests.count, 2)
        XCTAssertEqual(world.fileSystem.atomicWrites.filter { $0.hasSuffix(".info.json") }.count, writes)
    }

    func test_metadataGivenLater_backfillsSidecarsWithoutDownloadingEpisodesAgain() async throws {
        let world = ArchiveWorld(
            feedURL: feedURL, feed: feed(),
            episodes: ["https://example.com/1.mp3": audio(), "https://example.com/art.png": png], now: clock,
            onUnexpected: failOnUnexpected)
        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)
        XCTAssertEqual(
            world.fileSystem.visibleFiles, ["/archive/Show/Pilot.mp3", "/archive/Show/cover.png"],
            "no sidecar without --metadata; the show's cover kept by every sync")

        _ = try await world.archiver.sync(
            .remote(URL(string: feedURL)!), into: root, options: SyncOptions(metadata: true))

        XCTAssertEqual(
            world.fileSystem.visibleFiles,
            ["/archive/Show/Pilot.info.json", "/archive/Show/Pilot.mp3", "/archive/Show/cover.png"])
        XCTAssertEqual(
            world.downloader.requests.compactMap { $0.url?.absoluteString },
            ["https://example.com/art.png", "https://example.com/1.mp3"])
        XCTAssertEqual(try sidecar(world, "/archive/Show/Pilot.info.json")["description"] as? String, "<p>Notes</p>")
    }

    func test_artworkFailure_isReportedRetriedNextRunAndCostsNoEpisode() async throws {
        // The feed has an ETag and does not change: a 304 must not hide the artwork still to fetch.
        let world = ArchiveWorld(
            feedURL: feedURL, feed: feed(), feedETag: "\"v1\"",
            episodes: [
                "https://example.com/1.mp3": audio(),
                "https://example.com/art.png": SpyDownloader.Canned(status: 404),
            ], now: clock, onUnexpected: failOnUnexpected)
        let options = SyncOptions(metadata: true)

        let first = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)
        world.downloader.script("https://example.com/art.png", [png])
        let second = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)

        XCTAssertEqual(first.artworkFailure, "server answered HTTP 404")
        XCTAssertEqual(first.archived.map(\.lastPathComponent), ["Pilot.mp3"])
        XCTAssertTrue(first.failed.isEmpty, "artwork is no episode")
        XCTAssertEqual(second.artwork?.lastPathComponent, "cover.png")
        XCTAssertFalse(second.feedUnchanged, "fetched in full while the artwork was missing")
        let third = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)
        XCTAssertTrue(third.feedUnchanged, "nothing left undone: a 304 again")
    }

    func test_aCoverThatKeepsFailing_isTriedByThreeRuns_thenWhenTheFeedChanges_notEveryNight() async throws {
        let world = ArchiveWorld(
            feedURL: feedURL, feed: feed(), feedETag: "\"v1\"",
            episodes: [
                "https://example.com/1.mp3": audio(), "https://example.com/art.png": SpyDownloader.Canned(status: 404),
            ], clock: { [clock] in clock }, onUnexpected: failOnUnexpected)
        let options = SyncOptions(metadata: true)
        var unchanged: [Bool] = []
        var retries: [SyncEvent.ArtworkRetry?] = []
        for _ in 1...5 {
            let said = Locked<[SyncEvent.ArtworkRetry]>([])
            let report = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options) {
                if case .artworkFailed(_, _, let retry) = $0 { said.withLock { $0.append(retry) } }
            }
            unchanged.append(report.feedUnchanged)
            retries.append(said.current.first)
        }

        XCTAssertEqual(unchanged, [false, false, false, true, true], "read in full by three runs, then answered 304")
        XCTAssertEqual(retries, [.nextRun, .nextRun, .whenTheFeedChanges, nil, nil], "each run says when it is tried")
        XCTAssertEqual(world.downloader.requests.filter { $0.url?.path == "/art.png" }.count, 3)

        // The feed changes (a new ETag): read in full, and the cover tried again, kept now that it is there.
        let changed = ArchiveWorld(
            feedURL: feedURL, feed: feed(), feedETag: "\"v2\"",
            episodes: ["https://example.com/art.png": png], clock: { [clock] in clock }, fileSystem: world.fileSystem,
            onUnexpected: failOnUnexpected)
        let report = try await changed.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)
        XCTAssertFalse(report.feedUnchanged)
        XCTAssertEqual(report.artwork?.lastPathComponent, "cover.png")
    }

    func test_sameTitleDifferentFormats_getSeparateSidecars_andArtworkNeverTakesAnEpisodesName() async throws {
        let items = """
            <item><title>Pilot</title><guid>g2</guid><enclosure url="https://example.com/1.m4a" type="audio/mp4"/></item>
            <item><title>cover</title><guid>g3</guid><enclosure url="https://example.com/cover.png" type="image/png"/></item>
            """
        let world = ArchiveWorld(
            feedURL: feedURL, feed: feed(extraItems: items),
            episodes: [
                "https://example.com/1.mp3": audio(), "https://example.com/1.m4a": audio("m4a"),
                "https://example.com/cover.png": png, "https://example.com/art.png": png,
            ], now: clock, onUnexpected: failOnUnexpected)

        let report = try await world.archiver.sync(
            .remote(URL(string: feedURL)!), into: root, options: SyncOptions(metadata: true))

        XCTAssertEqual(
            world.fileSystem.visibleFiles,
            [
                "/archive/Show/Pilot (2).info.json", "/archive/Show/Pilot (2).m4a", "/archive/Show/Pilot.info.json",
                "/archive/Show/Pilot.mp3", "/archive/Show/cover (2).info.json", "/archive/Show/cover (2).png",
                "/archive/Show/cover.png",
            ])
        XCTAssertEqual(report.archived.count, 3)
        XCTAssertEqual(report.artwork?.lastPathComponent, "cover.png", "fetched first, so it has its name")
        XCTAssertEqual(
            world.fileSystem.file("/archive/Show/cover (2).png"), png.body, "the episode is kept beside it")
    }

    func test_sidecarName() {
        XCTAssertEqual(ArchiveNames.sidecarName(for: "Pilot.mp3"), "Pilot.info.json")
        XCTAssertEqual(ArchiveNames.sidecarName(for: "Season 1/Pilot.v2.mp3"), "Season 1/Pilot.v2.info.json")
        XCTAssertEqual(ArchiveNames.sidecarName(for: "No extension"), "No extension.info.json")
    }
}
