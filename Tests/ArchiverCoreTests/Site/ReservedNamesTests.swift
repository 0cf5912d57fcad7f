// The names the site writes (`ArchiveLayout`) are never an episode's, a companion's or a show folder's: the rules
// that name files add a suffix, and a file an earlier version put at such a name is moved, or left as it was when
// it cannot be. The whole thing end to end: podarchiveTests' SiteNamesTests.
import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

@testable import ArchiverCore

final class ReservedNamesTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let clock = Date(timeIntervalSince1970: 1_800_000_000)
    private let feedURL = "https://example.com/show.xml"
    private let episodeURL = "https://example.com/c.jpg"

    func test_reservedNames_areComparedWithoutCase_andOnlyWhereTheSiteWritesThem() {
        for name in ["index.html", "INDEX.HTML", "feed.xml", "Feed.Xml", "cover.jpg", "Cover.JPEG", "cover.webp"] {
            XCTAssertTrue(ArchiveLayout.isReservedInShow(name), name)
        }
        XCTAssertTrue(ArchiveLayout.isReservedInShow("feed.xml/Pilot.mp3"), "a folder of the site's file's name")
        XCTAssertFalse(ArchiveLayout.isReservedInShow("éé/feed.xml"))
        for name in ["feeds.opml", "cover.mp3", "feed (2).xml", "Season 1/feed.xml", "index.htm", "cover.svg"] {
            XCTAssertFalse(ArchiveLayout.isReservedInShow(name), name)
        }
        for name in ["index.html", "FEEDS.OPML", "Index.Html"] { XCTAssertTrue(ArchiveLayout.isReservedAtRoot(name)) }
        for name in ["feed.xml", "index.html (2)", "cover.jpg"] { XCTAssertFalse(ArchiveLayout.isReservedAtRoot(name)) }
    }

    func test_allocator_givesTheSitesNamesASuffix_asForAnyOtherClash() {
        var names = NameAllocator(taken: [])
        XCTAssertEqual(names.claim(NewFileName(prefix: "", stem: "feed", ext: "xml")), "feed (2).xml")
        XCTAssertEqual(names.claim(NewFileName(prefix: "", stem: "Index", ext: "HTML")), "Index (2).HTML")
        XCTAssertEqual(names.claim(NewFileName(prefix: "", stem: "cover", ext: "jpeg")), "cover (2).jpeg")
        XCTAssertEqual(names.claim(NewFileName(prefix: "Season 1/", stem: "feed", ext: "xml")), "Season 1/feed.xml")
        XCTAssertFalse(names.claim(exactly: "FEED.XML"))
        XCTAssertTrue(names.claim(siteFile: "cover.jpg"), "the show's artwork is the one file that takes it")
        XCTAssertEqual(NewFileName.allowed("cover.jpg"), "cover (2).jpg", "an episode cover.mp3's artwork")
        XCTAssertEqual(NewFileName.allowed("Pilot.en.vtt"), "Pilot.en.vtt")
    }

    func test_template_folderNamedLikeASiteFile_takesASuffix() throws {
        let template = try NameTemplate("{title}/{title}")
        let episode = Episode(title: "feed.xml", guid: nil, url: "https://example.com/a.mp3")

        let path = template.path(for: episode, feedTitle: "Show")

        XCTAssertEqual(path.folders, ["feed.xml (2)"])
    }

    // MARK: - Archives of an earlier version

    /// A show whose one episode an earlier version archived as `cover.jpg`; the file is at `file`.
    private func earlierArchive(fileAt file: String) async throws -> ArchiveWorld {
        let world = ArchiveWorld(
            feedURL: feedURL, feed: FeedText.rss([("cover", episodeURL, "g1")]),
            episodes: [episodeURL: SpyDownloader.Canned(body: Data("the episode".utf8))], now: clock,
            onUnexpected: failOnUnexpected)
        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)
        let indexPath = "/archive/Show/.podarchive/index.json"
        var index = try IndexFormat.decode(XCTUnwrap(world.fileSystem.file(indexPath)))
        var entry = try XCTUnwrap(index.episodes.first)
        XCTAssertEqual(entry.file, "cover (2).jpg", "what podarchive names it now")
        entry.file = "cover.jpg"
        index.update(entry)
        world.fileSystem.put(indexPath, IndexFormat.encode(index))
        if file != "cover (2).jpg" {
            try world.fileSystem.moveItem(
                at: root.appendingPathComponent("Show/cover (2).jpg"), to: root.appendingPathComponent("Show/\(file)"))
        }
        return world
    }

    private func sync(_ world: ArchiveWorld) async throws -> [SyncEvent] {
        let events = EventLog()
        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, onEvent: events.append)
        return events.all
    }

    private func recordedFile(_ world: ArchiveWorld) throws -> String? {
        try IndexFormat.decode(XCTUnwrap(world.fileSystem.file("/archive/Show/.podarchive/index.json")))
            .episodes.first?.file
    }

    func test_aFileThatCannotBeMoved_staysWithItsRecord_andTheRunSaysSoOnce() async throws {
        let world = try await earlierArchive(fileAt: "cover.jpg")
        world.fileSystem.failingWrites = ["/archive/Show/cover (2).jpg"]

        let events = try await sync(world)

        let moves = events.compactMap { if case .siteName(let move) = $0 { return move } else { return nil } }
        XCTAssertEqual(moves.count, 1)
        XCTAssertEqual(moves.first?.from.path, "/archive/Show/cover.jpg")
        XCTAssertEqual(moves.first?.to.path, "/archive/Show/cover (2).jpg")
        XCTAssertNotNil(moves.first?.failure)
        XCTAssertFalse(moves.first?.failure?.contains("\n") ?? true)
        XCTAssertEqual(world.fileSystem.file("/archive/Show/cover.jpg"), Data("the episode".utf8))
        XCTAssertNil(world.fileSystem.file("/archive/Show/cover (2).jpg"))
        XCTAssertEqual(try recordedFile(world), "cover.jpg", "the index as it was")
        let requests = await world.logger.requests
        XCTAssertEqual(requests.filter { $0 == .episode(episodeURL) }.count, 1, "not fetched again")
    }

    func test_aMoveWhoseIndexWasNotSaved_isRecordedByTheNextRun_withoutFetchingAgain() async throws {
        // Killed between the rename and the index: the file is at its new name, the index names the old one.
        let world = try await earlierArchive(fileAt: "cover (2).jpg")

        let events = try await sync(world)

        XCTAssertEqual(try recordedFile(world), "cover (2).jpg")
        XCTAssertEqual(world.fileSystem.file("/archive/Show/cover (2).jpg"), Data("the episode".utf8))
        XCTAssertTrue(
            events.contains(
                .siteName(
                    SiteNameMove(
                        from: root.appendingPathComponent("Show/cover.jpg"),
                        to: root.appendingPathComponent("Show/cover (2).jpg")))))
        let requests = await world.logger.requests
        XCTAssertEqual(requests.filter { $0 == .episode(episodeURL) }.count, 1, "not fetched again")
    }
}
