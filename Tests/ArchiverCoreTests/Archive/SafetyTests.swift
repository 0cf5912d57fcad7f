// Locks, a full disk, feed churn, and the states a crash can leave: all on the in-memory file system.
import ArchiverCore
import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

final class SafetyTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let feedURL = "https://example.com/feed.xml"
    private let logger = RequestLogger()
    private let fileSystem = FakeFileSystem()
    private let sleeper = SpySleeper()
    private var downloader: SpyDownloader!

    override func setUp() {
        downloader = SpyDownloader(logger: logger, fileSystem: fileSystem, onUnexpected: failOnUnexpected)
    }

    private func archiver(feed: Data) -> Archiver {
        let sleeper = self.sleeper
        return Archiver(
            fetcher: StubFetcher(logger: logger, feedURL: feedURL, body: feed, onUnexpected: failOnUnexpected),
            downloader: downloader,
            mover: fileSystem, attributes: fileSystem, files: fileSystem, writer: fileSystem, locker: fileSystem,
            hasher: fileSystem, now: { Date(timeIntervalSince1970: 1_800_000_000) },
            sleep: { try await sleeper.sleep($0) },
            timer: noDeadline, jitter: { 0.5 })
    }

    private func rss(_ items: [(title: String, url: String, guid: String?)]) -> Data {
        FeedText.rss(items)
    }

    private func audio(_ text: String) -> SpyDownloader.Canned {
        SpyDownloader.Canned(body: Data(text.utf8), headers: ["Content-Type": "audio/mpeg"])
    }

    private func sync(_ feed: Data, options: SyncOptions = SyncOptions()) async throws -> SyncReport {
        try await archiver(feed: feed).sync(.remote(URL(string: feedURL)!), into: root, options: options)
    }

    private var index: ArchiveIndex {
        get throws { try ArchiveIndex.decode(XCTUnwrap(fileSystem.file("/archive/Show/.podarchive/index.json"))) }
    }

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
            fetcher: StubFetcher(logger: logger, feedURL: feedURL, body: feed, onUnexpected: failOnUnexpected),
            downloader: downloader,
            mover: fileSystem,
            attributes: fileSystem, files: fileSystem, writer: fileSystem, locker: fileSystem, hasher: fileSystem,
            now: { Date() },
            sleep: { seconds in
                try await sleeper.sleep(seconds)
                if sleeper.delays.count == 3 { fileSystem.releaseLock("/archive/Show/.podarchive/lock") }
            }, timer: noDeadline, jitter: { 0.5 })

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
        fileSystem.put(state + "index.json", try ArchiveIndex(feed: feedURL, title: "Show").encoded())
    }

    func test_sync_downloadCompleteButNotRenamed_isRenamedWithoutDownloadingAgain() async throws {
        let body = Data("complete episode".utf8)
        try leaveCompletedDownload(body, placed: false)

        let report = try await sync(rss([("One", "https://example.com/1.mp3", "g1")]))

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["One.mp3"])
        XCTAssertEqual(downloader.requests.count, 0)
        XCTAssertEqual(fileSystem.file("/archive/Show/One.mp3"), body)
        XCTAssertEqual(fileSystem.allFiles.filter { $0.contains("download-") }, [], "the download record is gone")
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

    // MARK: - Verify

    func test_verify_findsMissingResizedAndChangedFiles_andRepairFetchesThemAgain() async throws {
        let feed = rss([
            ("A", "https://example.com/a.mp3", "a"), ("B", "https://example.com/b.mp3", "b"),
            ("C", "https://example.com/c.mp3", "c"), ("D", "https://example.com/d.mp3", "d"),
        ])
        for name in ["a", "b", "c", "d"] {
            downloader.script("https://example.com/\(name).mp3", [audio("episode \(name)")])
        }
        _ = try await sync(feed)
        try fileSystem.removeItem(at: URL(fileURLWithPath: "/archive/Show/A.mp3"))
        fileSystem.put("/archive/Show/B.mp3", Data("episode".utf8))
        fileSystem.put("/archive/Show/C.mp3", Data("episode X".utf8))
        let archiver = archiver(feed: feed)

        let check = try await archiver.verify(root, repair: false)
        let repair = try await archiver.verify(root, repair: true)
        let again = try await archiver.verify(root, repair: false)

        XCTAssertEqual(
            check.problems.map(\.kind), [.missing, .resized(actual: 7, recorded: 9), .changed])
        XCTAssertEqual(check.problems.map(\.file), ["A.mp3", "B.mp3", "C.mp3"])
        XCTAssertEqual(check.files, 4)
        XCTAssertEqual(repair.repaired.count, 3)
        XCTAssertEqual(again.problems, [])
        XCTAssertEqual(fileSystem.file("/archive/Show/C.mp3"), Data("episode c".utf8))
        XCTAssertEqual(fileSystem.visibleFiles.count, 4)
    }

    func test_verify_repairKilledMidDownload_leavesTheFileInPlace_andLeftoverCopiesAreResolved() async throws {
        let feed = rss([("A", "https://example.com/a.mp3", "a"), ("B", "https://example.com/b.mp3", "b")])
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        downloader.script("https://example.com/b.mp3", [audio("episode b")])
        _ = try await sync(feed)
        // A repair that fails mid-download (the server went away) never moved the damaged file.
        fileSystem.put("/archive/Show/A.mp3", Data("episode X".utf8))
        downloader.script("https://example.com/a.mp3", [SpyDownloader.Canned(error: .transport("connection lost"))])
        _ = try await archiver(feed: feed).verify(
            root, repair: true, options: SyncOptions(retry: RetryPolicy(retries: 0)))
        XCTAssertEqual(fileSystem.file("/archive/Show/A.mp3"), Data("episode X".utf8))
        // An older podarchive killed mid-repair left copies: one whose file is gone, one whose file is back.
        let state = "/archive/Show/.podarchive/"
        try fileSystem.moveItem(
            at: URL(fileURLWithPath: "/archive/Show/B.mp3"),
            to: URL(fileURLWithPath: state + "damaged-" + String(SHA256.hex(Data("B.mp3".utf8)).prefix(16))))
        fileSystem.put(state + "damaged-" + String(SHA256.hex(Data("A.mp3".utf8)).prefix(16)), Data("stale copy".utf8))

        let report = try await archiver(feed: feed).verify(root, repair: false)

        XCTAssertEqual(report.problems.map(\.file), ["A.mp3"], "B is back in place, A is still the damaged one")
        XCTAssertEqual(fileSystem.file("/archive/Show/B.mp3"), Data("episode b".utf8))
        XCTAssertEqual(fileSystem.allFiles.filter { $0.contains("damaged-") }, [], "no copy outlives a run")
    }

    func test_verify_findsFilesInTheSubfoldersANameTemplateMade() async throws {
        let feed = rss([("A", "https://example.com/a.mp3", "a")])
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        _ = try await sync(feed, options: SyncOptions(names: try NameTemplate("{feed}/{title}")))

        let report = try await archiver(feed: feed).verify(root, repair: true)

        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show/Show/A.mp3"])
        XCTAssertEqual(report.problems, [], "not reported missing")
        XCTAssertEqual(downloader.requests.count, 1, "and not downloaded again")
    }

    func test_verify_repairThatFails_keepsTheDamagedFile() async throws {
        let feed = rss([("A", "https://example.com/a.mp3", "a")])
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        _ = try await sync(feed)
        fileSystem.put("/archive/Show/A.mp3", Data("episode X".utf8))
        downloader.script("https://example.com/a.mp3", [SpyDownloader.Canned(status: 404)])

        let report = try await archiver(feed: feed).verify(root, repair: true)

        XCTAssertEqual(report.remaining, 1)
        XCTAssertEqual(fileSystem.file("/archive/Show/A.mp3"), Data("episode X".utf8))
    }

    func test_verify_repairWhenThePublishersFileChanged_keepsBothAndRecordsANewVersion() async throws {
        // The archived file is damaged and the publisher has since replaced the episode (a re-edit, new ads):
        // the new content must not be recorded as if it were what was archived.
        let feed = rss([("A", "https://example.com/a.mp3", "a")])
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        _ = try await sync(feed)
        fileSystem.put("/archive/Show/A.mp3", Data("episode X".utf8))
        downloader.script("https://example.com/a.mp3", [audio("episode a, re-edited")])
        let archiver = archiver(feed: feed)

        let repair = try await archiver.verify(root, repair: true)
        let again = try await archiver.verify(root, repair: true)

        XCTAssertEqual(repair.repaired, [])
        XCTAssertEqual(repair.unrecoverable.map(\.file), ["A.mp3"])
        XCTAssertEqual(repair.unrecoverable.first?.replacedBy, "A (v2).mp3")
        XCTAssertEqual(repair.remaining, 1, "found this run: the exit code says so")
        XCTAssertEqual(fileSystem.file("/archive/Show/A.mp3"), Data("episode X".utf8), "the record stays")
        XCTAssertEqual(fileSystem.file("/archive/Show/A (v2).mp3"), Data("episode a, re-edited".utf8))
        let entries = try index.episodes
        XCTAssertEqual(entries.map(\.file), ["A.mp3", "A (v2).mp3"])
        XCTAssertEqual(entries[1].sha256, SHA256.hex(Data("episode a, re-edited".utf8)))
        XCTAssertEqual(entries[0].replacedBy, "A (v2).mp3")
        XCTAssertEqual(again.unrecoverable.map(\.file), ["A.mp3"], "still listed")
        XCTAssertEqual(again.remaining, 0, "known: no later run fails for it")
        XCTAssertEqual(downloader.requests.count, 2, "not downloaded again")
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show/A (v2).mp3", "/archive/Show/A.mp3"])
    }

    func test_rebuiltIndex_adoptsTheFilesAlreadyThere_neverDoublingTheArchive() async throws {
        // The README's advice for a damaged index: move it aside and sync again. The files stay where they are.
        let feed = Data(
            """
            <rss><channel><title>Show</title>
            <item><title>Sized</title><guid>s</guid><enclosure url="https://example.com/s.mp3" length="13"/></item>
            <item><title>Unsized</title><guid>u</guid><enclosure url="https://example.com/u.mp3"/></item>
            <item><title>Changed</title><guid>c</guid><enclosure url="https://example.com/c.mp3"/></item>
            </channel></rss>
            """.utf8)
        downloader.script("https://example.com/s.mp3", [audio("sized episode")])
        downloader.script("https://example.com/u.mp3", [audio("unsized episode")])
        downloader.script("https://example.com/c.mp3", [audio("changed episode")])
        _ = try await sync(feed)
        let before = try index.episodes
        try fileSystem.moveItem(
            at: URL(fileURLWithPath: "/archive/Show/.podarchive/index.json"),
            to: URL(fileURLWithPath: "/archive/Show/.podarchive/index.json.damaged"))
        downloader.script("https://example.com/c.mp3", [audio("changed episode, v2")])
        let requestsBefore = downloader.requests.count

        let rebuilt = try await sync(feed)

        let after = try index.episodes
        XCTAssertEqual(
            fileSystem.visibleFiles,
            [
                "/archive/Show/Changed (2).mp3", "/archive/Show/Changed.mp3", "/archive/Show/Sized.mp3",
                "/archive/Show/Unsized.mp3",
            ],
            "only the episode whose bytes differ gets a second file")
        XCTAssertEqual(
            downloader.requests.dropFirst(requestsBefore).compactMap(\.url?.lastPathComponent), ["u.mp3", "c.mp3"],
            "a file whose size the feed gives is hashed, not downloaded")
        XCTAssertEqual(after.first { $0.key == "s" }?.sha256, before.first { $0.key == "s" }?.sha256)
        XCTAssertEqual(after.first { $0.key == "u" }?.file, "Unsized.mp3")
        XCTAssertEqual(rebuilt.archived.map(\.lastPathComponent), ["Unsized.mp3", "Changed (2).mp3"])
    }

    func test_verify_folderWithoutArchive_isAnError() async throws {
        fileSystem.put("/elsewhere/readme.txt", Data())
        do {
            _ = try await archiver(feed: Data()).verify(URL(fileURLWithPath: "/elsewhere"), repair: false)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? ArchiveError, .noArchive(path: "/elsewhere"))
        }
    }

    // MARK: - Folders and index versions

    func test_sync_twoDifferentFeedsWithTheSameTitle_getTheirOwnFolders() async throws {
        downloader.script("https://example.com/1.mp3", [audio("one")])
        downloader.script("https://other.example.org/x.mp3", [audio("x")])
        _ = try await sync(rss([("One", "https://example.com/1.mp3", "1")]))
        let other = Archiver(
            fetcher: StubFetcher(
                logger: logger, feedURL: "https://other.example.org/feed",
                body: rss([("X", "https://other.example.org/x.mp3", "x")]), onUnexpected: failOnUnexpected),
            downloader: downloader, mover: fileSystem, attributes: fileSystem, files: fileSystem, writer: fileSystem,
            locker: fileSystem, hasher: fileSystem, now: { Date() }, sleep: { _ in }, timer: noDeadline, jitter: { 0.5 }
        )

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
            fetcher: StubFetcher(
                logger: logger, feedURL: "https://b.example/feed", body: rss([("B1", "https://b.example/1.mp3", "b1")]),
                onUnexpected: failOnUnexpected),
            downloader: downloader, mover: fileSystem, attributes: fileSystem, files: fileSystem, writer: fileSystem,
            locker: fileSystem, hasher: fileSystem, now: { Date() },
            sleep: { _ in
                // Show A finishes while B polls the lock.
                if fileSystem.file("/archive/Show/.podarchive/index.json") == nil {
                    fileSystem.put("/archive/Show/A1.mp3", Data("a1".utf8))
                    fileSystem.put("/archive/Show/.podarchive/index.json", try indexOfA.encoded())
                    fileSystem.releaseLock(lockPath)
                }
            }, timer: noDeadline, jitter: { 0.5 })

        let report = try await showB.sync(
            .remote(URL(string: "https://b.example/feed")!), into: root, options: SyncOptions(lockWait: 5))

        XCTAssertEqual(report.folder.path, "/archive/Show (2)")
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show (2)/B1.mp3", "/archive/Show/A1.mp3"])
        XCTAssertEqual(
            try ArchiveIndex.decode(XCTUnwrap(fileSystem.file("/archive/Show/.podarchive/index.json"))).feed,
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
