import ArchiverCoreTesting
import Foundation
import XCTest

// The index's journal: what a record is, how a torn or damaged one is read, and that a first sync writes the
// index in proportion to what it archives (counted on the fake disk, not timed).
@testable import ArchiverCore

final class IndexJournalTests: FakeArchiveTestCase {
    private func entry(_ number: Int) -> ArchiveIndex.Entry {
        ArchiveIndex.Entry(
            key: "g\(number)", guid: "g\(number)", title: "Episode \(number)\nwith a line break",
            url: "https://example.com/\(number).mp3", file: "Episode \(number).mp3", size: Int64(number),
            sha256: String(repeating: "a", count: 64), published: nil, archived: "2027-01-15T08:00:00Z")
    }

    private func journal(_ entries: [ArchiveIndex.Entry]) -> Data {
        entries.reduce(into: Data()) { $0.append(try! IndexJournal.line(for: $1)) }
    }

    func test_records_readBackInOrder_oneLineEach() {
        let data = journal([entry(1), entry(2)])
        XCTAssertEqual(data.split(separator: 0x0A).count, 2, "a line break in a title stays inside its record")
        let read = IndexJournal.entries(in: data)
        XCTAssertEqual(read.entries, [entry(1), entry(2)])
        XCTAssertEqual(read.records, 2)
        XCTAssertEqual(read.damaged, [])
    }

    func test_aTornLastRecord_isIgnored_andADamagedOneIsSkipped_theRecordsAfterItStillRead() {
        let whole = journal([entry(1), entry(2)])
        for cut in [whole.count - 1, whole.count - 20, whole.count / 2 + 5] {
            let read = IndexJournal.entries(in: whole.prefix(cut))
            XCTAssertEqual(read.entries, [entry(1)], "cut at \(cut)")
            XCTAssertEqual(read.damaged, [2], "cut at \(cut)")
            XCTAssertEqual(read.damagedBeforeLast, [], "a crash tears the last record only: cut at \(cut)")
        }
        var flipped = journal([entry(1), entry(2), entry(3)])
        flipped[12] ^= 0x01  // inside the first record's JSON: its checksum no longer matches
        let read = IndexJournal.entries(in: flipped)
        XCTAssertEqual(read.entries, [entry(2), entry(3)])
        XCTAssertEqual(read.damaged, [1])
        XCTAssertEqual(read.damagedBeforeLast, [1])
        XCTAssertEqual(IndexJournal.entries(in: Data("garbage\n".utf8)).entries, [])
        XCTAssertEqual(IndexJournal.entries(in: Data("garbage\n".utf8)).damaged, [1])
        XCTAssertEqual(IndexJournal.entries(in: Data()).records, 0)
    }

    func test_firstSync_writesTheIndexWholeTwice_andAppendsOncePerBatch() async throws {
        let count = 600
        let items = (0..<count).map {
            ("Episode \($0)", "https://example.com/\($0).mp3", "g\($0)") as (String, String, String?)
        }
        for (_, url, _) in items { downloader.script(url, [audio("audio \(url)")]) }

        let report = try await sync(rss(items), options: SyncOptions(jobs: 4))

        XCTAssertEqual(report.archived.count, count)
        XCTAssertEqual(try index.episodes.count, count, "every episode is in the folded index")
        let wholeWrites = fileSystem.atomicWrites.filter { $0.hasSuffix("/index.json") }.count
        XCTAssertLessThanOrEqual(wholeWrites, 3, "created, folded once at most mid-run, and at the end")
        let appends = fileSystem.appends.filter { $0.hasSuffix("/index.journal") }.count
        XCTAssertGreaterThan(appends, 0)
        XCTAssertLessThanOrEqual(appends, count - 1, "the first episode creates the index; then an append per batch")
        XCTAssertNil(fileSystem.file("/archive/Show/.podarchive/index.journal"), "folded when the run ended")
        XCTAssertEqual(
            try fileSystem.contentsOfDirectory(atPath: "/archive/Show/.podarchive").filter {
                ArchiveNames.isDownloadRecord($0)
            }, [], "every download record removed when the run ended")
    }

    /// Group commit: while one sync of the journal is under way (held here, as a slow disk would hold it, until
    /// every other episode is in place), the episodes settled meanwhile all share the next one.
    func test_episodesSettledDuringAJournalSync_shareTheNextOne() async throws {
        let count = 20
        let items = (0..<count).map {
            ("Episode \($0)", "https://example.com/\($0).mp3", "g\($0)") as (String, String, String?)
        }
        for (_, url, _) in items { downloader.script(url, [audio("audio \(url)")]) }
        let moves = DispatchSemaphore(value: 0)
        let writer = HeldJournalSync(fileSystem) {
            // The first episode writes the index whole and the second starts the journal (both already moved):
            // wait for the other 18.
            let deadline = DispatchTime.now() + 5
            for _ in 0..<count where moves.wait(timeout: deadline) == .timedOut { break }
        }
        let archiver = Archiver(
            fileSystem: FileSystemSeams(
                files: fileSystem, attributes: fileSystem, mover: SignallingMover(fileSystem, moves), writer: writer,
                locker: fileSystem, hasher: fileSystem),
            network: NetworkSeams(
                fetcher: StubFetcher(
                    logger: logger, feedURL: feedURL, body: rss(items), onUnexpected: failOnUnexpected),
                downloader: downloader),
            clock: SyncClock(
                now: { Date(timeIntervalSince1970: 1_800_000_000) }, sleep: { _ in }, timer: noDeadline, jitter: { 0.5 }
            ))

        let report = try await archiver.sync(
            .remote(URL(string: feedURL)!), into: root, options: SyncOptions(jobs: 4))

        XCTAssertEqual(report.archived.count, count)
        XCTAssertEqual(try index.episodes.count, count)
        // One append for the second episode, one for those settled while it was being synced; the last episode
        // may just miss that one (its rename opens the gate before it is handed over), so at most three: one
        // append an episode would be 19.
        XCTAssertLessThanOrEqual(fileSystem.appends.filter { $0.hasSuffix("/index.journal") }.count, 3)
    }

    func test_anIndexWithAJournal_isReadWithIt_byEveryReader() async throws {
        fileSystem.put(
            "/archive/Show/.podarchive/index.json",
            IndexFormat.encode(ArchiveIndex(feed: feedURL, title: "Show", episodes: [entry(1)])))
        fileSystem.put("/archive/Show/.podarchive/index.journal", journal([entry(2), entry(3)]).dropLast(3))
        for number in 1...3 { fileSystem.put("/archive/Show/Episode \(number).mp3", Data(count: number)) }

        let (_, episodes) = try archiver(feed: Data()).archivedEpisodes(in: root.appendingPathComponent("Show"))

        XCTAssertEqual(episodes.map(\.key), ["g1", "g2"], "the torn third record is not read")
    }
}

/// The fake disk, whose first sync of the journal is held until `hold` returns.
private final class HeldJournalSync: AtomicFileWriting, @unchecked Sendable {
    private let fileSystem: FakeFileSystem
    private let hold: @Sendable () -> Void
    private let lock = NSLock()
    private var held = false

    init(_ fileSystem: FakeFileSystem, hold: @escaping @Sendable () -> Void) {
        self.fileSystem = fileSystem
        self.hold = hold
    }

    func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool) throws {
        try fileSystem.writeAtomically(data, to: url, durable: durable, ownerOnly: ownerOnly)
    }

    func createExclusively(_ data: Data, at url: URL) throws -> Bool {
        try fileSystem.createExclusively(data, at: url)
    }

    func append(_ data: Data, to url: URL, durable: Bool) throws -> Int64 {
        let size = try fileSystem.append(data, to: url, durable: durable)
        let first = lock.withLock { () -> Bool in
            guard durable, url.lastPathComponent == ArchiveLayout.journalFile, !held else { return false }
            held = true
            return true
        }
        if first { hold() }
        return size
    }
}

/// The fake disk's renames, each signalled.
private struct SignallingMover: FileMovement {
    let fileSystem: FakeFileSystem
    let moved: DispatchSemaphore

    init(_ fileSystem: FakeFileSystem, _ moved: DispatchSemaphore) {
        self.fileSystem = fileSystem
        self.moved = moved
    }

    func moveItem(at srcURL: URL, to dstURL: URL) throws {
        try fileSystem.moveItem(at: srcURL, to: dstURL)
        moved.signal()
    }
}
