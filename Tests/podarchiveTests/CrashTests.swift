import Foundation
import TestSupport
import XCTest

// The built binary killed with SIGKILL at each dangerous moment, then run again: the archive must hold each
// episode exactly once, byte-identical, with nothing partial visible and a valid index.
// Two syncs of one feed at once: the second waits or exits 4, and nothing is downloaded twice.
@testable import ArchiverCore

final class CrashTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private let big = Data((0..<4_000_000).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 7) })
    private let small = Data("a small episode".utf8)

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        folder = try TemporaryFolder("crash")
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Crash Show</title>
                <item><title>Big</title><guid>big</guid><pubDate>Fri, 10 Jan 2025 13:00:00 GMT</pubDate>
                  <enclosure url="/big.mp3" type="audio/mpeg"/></item>
                <item><title>Small</title><guid>small</guid><enclosure url="/small.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        let small = self.small
        server.route("/small.mp3") { request, _ in TestResponse.file(small, for: request, etag: "\"s\"") }
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    /// Serves the big episode: slowly to the first request (so it can be killed mid-way), at full speed after.
    private func serveBig(firstRequest: (inout TestResponse) -> Void = { _ in }) {
        let big = self.big
        var slow = TestResponse.file(big, for: RecordedRequest(path: "/big.mp3"), etag: "\"b\"")
        firstRequest(&slow)
        let first = slow
        server.route("/big.mp3") { request, count in
            count == 0 ? first : TestResponse.file(big, for: request, etag: "\"b\"")
        }
    }

    private func environment(crashingAt point: String? = nil) -> [String: String] {
        ProcessRunner.isolatedEnvironment(
            home: folder.url, extra: point.map { ["PODARCHIVE_TEST_CRASH": $0] } ?? [:])
    }

    /// One download at a time, in feed order, so each kill point lands on the big episode.
    private func start(crashingAt point: String? = nil, _ extra: [String] = []) throws -> RunningProcess {
        #if !PODARCHIVE_TEST_HOOKS
            // Test hooks never ship: a build without them (`swift test -c release` alone) has no switch to kill
            // itself. `make test` and `make test-release` build with them, so CI runs every crash test in both.
            if point != nil {
                let reason = "built without PODARCHIVE_TEST_HOOKS: no crash switch (run make test-release)"
                if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(reason) }
                throw XCTSkip(reason)
            }
        #endif
        return try ProcessRunner.start(
            ProcessRunner.podarchive,
            ["sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--jobs", "1"] + extra,
            environment: environment(crashingAt: point), currentDirectory: folder.url)
    }

    /// Each episode exactly once, byte-identical, nothing partial visible, an index that lists both.
    private func assertArchiveIsWhole(file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(
            folder.visibleFiles(), ["archive/Crash Show/Big.mp3", "archive/Crash Show/Small.mp3"], file: file,
            line: line)
        let show = folder.url.appendingPathComponent("archive/Crash Show")
        XCTAssertEqual(
            FileManager.default.contents(atPath: show.appendingPathComponent("Big.mp3").path), big, file: file,
            line: line)
        XCTAssertEqual(
            FileManager.default.contents(atPath: show.appendingPathComponent("Small.mp3").path), small, file: file,
            line: line)
        let index = try IndexFormat.decode(
            XCTUnwrap(FileManager.default.contents(atPath: show.appendingPathComponent(".podarchive/index.json").path)))
        XCTAssertEqual(Set(index.episodes.map(\.file)), ["Big.mp3", "Small.mp3"], file: file, line: line)
        XCTAssertEqual(index.episodes.first { $0.file == "Big.mp3" }?.sha256, SHA256.hex(big), file: file, line: line)
        XCTAssertEqual(
            folder.files().filter { $0.hasSuffix(".part") || $0.contains(".tmp-") }, [], file: file, line: line)
        let modified =
            try FileManager.default.attributesOfItem(atPath: show.appendingPathComponent("Big.mp3").path)[
                .modificationDate] as? Date
        XCTAssertEqual(modified?.timeIntervalSince1970, 1_736_514_000, file: file, line: line)
    }

    private func bigRequests() -> [RecordedRequest] {
        server.requests.filter { $0.path == "/big.mp3" }
    }

    // MARK: - Kill points

    func test_killedBeforeTheFirstByte_nextRunArchivesEverything() throws {
        serveBig { $0.delayBeforeHeaders = 60 }
        let first = try start()
        XCTAssertTrue(server.waitUntilRequested("/big.mp3"))
        first.kill()
        XCTAssertEqual(first.wait().status, 128 + SIGKILL)

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        try assertArchiveIsWhole()
    }

    func test_killedMidBody_nextRunResumesWithARangeRequest() throws {
        serveBig { $0.trickle = (chunk: 65_536, interval: 0.05) }
        let first = try start()
        XCTAssertTrue(server.waitUntilSent(1_000_000, of: "/big.mp3"))
        first.kill()
        _ = first.wait()
        XCTAssertEqual(folder.visibleFiles(), [], "nothing partial is visible after the kill")

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        try assertArchiveIsWhole()
        let resumed = try XCTUnwrap(bigRequests().last?.headers["range"])
        let offset = try XCTUnwrap(Int(resumed.dropFirst("bytes=".count).dropLast()))
        XCTAssertGreaterThan(offset, 0, resumed)
        XCTAssertEqual(bigRequests().last?.headers["if-range"], "\"b\"")
    }

    func test_repairKilledMidDownload_leavesTheDamagedFileInPlace_andTheNextRepairFixesIt() throws {
        serveBig()
        XCTAssertEqual(try start().wait().status, 0)
        let file = folder.url.appendingPathComponent("archive/Crash Show/Big.mp3")
        var damaged = big
        damaged[1_000] ^= 0xFF
        try damaged.write(to: file)
        let big = self.big
        server.route("/big.mp3") { request, count in
            var response = TestResponse.file(big, for: request, etag: "\"b\"")
            if count == 1 { response.trickle = (chunk: 65_536, interval: 0.05) }
            return response
        }
        let repair = try ProcessRunner.start(
            ProcessRunner.podarchive, ["verify", "archive", "--repair"], environment: environment(),
            currentDirectory: folder.url)
        XCTAssertTrue(server.waitUntilSent(1_000_000, of: "/big.mp3"))

        repair.kill()
        _ = repair.wait()

        XCTAssertEqual(FileManager.default.contents(atPath: file.path), damaged, "still in place, never moved aside")
        let again = try ProcessRunner.run(
            ProcessRunner.podarchive, ["verify", "archive", "--repair"], environment: environment(),
            currentDirectory: folder.url)
        XCTAssertEqual(again.status, 0, again.stderr)
        try assertArchiveIsWhole()
        XCTAssertEqual(
            folder.files().filter { $0.contains("damaged-") }, [], "no copy of the damaged file is left behind")
    }

    func test_ctrlCMidBody_stopsCleanlyWithExit130_andTheNextRunResumes() throws {
        try assertStopsCleanly(on: SIGINT, exitingWith: 130)
    }

    func test_sigtermMidBody_stopsCleanlyWithExit143_andTheNextRunResumes() throws {
        try assertStopsCleanly(on: SIGTERM, exitingWith: 143)
    }

    private func assertStopsCleanly(on signal: Int32, exitingWith status: Int32) throws {
        serveBig { $0.trickle = (chunk: 65_536, interval: 0.05) }
        let first = try start()
        XCTAssertTrue(server.waitUntilSent(1_000_000, of: "/big.mp3"))

        first.send(signal)
        let stopped = first.wait()

        XCTAssertEqual(stopped.status, status, stopped.stderr)
        XCTAssertEqual(stopped.stderr, "podarchive: interrupted: 1 partial download kept, the next run resumes it\n")
        XCTAssertEqual(folder.visibleFiles(), [], "nothing partial is visible")
        // The lock was released: the next run starts at once (no --wait) and resumes where the first stopped.
        let second = try start().wait()
        XCTAssertEqual(second.status, 0, second.stderr)
        try assertArchiveIsWhole()
        XCTAssertNotNil(bigRequests().last?.headers["range"], "resumed, not started over")
    }

    func test_killedJustBeforeTheRename_nextRunRenamesWithoutDownloadingAgain() throws {
        serveBig()
        let first = try start(crashingAt: "before-rename").wait()
        XCTAssertEqual(first.status, 128 + SIGKILL)
        let requestsBefore = bigRequests().count

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        try assertArchiveIsWhole()
        XCTAssertEqual(
            bigRequests().count, requestsBefore, "the complete download was kept and renamed, not fetched again")
    }

    func test_killedAfterTheRenameBeforeTheIndex_nextRunAdoptsTheFileWithoutDuplicating() throws {
        serveBig()
        let first = try start(crashingAt: "after-rename").wait()
        XCTAssertEqual(first.status, 128 + SIGKILL)

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        try assertArchiveIsWhole()
        XCTAssertEqual(bigRequests().count, 1)
    }

    /// A download record is a log of lines: one torn mid-append leaves the record as it was before that write.
    func test_killedMidDownloadRecord_theRecordReadsAsBefore_andTheCompleteBodyIsNotFetchedAgain() throws {
        serveBig()
        let first = try start(crashingAt: "record-write").wait()
        XCTAssertEqual(first.status, 128 + SIGKILL)
        let state = folder.url.appendingPathComponent("archive/Crash Show/.podarchive")
        // The show's download log: the small episode's lines may be among them (it may have started once the big
        // one gave its slot back, before the big one's last record write), so the big one's are picked out.
        let lines = try XCTUnwrap(
            FileManager.default.contents(atPath: state.appendingPathComponent(ArchiveLayout.downloadLog).path)
        ).split(separator: UInt8(ascii: "\n"))
        let whole = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0)) as? [String: Any] }
        let torn = lines.filter { (try? JSONSerialization.jsonObject(with: Data($0))) == nil }
        XCTAssertEqual(
            whole.filter { ($0["url"] as? String)?.hasSuffix("/big.mp3") == true }.count, 1,
            "the response's record of the big episode, whole: \(whole)")
        XCTAssertEqual(torn.count, 1, "the record that was to name the file, cut in half")
        XCTAssertEqual(torn.first, lines.last, "the torn one was the last write")
        XCTAssertEqual(folder.visibleFiles(), [], "nothing was renamed into place")

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        try assertArchiveIsWhole()
        XCTAssertEqual(bigRequests().count, 1, "the whole body was on disk: hashed there, not fetched again")
    }

    func test_killedWhileWritingTheIndex_nextRunFindsAValidIndexAndAdopts() throws {
        serveBig()
        let first = try start(crashingAt: "index-write").wait()
        XCTAssertEqual(first.status, 128 + SIGKILL)
        let index = folder.url.appendingPathComponent("archive/Crash Show/.podarchive/index.json")
        if let data = FileManager.default.contents(atPath: index.path) {
            XCTAssertNoThrow(try IndexFormat.decode(data), "the old index survived whole")
        }

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        try assertArchiveIsWhole()
        XCTAssertEqual(bigRequests().count, 1)
    }

    // MARK: - The index's journal

    private var journal: URL { folder.url.appendingPathComponent("archive/Crash Show/.podarchive/index.journal") }

    func test_killedMidJournalAppend_theTornRecordIsIgnored_andItsEpisodeAdopted() throws {
        serveBig()
        let first = try start(crashingAt: "journal-append").wait()
        XCTAssertEqual(first.status, 128 + SIGKILL)
        let torn = try XCTUnwrap(FileManager.default.contents(atPath: journal.path), "the append was cut short")
        let reading = IndexJournal.entries(in: torn)
        XCTAssertEqual(reading.damaged, [reading.records], "the last record is torn")
        XCTAssertEqual(reading.damagedBeforeLast, [])

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stderr, "", "a record torn by a crash is no damage to report")
        try assertArchiveIsWhole()
        XCTAssertEqual(bigRequests().count, 1, "nothing downloaded twice")
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal.path), "the run folded its journal")
    }

    func test_killedBetweenJournalAndFold_nextRunReadsTheJournal_andDownloadsNothing() throws {
        serveBig()
        let first = try start(crashingAt: "before-fold").wait()
        XCTAssertEqual(first.status, 128 + SIGKILL)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal.path))
        let requestsBefore = server.requests.filter { $0.path.hasSuffix(".mp3") }.count

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("0 archived, 2 already archived"), second.stdout)
        try assertArchiveIsWhole()
        XCTAssertEqual(server.requests.filter { $0.path.hasSuffix(".mp3") }.count, requestsBefore)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journal.path))
    }

    func test_killedMidFold_theOldIndexAndTheJournalStillHoldEverything() throws {
        serveBig()
        let first = try start(crashingAt: "fold-write").wait()
        XCTAssertEqual(first.status, 128 + SIGKILL)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal.path))

        let second = try start().wait()

        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("0 archived, 2 already archived"), second.stdout)
        try assertArchiveIsWhole()
        XCTAssertEqual(bigRequests().count, 1)
    }

    // MARK: - Two syncs at once

    func test_secondSyncOfTheSameFeed_exits4NamingTheFirst() throws {
        serveBig { $0.trickle = (chunk: 65_536, interval: 0.02) }
        let first = try start()
        XCTAssertTrue(server.waitUntilRequested("/big.mp3"))

        let second = try start().wait()
        let firstResult = first.wait()

        XCTAssertEqual(second.status, 4)
        XCTAssertTrue(second.stderr.contains("is being synced by process \(first.pid)"), second.stderr)
        XCTAssertEqual(firstResult.status, 0, firstResult.stderr)
        try assertArchiveIsWhole()
        XCTAssertEqual(bigRequests().count, 1, "no episode downloaded twice")
    }

    func test_secondSyncWithWait_waitsThenFindsNothingNew() throws {
        serveBig { $0.trickle = (chunk: 65_536, interval: 0.02) }
        let first = try start()
        XCTAssertTrue(server.waitUntilRequested("/big.mp3"))

        let second = try start(["--wait", "60"]).wait()
        let firstResult = first.wait()

        XCTAssertEqual(firstResult.status, 0, firstResult.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(second.stdout, "Crash Show: 0 archived, 2 already archived\n")
        try assertArchiveIsWhole()
        XCTAssertEqual(bigRequests().count, 1)
    }
}
