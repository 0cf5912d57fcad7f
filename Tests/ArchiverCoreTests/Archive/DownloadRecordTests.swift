// A download record as a log of one-line records: what each state of the file reads as.
import ArchiverCoreTesting
import Foundation
import XCTest

@testable import ArchiverCore

final class DownloadRecordTests: XCTestCase {
    private let fileSystem = FakeFileSystem()
    private let url = URL(fileURLWithPath: "/state/download-1.json")
    private let admitted = PartialRecord(url: "http://a.example/1.mp3", validator: "\"e\"", expectedSize: 10)
    private let complete = PartialRecord(
        url: "http://a.example/1.mp3", completeSize: 10, sha256: "ab", target: "One.mp3")

    private var records: ShowRecords { ShowRecords(files: fileSystem, writer: fileSystem) }

    override func setUpWithError() throws {
        try fileSystem.createDirectory(
            at: URL(fileURLWithPath: "/state"), withIntermediateDirectories: true, attributes: nil)
    }

    func test_theLastRecordWritten_isTheRecord() throws {
        XCTAssertNil(records.loadDownloadRecord(url), "no file, no record")
        try records.saveDownloadRecord(admitted, to: url)
        XCTAssertEqual(records.loadDownloadRecord(url), admitted)
        try records.saveDownloadRecord(complete, to: url)
        XCTAssertEqual(records.loadDownloadRecord(url), complete)
    }

    func test_aTornLastLine_leavesTheRecordAsItWas_andTheNextWriteIsALineOfItsOwn() throws {
        try records.saveDownloadRecord(admitted, to: url)
        let whole = try XCTUnwrap(fileSystem.contents(atPath: url.path))
        _ = try fileSystem.append(Data(#"{"completeSize":10,"sha"#.utf8), to: url, durable: false)
        XCTAssertEqual(records.loadDownloadRecord(url), admitted, "the torn line is not read")

        try records.saveDownloadRecord(complete, to: url)

        XCTAssertEqual(records.loadDownloadRecord(url), complete)
        XCTAssertTrue(try XCTUnwrap(fileSystem.contents(atPath: url.path)).starts(with: whole))
    }

    func test_aRecordWrittenOverManyAttempts_isCutBackToItsNewestLine_andNeverGrowsPastTheLimit() throws {
        for attempt in 0..<100 {
            var record = admitted
            record.validator = "\"attempt \(attempt)\""
            try records.saveDownloadRecord(record, to: url)
            XCTAssertLessThanOrEqual(
                Int64(try XCTUnwrap(fileSystem.contents(atPath: url.path)).count), ShowRecords.downloadRecordLimit)
            XCTAssertEqual(records.loadDownloadRecord(url), record)
        }
    }

    func test_aRecordAnOlderVersionWroteWhole_withoutANewline_isRead() throws {
        _ = try fileSystem.append(try JSONEncoder.records.encode(admitted), to: url, durable: false)
        XCTAssertEqual(records.loadDownloadRecord(url), admitted)
    }

    func test_aFileOfNothingThatDecodes_isNoRecord() throws {
        _ = try fileSystem.append(Data("garbage\n{\"url\":\n".utf8), to: url, durable: false)
        XCTAssertNil(records.loadDownloadRecord(url))
    }

    /// A run killed after syncing its journal but before removing the download records: the next run's opening
    /// removes those of archived episodes, and keeps the one that adopts a file renamed but not yet indexed.
    func test_recordsOfArchivedEpisodes_areRemovedWhenTheFolderIsOpened_butNotOneThatAdoptsAFile() throws {
        let state = URL(fileURLWithPath: "/state")
        let archived = PartialFiles(key: "archived", stateFolder: state)
        let unindexed = PartialFiles(key: "renamed, not indexed", stateFolder: state)
        let resuming = PartialFiles(key: "being repaired", stateFolder: state)
        for partial in [archived, unindexed, resuming] { try records.saveDownloadRecord(complete, to: partial.record) }
        _ = try fileSystem.append(Data("half".utf8), to: resuming.body, durable: false)
        var index = ArchiveIndex(feed: "https://example.com/feed.xml", title: "Show")
        for key in ["archived", "being repaired"] {
            index.record(
                ArchiveIndex.Entry(
                    key: key, guid: key, title: key, url: "https://example.com/\(key).mp3", file: "\(key).mp3",
                    size: 1, sha256: "ab", published: nil, archived: "2027-01-01T00:00:00Z"))
        }

        let folders = FeedFolders(
            files: fileSystem, attributes: fileSystem, mover: fileSystem,
            locks: ShowLocks(
                locker: fileSystem,
                clock: SyncClock(
                    now: { Date(timeIntervalSince1970: 0) }, sleep: { _ in }, timer: { _ in }, jitter: { 0.5 })),
            indexes: IndexStore(files: fileSystem, attributes: fileSystem, writer: fileSystem), records: records)
        folders.removeSettledRecords(
            try fileSystem.contentsOfDirectory(atPath: state.path), in: state, index: index)

        XCTAssertNil(fileSystem.contents(atPath: archived.record.path), "its episode is archived")
        XCTAssertNotNil(fileSystem.contents(atPath: unindexed.record.path), "it adopts the renamed file")
        XCTAssertNotNil(fileSystem.contents(atPath: resuming.record.path), "its body is still being fetched")
    }
}
