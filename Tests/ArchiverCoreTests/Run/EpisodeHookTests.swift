import ArchiverCoreTesting
import Foundation
import XCTest

// The hook run after each archived episode, with a fake launcher: what it is told, when it runs, and that a hook
// that fails never costs its episode, is tried on the next runs, three in all, then given up once.
@testable import ArchiverCore

final class EpisodeHookTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let feedURL = "https://example.com/feed.xml"
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private let feed = Data(
        """
        <rss><channel><title>Night Show</title>
        <item><title>One; rm -rf ~ $(touch x)</title><guid>g1</guid><pubDate>Fri, 03 Jan 2025 10:00:00 GMT</pubDate>
        <enclosure url="https://example.com/one.mp3?token=s3cret"/></item>
        <item><title>Two</title><guid>g2</guid><enclosure url="https://example.com/two.mp3"/></item>
        </channel></rss>
        """.utf8)

    private func world(_ fileSystem: FakeFileSystem = FakeFileSystem()) -> ArchiveWorld {
        ArchiveWorld(
            feedURL: feedURL, feed: feed,
            episodes: [
                "https://example.com/one.mp3?token=s3cret": SpyDownloader.Canned(body: Data("one".utf8)),
                "https://example.com/two.mp3": SpyDownloader.Canned(body: Data("two".utf8)),
            ], clock: { [now] in now }, fileSystem: fileSystem, onUnexpected: failOnUnexpected)
    }

    private func sync(_ world: ArchiveWorld, _ launcher: FakeHookLauncher?) async throws -> SyncReport {
        var options = SyncOptions()
        options.hook = launcher.map { EpisodeHook(command: "notify \"$PODARCHIVE_TITLE\"", timeout: 7, launcher: $0) }
        return try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root, options: options)
    }

    private func index(_ world: ArchiveWorld) throws -> [String] {
        let data = try XCTUnwrap(world.fileSystem.file("/archive/Night Show/.podarchive/index.json"))
        return try IndexFormat.decode(data).episodes.map(\.file)
    }

    func test_eachArchivedEpisode_runsTheCommandAsGiven_withTheEpisodeOnlyInItsEnvironment() async throws {
        let launcher = FakeHookLauncher()
        let report = try await sync(world(), launcher)

        XCTAssertEqual(report.hookProblems, [])
        XCTAssertEqual(launcher.calls.map(\.command), Array(repeating: "notify \"$PODARCHIVE_TITLE\"", count: 2))
        XCTAssertEqual(launcher.calls.map(\.timeout), [7, 7])
        XCTAssertEqual(
            launcher.calls.first?.environment,
            [
                "PODARCHIVE_FILE": "/archive/Night Show/One; rm -rf ~ $(touch x).mp3",
                "PODARCHIVE_TITLE": "One; rm -rf ~ $(touch x)",
                "PODARCHIVE_SHOW": "Night Show",
                "PODARCHIVE_GUID": "g1",
                "PODARCHIVE_URL": "https://example.com/one.mp3?token=REDACTED",
                "PODARCHIVE_DATE": "2025-01-03T10:00:00Z",
                "PODARCHIVE_FOLDER": "/archive/Night Show",
            ])
        XCTAssertEqual(launcher.titles, ["One; rm -rf ~ $(touch x)", "Two"], "in feed order")
    }

    func test_theHooksOwed_areRecordedBeforeAnyEpisodeIsIndexed_andSettledAfterTheyRan() async throws {
        let world = world()
        let launcher = FakeHookLauncher()
        _ = try await sync(world, launcher)

        let writes = world.fileSystem.atomicWrites
        let owed = try XCTUnwrap(writes.firstIndex(of: "/archive/Night Show/.podarchive/hooks.json"))
        let indexed = try XCTUnwrap(writes.firstIndex(of: "/archive/Night Show/.podarchive/index.json"))
        XCTAssertLessThan(owed, indexed, "the intent before the effect: \(writes)")
        let ledger = try XCTUnwrap(world.fileSystem.file("/archive/Night Show/.podarchive/hooks.json"))
        let settled = try XCTUnwrap(JSONSerialization.jsonObject(with: ledger) as? [String: Any])
        XCTAssertEqual(settled["failing"] as? [String: Int], [:])
        XCTAssertEqual(Set(settled["done"] as? [String] ?? []), ["g1", "g2"])
    }

    func test_episodesIndexedByARunKilledBeforeItsHooks_getTheirHookOnTheNextRun() async throws {
        let world = world()
        _ = try await sync(world, nil)
        // What a run with a hook killed between its index and its hooks leaves: both owed (as 0.1.0 wrote it too).
        world.fileSystem.put(
            "/archive/Night Show/.podarchive/hooks.json",
            Data(#"{"done": [], "failing": {"g1": 0, "g2": 0}, "gaveUp": []}"#.utf8))
        let launcher = FakeHookLauncher()

        let report = try await sync(world, launcher)

        XCTAssertEqual(report.archived, [])
        XCTAssertEqual(launcher.titles, ["One; rm -rf ~ $(touch x)", "Two"])
    }

    func test_aRunWithoutAHook_owesNone() async throws {
        let world = world()
        _ = try await sync(world, nil)

        XCTAssertNil(world.fileSystem.file("/archive/Night Show/.podarchive/hooks.json"))
    }

    func test_aHookThatSucceeded_neverRunsAgain_notEvenWhenItsFileIsFetchedAgain() async throws {
        let world = world()
        let launcher = FakeHookLauncher()
        _ = try await sync(world, launcher)
        try world.fileSystem.removeItem(at: URL(fileURLWithPath: "/archive/Night Show/Two.mp3"))

        let again = try await sync(world, launcher)

        XCTAssertEqual(again.archived.map(\.lastPathComponent), ["Two.mp3"], "the missing file came back")
        XCTAssertEqual(launcher.titles, ["One; rm -rf ~ $(touch x)", "Two"], "no hook ran a second time")
    }

    func test_aFailingHook_keepsTheEpisode_isTriedOnTheNextRuns_threeInAll_thenGivenUpOnce() async throws {
        let world = world()
        let launcher = FakeHookLauncher([.exited(3), .exited(0)])
        var reports = [try await sync(world, launcher)]
        XCTAssertEqual(reports[0].archived.count, 2)
        XCTAssertEqual(reports[0].failed.count, 0, "the episode did not fail")
        XCTAssertEqual(try index(world), ["One; rm -rf ~ $(touch x).mp3", "Two.mp3"], "both stay recorded")
        XCTAssertEqual(
            reports[0].hookProblems,
            [
                HookProblem(
                    episode: "One; rm -rf ~ $(touch x)", file: "One; rm -rf ~ $(touch x).mp3",
                    reason: "exited with status 3", runs: 1, gaveUp: false)
            ])

        launcher.answer([.timedOut(7)])
        reports.append(try await sync(world, launcher))
        launcher.answer([.signalled(9)])
        reports.append(try await sync(world, launcher))
        reports.append(try await sync(world, launcher))

        XCTAssertEqual(reports[1].hookProblems.map(\.reason), ["still running after 7 s; stopped"])
        XCTAssertEqual(reports[2].hookProblems.map(\.runs), [3])
        XCTAssertEqual(reports[2].hookProblems.map(\.gaveUp), [true])
        XCTAssertEqual(reports[3].hookProblems, [], "given up: said once")
        XCTAssertEqual(
            launcher.titles,
            ["One; rm -rf ~ $(touch x)", "Two"] + Array(repeating: "One; rm -rf ~ $(touch x)", count: 2),
            "only the failing one was run again, and not after it was given up")
        XCTAssertEqual(world.downloader.requests.count, 2, "no episode was downloaded again")
    }

    func test_aRunWithoutHook_leavesEarlierFailuresWaiting_forTheNextRunWithOne() async throws {
        let world = world()
        let launcher = FakeHookLauncher([.exited(1)])
        _ = try await sync(world, launcher)
        _ = try await sync(world, nil)
        let later = try await sync(world, launcher)

        XCTAssertEqual(later.hookProblems, [])
        XCTAssertEqual(launcher.titles.last, "One; rm -rf ~ $(touch x)", "its second try")
        XCTAssertEqual(launcher.calls.count, 3)
    }

    func test_aHostileHookRecord_namesNoFile_andRunsNothingForEpisodesTheIndexDoesNotHold() async throws {
        let fileSystem = FakeFileSystem()
        fileSystem.put(
            "/archive/Night Show/.podarchive/hooks.json",
            Data(#"{"done": [], "failing": {"/etc/passwd": 1, "../../x": 2}, "gaveUp": []}"#.utf8))
        let launcher = FakeHookLauncher()
        _ = try await sync(world(fileSystem), launcher)

        XCTAssertEqual(launcher.titles, ["One; rm -rf ~ $(touch x)", "Two"])
        XCTAssertFalse(
            launcher.calls.contains { $0.environment["PODARCHIVE_FILE"]?.hasPrefix("/archive/Night Show/") != true })
    }
}
