import ArchiverCoreTesting
import Foundation
import XCTest

// Forgetting an episode for good: out of the index, its files deleted (or kept), never fetched again by a sync
// while the feed lists it, and taken back on request; a name that names no episode, or several, changes nothing.
@testable import ArchiverCore

final class EpisodeForgetterTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let show = URL(fileURLWithPath: "/archive/Night Show", isDirectory: true)
    private let feedURL = "https://example.com/feed.xml"
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private let feed = Data(
        """
        <rss><channel><title>Night Show</title>
        <item><title>One</title><guid>g1</guid><enclosure url="https://example.com/one.mp3"/></item>
        <item><title>Two</title><guid>g2</guid><enclosure url="https://example.com/two.mp3"/></item>
        <item><title>Twin</title><guid>t1</guid><enclosure url="https://example.com/t1.mp3"/></item>
        <item><title>Twin</title><guid>t2</guid><enclosure url="https://example.com/t2.mp3"/></item>
        </channel></rss>
        """.utf8)

    private func world(_ fileSystem: FakeFileSystem = FakeFileSystem(), feed: Data? = nil) -> ArchiveWorld {
        var episodes: [String: SpyDownloader.Canned] = [:]
        for name in ["one", "two", "t1", "t2"] {
            episodes["https://example.com/\(name).mp3"] = SpyDownloader.Canned(body: Data(name.utf8))
        }
        return ArchiveWorld(
            feedURL: feedURL, feed: feed ?? self.feed, episodes: episodes, clock: { [now] in now },
            fileSystem: fileSystem,
            onUnexpected: failOnUnexpected)
    }

    /// The archiver's forget and take-back (its folds said with the rest of a command's).
    private func forgetter(_ world: ArchiveWorld) -> Archiver { world.archiver }

    private func sync(_ world: ArchiveWorld) async throws -> SyncReport {
        try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)
    }

    private func indexed(_ world: ArchiveWorld) throws -> [String] {
        try world.archiver.archivedEpisodes(in: show).episodes.map(\.file)
    }

    private func requests(_ world: ArchiveWorld, _ name: String) -> Int {
        world.downloader.requests.count { $0.url?.lastPathComponent == name }
    }

    func test_aForgottenEpisode_leavesIndexAndDisk_andNoLaterSyncFetchesIt() async throws {
        let world = world()
        _ = try await sync(world)

        let forgotten = try await forgetter(world).forget(["One"], inShow: show, keepFiles: false)
        let later = try await sync(world)

        XCTAssertEqual(forgotten, [ForgottenEpisode(title: "One", file: "One.mp3", deleted: ["One.mp3"])])
        XCTAssertNil(world.fileSystem.file("/archive/Night Show/One.mp3"))
        XCTAssertEqual(try indexed(world), ["Two.mp3", "Twin.mp3", "Twin (2).mp3"])
        XCTAssertEqual(later.archived, [], "not fetched again while the feed lists it")
        XCTAssertEqual(later.failed.count, 0)
        XCTAssertEqual(requests(world, "one.mp3"), 1)
    }

    func test_aForgetKilledAfterItsRecord_isFinishedByTheNextSync_neverAFileTheIndexStillNames() async throws {
        let world = world()
        _ = try await sync(world)
        // What a forget killed between its record and its index leaves: the intent, nothing done yet. "Two.mp3" is
        // listed as well, as if the name had gone to another episode since: the index names it, so it stays.
        let entry = try XCTUnwrap(world.archiver.archivedEpisodes(in: show).episodes.first { $0.key == "g1" })
        let record = [
            "episodes": [
                [
                    "entry": try JSONSerialization.jsonObject(with: JSONEncoder().encode(entry)),
                    "forgotten": "2027-01-15T08:00:00Z", "pending": ["One.mp3", "One.info.json", "Two.mp3"],
                ]
            ]
        ]
        world.fileSystem.put(
            "/archive/Night Show/.podarchive/forgotten.json", try JSONSerialization.data(withJSONObject: record))

        let later = try await sync(world)

        XCTAssertEqual(later.archived, [])
        XCTAssertNil(world.fileSystem.file("/archive/Night Show/One.mp3"))
        XCTAssertEqual(world.fileSystem.file("/archive/Night Show/Two.mp3"), Data("two".utf8))
        XCTAssertEqual(try indexed(world), ["Two.mp3", "Twin.mp3", "Twin (2).mp3"])
        let settled = try XCTUnwrap(world.fileSystem.file("/archive/Night Show/.podarchive/forgotten.json"))
        XCTAssertFalse(String(decoding: settled, as: UTF8.self).contains("pending"), "settled")
        XCTAssertEqual(requests(world, "one.mp3"), 1)
        let again = try await forgetter(world).forget(["One"], inShow: show, keepFiles: false)
        XCTAssertEqual(again, [ForgottenEpisode(title: "One", file: "One.mp3", deleted: [], already: true)])
    }

    func test_keepFiles_keepsTheFile_butTheEpisodeIsForgottenAllTheSame() async throws {
        let world = world()
        _ = try await sync(world)

        let forgotten = try await forgetter(world).forget(["g2"], inShow: show, keepFiles: true)
        let later = try await sync(world)

        XCTAssertEqual(forgotten.map(\.deleted), [[]])
        XCTAssertEqual(world.fileSystem.file("/archive/Night Show/Two.mp3"), Data("two".utf8))
        XCTAssertFalse(try indexed(world).contains("Two.mp3"))
        XCTAssertEqual(later.archived, [])
    }

    func test_takingItBack_letsTheNextSyncFetchIt() async throws {
        let world = world()
        _ = try await sync(world)
        _ = try await forgetter(world).forget(["One.mp3"], inShow: show, keepFiles: false)

        let taken = try await forgetter(world).takeBack(["One"], inShow: show)
        let later = try await sync(world)

        XCTAssertEqual(taken.map(\.title), ["One"])
        XCTAssertEqual(taken.map(\.inIndexAgain), [false], "its file was deleted: the next sync fetches it")
        XCTAssertEqual(later.archived.map(\.lastPathComponent), ["One.mp3"])
        XCTAssertEqual(world.fileSystem.file("/archive/Night Show/One.mp3"), Data("one".utf8))
    }

    func test_aNameThatIsOneEpisodesTitleAndAnothersGUID_isRefused_namingBoth() async throws {
        let feed = Data(
            """
            <rss><channel><title>Night Show</title>
            <item><title>Real</title><guid>g1</guid><enclosure url="https://example.com/one.mp3"/></item>
            <item><title>Decoy</title><guid>Real</guid><enclosure url="https://example.com/two.mp3"/></item>
            </channel></rss>
            """.utf8)
        let world = world(feed: feed)
        _ = try await sync(world)

        do {
            _ = try await forgetter(world).forget(["Real"], inShow: show, keepFiles: false)
            XCTFail("a name two episodes answer to was taken")
        } catch let error as ForgetError {
            XCTAssertEqual(
                error.localizedDescription,
                "\"Real\" names 2 episodes: \"Real.mp3\" (its title), \"Decoy.mp3\" (its GUID); nothing was changed: "
                    + "name one by its file")
        }
        XCTAssertEqual(try indexed(world), ["Real.mp3", "Decoy.mp3"])
        XCTAssertNotNil(world.fileSystem.file("/archive/Night Show/Real.mp3"))
        XCTAssertNotNil(world.fileSystem.file("/archive/Night Show/Decoy.mp3"))
        let byFile = try await forgetter(world).forget(["Decoy.mp3"], inShow: show, keepFiles: false)
        XCTAssertEqual(byFile.map(\.file), ["Decoy.mp3"], "its file names it alone")
    }

    func test_anAmbiguousOrUnknownName_isRefused_andNothingChanges() async throws {
        let world = world()
        _ = try await sync(world)
        let forgetter = forgetter(world)

        do {
            _ = try await forgetter.forget(["One", "Twin"], inShow: show, keepFiles: false)
            XCTFail("an ambiguous name was taken")
        } catch let error as ForgetError {
            XCTAssertEqual(
                error,
                .ambiguous(
                    "Twin",
                    candidates: [.init(file: "Twin.mp3", by: "title"), .init(file: "Twin (2).mp3", by: "title")]))
            XCTAssertEqual(
                error.localizedDescription,
                "\"Twin\" names 2 episodes: \"Twin.mp3\" (its title), \"Twin (2).mp3\" (its title); nothing was changed: "
                    + "name one by its file")
        }
        do {
            _ = try await forgetter.forget(["Nine"], inShow: show, keepFiles: false)
            XCTFail("an unknown name was taken")
        } catch let error as ForgetError {
            XCTAssertEqual(
                error.localizedDescription,
                "no archived or listed episode of Night Show has the title, GUID or file name \"Nine\"")
        }
        do {
            _ = try await forgetter.takeBack(["Two"], inShow: show)
            XCTFail("an episode never forgotten was taken back")
        } catch let error as ForgetError {
            XCTAssertEqual(error, .unknownEpisode("Two", show: "Night Show", forgotten: true))
        }

        XCTAssertEqual(try indexed(world), ["One.mp3", "Two.mp3", "Twin.mp3", "Twin (2).mp3"])
        XCTAssertNotNil(world.fileSystem.file("/archive/Night Show/One.mp3"), "One was named beside Twin: kept")
    }

    func test_aShowASyncHolds_isNotChanged() async throws {
        let world = world()
        _ = try await sync(world)
        world.fileSystem.holdLock("/archive/Night Show/.podarchive/lock", by: 4242)

        do {
            _ = try await forgetter(world).forget(["One"], inShow: show, keepFiles: false)
            XCTFail("forgot while a sync held the show")
        } catch ArchiveError.locked {}
        XCTAssertNotNil(world.fileSystem.file("/archive/Night Show/One.mp3"))
    }
}
