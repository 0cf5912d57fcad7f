import Foundation
import TestSupport
import XCTest

// Retention without loss in the core: which episodes a retention lets go, what an offload does when the disk it
// copies to fills (nothing half moved, nothing lost), and how an index with episodes away is written and read.
@testable import ArchiverCore

final class OffloadTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("offload")
    }

    override func tearDown() {
        folder.remove()
    }

    private static let now = FeedDate.parseRFC3339("2024-06-01T00:00:00Z")!

    private func entry(_ name: String, published: String?, archived: String = "2024-05-01T00:00:00Z")
        -> ArchiveIndex.Entry
    {
        let audio = Data("the audio of \(name)".utf8)
        return ArchiveIndex.Entry(
            key: name, guid: name, title: name, url: "https://example.com/\(name).mp3", file: "\(name).mp3",
            size: Int64(audio.count), sha256: SHA256.hex(audio), published: published, archived: archived)
    }

    // MARK: - Which episodes go

    func test_leaving_keepsTheNewestByDate_undatedCountedFromWhenArchived_andNeverOneAwayOrNeverDownloaded() {
        var away = entry("away", published: "2020-01-01T00:00:00Z")
        away.away = AwayRecord(state: .offloaded, since: "2024-05-02T00:00:00Z", into: "/cold/Show", files: [])
        var skipped = entry("skipped", published: "2019-01-01T00:00:00Z")
        skipped.file = ""
        let entries = [
            entry("march", published: "2024-03-01T00:00:00Z"),
            entry("january", published: "2024-01-01T00:00:00Z"),
            entry("undated", published: nil, archived: "2024-02-01T00:00:00Z"),
            entry("may", published: "2024-05-01T00:00:00Z"),
            away, skipped,
        ]
        let cases: [(Retention, [String])] = [
            (.keepLast(2), ["january", "undated"]),
            (.keepLast(4), []),
            (.keepLast(1), ["march", "january", "undated"]),
            (.before(FeedDate.parseRFC3339("2024-02-15T00:00:00Z")!), ["january", "undated"]),
            (.keepDays(100), ["january", "undated"]),
            (.keepDays(1_000), []),
        ]
        for (retention, going) in cases {
            XCTAssertEqual(
                EpisodeOffloader.leaving(entries, retention: retention, now: Self.now).map(\.key), going,
                "\(retention): in index order")
        }
    }

    // MARK: - A disk that fills

    func test_offload_intoADiskThatFills_movesWhatFits_andLeavesTheRestWholeInTheArchive() async throws {
        let archive = folder.url.appendingPathComponent("archive")
        let show = archive.appendingPathComponent("Show")
        let cold = folder.url.appendingPathComponent("cold")
        try FileManager.default.createDirectory(at: show, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: cold, withIntermediateDirectories: true)
        let names = ["one", "two", "three", "four"]
        var index = ArchiveIndex(feed: "https://example.com/feed.xml", title: "Show")
        for (month, name) in names.enumerated() {
            index.record(entry(name, published: "2024-0\(month + 1)-01T00:00:00Z"))
            try Data("the audio of \(name)".utf8).write(to: show.appendingPathComponent("\(name).mp3"))
        }
        try FileManager.default.createDirectory(
            at: show.appendingPathComponent(".podarchive"), withIntermediateDirectories: true)
        try IndexFormat.encode(index).write(to: show.appendingPathComponent(".podarchive/index.json"))
        // Room for one copy: the second fails as a full disk does.
        let archiver = Archiver.live(writer: FillingDisk(copies: 1), now: { Self.now })

        let moved = try await archiver.offload(
            inShow: show, retention: .keepLast(1), target: .into(cold), dryRun: false, lockWait: 0)

        XCTAssertEqual(moved.map(\.title), ["one", "two", "three"])
        XCTAssertNil(moved[0].failed)
        XCTAssertEqual(moved[1].failed, "\(cold.path)/Show/two.mp3: No space left on device")
        XCTAssertEqual(moved[2].failed, moved[1].failed, "stopped at the first failure: nothing after it moved")
        let stored = try IndexFormat.decode(Data(contentsOf: show.appendingPathComponent(".podarchive/index.json")))
        XCTAssertEqual(stored.episodes.map { $0.away?.state }, [.offloaded, nil, nil, nil])
        XCTAssertNil(stored.episodes[0].away?.pending)
        XCTAssertEqual(
            Set(try FileManager.default.contentsOfDirectory(atPath: show.path)),
            [".podarchive", "two.mp3", "three.mp3", "four.mp3"])
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: cold.path + "/Show"), ["one.mp3"])
        for name in names.dropFirst() {
            XCTAssertEqual(
                try Data(contentsOf: show.appendingPathComponent("\(name).mp3")), Data("the audio of \(name)".utf8))
        }
    }

    // MARK: - The index

    func test_anIndexWithAnEpisodeAway_isVersion5_andReadsBackWithItsRecord() throws {
        var index = ArchiveIndex(feed: "https://example.com/feed.xml", title: "Show")
        index.record(entry("one", published: nil))
        XCTAssertEqual(index.writtenVersion, 2)
        index.setAway(
            AwayRecord(
                state: .offloaded, since: "2024-06-01T00:00:00Z", into: "/mnt/cold/Show", files: ["one.mp3"],
                pending: .offload), forKey: "one")

        let data = IndexFormat.encode(index)
        let read = try IndexFormat.decode(data)

        XCTAssertEqual(index.writtenVersion, 5, "an older podarchive refuses it rather than fetch it again")
        XCTAssertEqual(ArchiveIndex.currentVersion, 5)
        XCTAssertEqual(read.episodes[0].away, index.episodes[0].away)
        XCTAssertNotNil(IndexReader.read(data, maximumDepth: IndexFormat.maximumDepth), "the fast reader takes it")
        XCTAssertEqual(try JSONDecoder().decode(ArchiveIndex.self, from: data).episodes[0].away, read.episodes[0].away)
    }
}

/// The live writer, whose disk fills after `copies` durable copies.
private struct FillingDisk: AtomicFileWriting {
    private let live = DurableFileWriter()
    private let left: Locked<Int>

    init(copies: Int) { left = Locked(copies) }

    func copyDurably(_ source: URL, to url: URL) throws {
        let room = left.withLock { left in
            defer { left -= 1 }
            return left > 0
        }
        guard room else { throw FileSystemError(path: url.path, code: ENOSPC) }
        try live.copyDurably(source, to: url)
    }

    func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool) throws {
        try live.writeAtomically(data, to: url, durable: durable, ownerOnly: ownerOnly)
    }
    func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool, stagedIn staging: URL?) throws {
        try live.writeAtomically(data, to: url, durable: durable, ownerOnly: ownerOnly, stagedIn: staging)
    }
    func append(_ data: Data, to url: URL, durable: Bool) throws -> Int64 {
        try live.append(data, to: url, durable: durable)
    }
    func createExclusively(_ data: Data, at url: URL) throws -> Bool { try live.createExclusively(data, at: url) }
    func createExclusively(_ data: Data, at url: URL, stagedIn staging: URL?) throws -> Bool {
        try live.createExclusively(data, at: url, stagedIn: staging)
    }
    func appender(for url: URL) -> any FileAppending { live.appender(for: url) }
}
