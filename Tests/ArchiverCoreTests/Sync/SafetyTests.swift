import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// Locks, a full disk, feed churn, and the states a crash can leave: all on the in-memory file system.
@testable import ArchiverCore

final class SafetyTests: FakeArchiveTestCase {
    // MARK: - Lock

    func test_sync_whileAnotherProcessHoldsTheFeedLock_failsNamingTheHolder() async throws {
        let feed = rss([("One", "https://example.com/1.mp3", "1")])
        downloader.script("https://example.com/1.mp3", [audio("one")])
        _ = try await sync(feed)
        fileSystem.holdLock("/archive/Show/.podarchive/lock", by: 4242)

        do {
            _ = try await sync(feed)
            XCTFail("expected the lock to be refused")
        } catch {
            XCTAssertEqual(error as? ArchiveError, .locked(folder: "/archive/Show", holder: 4242))
            XCTAssertEqual(
                error.localizedDescription,
                "/archive/Show is being synced by process 4242; try again later")
        }
        XCTAssertEqual(downloader.requests.count, 1, "nothing was downloaded twice")
    }

    func test_sync_withWait_pollsUntilTheOtherProcessIsDoneThenFindsNothingNew() async throws {
        let feed = rss([("One", "https://example.com/1.mp3", "1")])
        downloader.script("https://example.com/1.mp3", [audio("one")])
        _ = try await sync(feed)
        fileSystem.holdLock("/archive/Show/.podarchive/lock", by: 4242)
        let fileSystem = self.fileSystem
        let sleeper = SpySleeper()
        let releasing = Archiver(
            fileSystem: FileSystemSeams(
                files: fileSystem, attributes: fileSystem, mover: fileSystem, writer: fileSystem, locker: fileSystem,
                hasher: fileSystem),
            network: NetworkSeams(
                fetcher: StubFetcher(logger: logger, feedURL: feedURL, body: feed, onUnexpected: failOnUnexpected),
                downloader: downloader),
            clock: SyncClock(
                now: { Date() },
                sleep: { seconds in
                    try await sleeper.sleep(seconds)
                    if sleeper.delays.count == 3 { fileSystem.releaseLock("/archive/Show/.podarchive/lock") }
                }, timer: noDeadline, jitter: { 0.5 }))

        let report = try await releasing.sync(
            .remote(URL(string: feedURL)!), into: root, options: SyncOptions(lockWait: 10))

        XCTAssertEqual(sleeper.delays, [0.1, 0.1, 0.1])
        XCTAssertEqual(report.alreadyArchived, 1)
        XCTAssertEqual(downloader.requests.count, 1)
    }

    // MARK: - Disk

    func test_sync_notEnoughFreeSpace_stopsTheRunBeforeWritingAndKeepsTheIndexValid() async throws {
        let feed = rss([("One", "https://example.com/1.mp3", "1"), ("Two", "https://example.com/2.mp3", "2")])
        downloader.script("https://example.com/1.mp3", [audio("first episode")])
        downloader.script("https://example.com/2.mp3", [audio("second, larger episode")])
        _ = try await sync(rss([("One", "https://example.com/1.mp3", "1")]))
        fileSystem.freeSpace = 5

        do {
            _ = try await sync(feed)
            XCTFail("expected the run to stop")
        } catch {
            guard case .storage(_, let reason) = error as? ArchiveError else { return XCTFail("\(error)") }
            XCTAssertEqual(reason, "the episode needs 22 bytes and only 5 are free")
        }
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show/One.mp3"], "nothing half-written became visible")
        XCTAssertEqual(try index.episodes.map(\.file), ["One.mp3"])
    }

    func test_sync_unwritableIndex_stopsWithAStorageError() async throws {
        let feed = rss([("One", "https://example.com/1.mp3", "1")])
        downloader.script("https://example.com/1.mp3", [audio("one")])
        fileSystem.failingWrites = ["/archive/Show/.podarchive/index.json"]

        do {
            _ = try await sync(feed)
            XCTFail("expected a storage error")
        } catch {
            guard case .storage(let path, _) = error as? ArchiveError else { return XCTFail("\(error)") }
            XCTAssertEqual(path, "/archive/Show/.podarchive/index.json")
        }
    }

    // MARK: - Identity across feed churn

    func test_sync_enclosureURLChangingOnlyInItsQuery_isNotDownloadedAgain() async throws {
        downloader.script("https://cdn.example.com/ep1.mp3?token=aaa", [audio("one")])
        _ = try await sync(rss([("One", "https://cdn.example.com/ep1.mp3?token=aaa", nil)]))

        let second = try await sync(rss([("One", "https://cdn.example.com/ep1.mp3?token=bbb&utm_source=x", nil)]))

        XCTAssertEqual(second.archived, [])
        XCTAssertEqual(second.alreadyArchived, 1)
        XCTAssertEqual(downloader.requests.count, 1)
    }

    func test_sync_queryThatNamesTheEpisode_stillTellsEpisodesApart() async throws {
        downloader.script("https://example.com/get.php?id=1", [audio("one")])
        downloader.script("https://example.com/get.php?id=2", [audio("two")])

        let report = try await sync(
            rss([("One", "https://example.com/get.php?id=1", nil), ("Two", "https://example.com/get.php?id=2", nil)]))

        XCTAssertEqual(report.archived.count, 2)
    }

    func test_sync_titleChangedOrGUIDDroppedOrGUIDRegenerated_isNotDownloadedAgain() async throws {
        downloader.script("https://example.com/1.mp3", [audio("one")])
        downloader.script("https://example.com/2.mp3", [audio("two")])
        _ = try await sync(
            rss([("One", "https://example.com/1.mp3", "guid-1"), ("Two", "https://example.com/2.mp3", "guid-2")]))

        let second = try await sync(
            rss([
                ("One (corrected title)", "https://example.com/1.mp3", nil),
                ("Two", "https://example.com/2.mp3", "new-guid-2"),
            ]))

        XCTAssertEqual(second.archived, [])
        XCTAssertEqual(downloader.requests.count, 2)
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show/One.mp3", "/archive/Show/Two.mp3"], "no file renamed")
    }

    func test_sync_sameMediaFileNameWithDifferentGUIDs_areDifferentEpisodes() async throws {
        downloader.script("https://example.com/media.mp3?e=1", [audio("one")])
        downloader.script("https://example.com/media.mp3?e=2", [audio("two")])

        let report = try await sync(
            rss([
                ("One", "https://example.com/media.mp3?e=1", "g1"), ("Two", "https://example.com/media.mp3?e=2", "g2"),
            ]))

        XCTAssertEqual(report.archived.count, 2)
    }

    func test_sync_noGUIDsAndURLsDifferingOnlyInTheQuery_areDifferentEpisodes_inOneRunAndAcrossRuns() async throws {
        // Some hosts serve every episode as the same file name with an id in the query.
        for id in [1, 2, 3] { downloader.script("https://host.example/e0.mp3?id=\(id)", [audio("episode \(id)")]) }
        let first = try await sync(
            rss([
                ("Episode 1", "https://host.example/e0.mp3?id=1", nil),
                ("Episode 2", "https://host.example/e0.mp3?id=2", nil),
            ]))

        let second = try await sync(
            rss([
                ("Episode 3", "https://host.example/e0.mp3?id=3", nil),
                ("Episode 1", "https://host.example/e0.mp3?id=1&utm=x", nil),
                ("Episode 2", "https://host.example/e0.mp3?id=2", nil),
            ]))

        XCTAssertEqual(first.archived.map(\.lastPathComponent), ["Episode 1.mp3", "Episode 2.mp3"])
        XCTAssertEqual(
            second.archived.map(\.lastPathComponent), ["Episode 3.mp3"], "not 'already archived as Episode 1'")
        XCTAssertEqual(second.alreadyArchived, 2, "a tracking query on the same episode (same title) still matches")
    }

    func test_sync_oneGUIDOnThreeDifferentItems_keepsAllThree_andFindsThemNextRun() async throws {
        let feed = rss([
            ("First", "https://example.com/1.mp3", "same"), ("Second", "https://example.com/2.mp3", "same"),
            ("Third", "https://example.com/3.mp3", "same"), ("First", "https://example.com/1.mp3", "same"),
        ])
        for number in 1...3 { downloader.script("https://example.com/\(number).mp3", [audio("episode \(number)")]) }

        let first = try await sync(feed)
        let second = try await sync(feed)

        XCTAssertEqual(first.archived.map(\.lastPathComponent), ["First.mp3", "Second.mp3", "Third.mp3"])
        XCTAssertEqual(second.archived, [])
        XCTAssertEqual(second.alreadyArchived, 3, "the item listed twice is one episode")
        XCTAssertEqual(downloader.requests.count, 3)
        XCTAssertEqual(try index.episodes.map(\.guid), ["same", "same", "same"], "the GUID is kept as published")
    }

    func test_sync_manyFailures_writeTheIndexAFewTimes_notOncePerFailure() async throws {
        // 50,000 failing episodes rewrote (and fsynced) the whole index after each: quadratic in the feed's size.
        let items = (0..<2_000).map {
            ("Episode \($0)", "https://example.com/\($0).mp3", "g\($0)") as (String, String, String?)
        }
        for (_, url, _) in items { downloader.script(url, [SpyDownloader.Canned(status: 404)]) }

        let report = try await sync(rss(items), options: SyncOptions(retry: RetryPolicy(retries: 0)))

        XCTAssertEqual(report.failed.count, 2_000)
        XCTAssertEqual(try index.failures.count, 2_000, "every failure is recorded when the run ends")
        let indexWrites = fileSystem.atomicWrites.filter { $0.hasSuffix("/index.json") }.count
        XCTAssertLessThanOrEqual(indexWrites, 2, "written when the run ends, not once per failure")
    }

    // MARK: - After a crash

    /// What a run killed around the rename leaves: a download record saying the file is complete, with its hash
    /// and target name, and the file either still hidden (`placed` false) or already renamed into place.
    private func leaveCompletedDownload(_ body: Data, placed: Bool) throws {
        let state = "/archive/Show/.podarchive/"
        let base = state + "download-" + String(SHA256.hex(Array("g1".utf8)).prefix(16))
        fileSystem.put(placed ? "/archive/Show/One.mp3" : base + ".part", body)
        let record =
            #"{"url":"https://example.com/1.mp3","completeSize":\#(body.count),"sha256":"\#(SHA256.hex(body))","target":"One.mp3"}"#
        fileSystem.put(base + ".json", Data(record.utf8))
        fileSystem.put(state + "index.json", IndexFormat.encode(ArchiveIndex(feed: feedURL, title: "Show")))
    }

    func test_sync_downloadCompleteButNotRenamed_isRenamedWithoutDownloadingAgain() async throws {
        let body = Data("complete episode".utf8)
        try leaveCompletedDownload(body, placed: false)

        let report = try await sync(rss([("One", "https://example.com/1.mp3", "g1")]))

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["One.mp3"])
        XCTAssertEqual(downloader.requests.count, 0)
        XCTAssertEqual(fileSystem.file("/archive/Show/One.mp3"), body)
        XCTAssertEqual(
            fileSystem.allFiles.filter {
                $0.contains("download-") || ArchiveNames.isDownloadRecord(($0 as NSString).lastPathComponent)
            }, [], "the download record is gone")
    }

    func test_sync_renamedButNotIndexed_isAdoptedNotDuplicated() async throws {
        let body = Data("complete episode".utf8)
        try leaveCompletedDownload(body, placed: true)

        let report = try await sync(rss([("One", "https://example.com/1.mp3", "g1")]))

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["One.mp3"])
        XCTAssertEqual(downloader.requests.count, 0)
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show/One.mp3"], "no 'One (2).mp3'")
        XCTAssertEqual(try index.episodes.map(\.sha256), [SHA256.hex(body)])
    }

    // MARK: - Folders and index versions

    func test_sync_twoDifferentFeedsWithTheSameTitle_getTheirOwnFolders() async throws {
        downloader.script("https://example.com/1.mp3", [audio("one")])
        downloader.script("https://other.example.org/x.mp3", [audio("x")])
        _ = try await sync(rss([("One", "https://example.com/1.mp3", "1")]))
        let other = Archiver(
            fileSystem: FileSystemSeams(
                files: fileSystem, attributes: fileSystem, mover: fileSystem, writer: fileSystem, locker: fileSystem,
                hasher: fileSystem),
            network: NetworkSeams(
                fetcher: StubFetcher(
                    logger: logger, feedURL: "https://other.example.org/feed",
                    body: rss([("X", "https://other.example.org/x.mp3", "x")]), onUnexpected: failOnUnexpected),
                downloader: downloader),
            clock: SyncClock(now: { Date() }, sleep: { _ in }, timer: noDeadline, jitter: { 0.5 }))

        let report = try await other.sync(.remote(URL(string: "https://other.example.org/feed")!), into: root)

        XCTAssertEqual(report.folder.path, "/archive/Show (2)")
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show (2)/X.mp3", "/archive/Show/One.mp3"])
    }

    func test_sync_twoShowsOfOneTitleAtOnce_withWait_neverShareAFolder() async throws {
        // Show B picks "Show" while show A, syncing for the first time, holds the folder's lock; A finishes while B
        // waits. Under the lock, B must see that the folder is now A's.
        let fileSystem = self.fileSystem
        let lockPath = "/archive/Show/.podarchive/lock"
        fileSystem.holdLock(lockPath, by: 4242)
        let indexOfA = ArchiveIndex(
            feed: "https://a.example/feed", title: "Show",
            episodes: [
                ArchiveIndex.Entry(
                    key: "a1", guid: "a1", title: "A1", url: "https://a.example/1.mp3", file: "A1.mp3", size: 2,
                    published: nil, archived: "2025-01-01T00:00:00Z")
            ])
        downloader.script("https://b.example/1.mp3", [audio("b1")])
        let showB = Archiver(
            fileSystem: FileSystemSeams(
                files: fileSystem, attributes: fileSystem, mover: fileSystem, writer: fileSystem, locker: fileSystem,
                hasher: fileSystem),
            network: NetworkSeams(
                fetcher: StubFetcher(
                    logger: logger, feedURL: "https://b.example/feed",
                    body: rss([("B1", "https://b.example/1.mp3", "b1")]),
                    onUnexpected: failOnUnexpected), downloader: downloader),
            clock: SyncClock(
                now: { Date() },
                sleep: { _ in
                    // Show A finishes while B polls the lock.
                    if fileSystem.file("/archive/Show/.podarchive/index.json") == nil {
                        fileSystem.put("/archive/Show/A1.mp3", Data("a1".utf8))
                        fileSystem.put("/archive/Show/.podarchive/index.json", IndexFormat.encode(indexOfA))
                        fileSystem.releaseLock(lockPath)
                    }
                }, timer: noDeadline, jitter: { 0.5 }))

        let report = try await showB.sync(
            .remote(URL(string: "https://b.example/feed")!), into: root, options: SyncOptions(lockWait: 5))

        XCTAssertEqual(report.folder.path, "/archive/Show (2)")
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show (2)/B1.mp3", "/archive/Show/A1.mp3"])
        XCTAssertEqual(
            try IndexFormat.decode(XCTUnwrap(fileSystem.file("/archive/Show/.podarchive/index.json"))).feed,
            "https://a.example/feed", "A's index is A's alone")
    }

    func test_sync_indexFromVersion1_isReadAndItsEpisodesAreNotDownloadedAgain() async throws {
        let v1 = """
            {"version": 1, "feed": "\(feedURL)", "title": "Show", "episodes": [
              {"key": "g1", "title": "One", "url": "https://example.com/1.mp3", "file": "One.mp3", "size": 3,
               "published": null, "archived": "2025-01-01T00:00:00Z"}]}
            """
        fileSystem.put("/archive/Show/.podarchive/index.json", Data(v1.utf8))
        fileSystem.put("/archive/Show/One.mp3", Data("one".utf8))

        let report = try await sync(rss([("One", "https://example.com/1.mp3?new-tracking=1", "g1")]))

        XCTAssertEqual(report.alreadyArchived, 1)
        XCTAssertEqual(downloader.requests.count, 0)
        XCTAssertEqual(try index.episodes.first?.guid, "g1", "version 1 kept the GUID only as the key")
    }

    func test_sync_indexFromANewerPodarchive_isRefusedUntouched_whateverItsShape() async throws {
        let futures = [
            #"{"version": 99, "feed": "x", "episodes": []}"#,
            #"{"version": 99, "shows": {"x": {"episodes": "elsewhere"}}}"#,
        ]
        for future in futures.map({ Data($0.utf8) }) {
            fileSystem.put("/archive/Show/.podarchive/index.json", future)
            fileSystem.put("/archive/Show/.podarchive/lock", Data())

            do {
                _ = try await sync(rss([("One", "https://example.com/1.mp3", "1")]))
                XCTFail("expected an error")
            } catch {
                XCTAssertEqual(
                    error as? ArchiveError, .newerIndex(path: "/archive/Show/.podarchive/index.json", version: 99))
            }
            XCTAssertEqual(fileSystem.file("/archive/Show/.podarchive/index.json"), future)
        }
    }
}
