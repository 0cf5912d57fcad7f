// Download records as a show's log of one-line records: what each state of the log reads as, and the record files
// an earlier version kept.
import ArchiverCoreTesting
import Foundation
import XCTest

@testable import ArchiverCore

final class DownloadRecordTests: XCTestCase {
    private let fileSystem = FakeFileSystem()
    private let state = URL(fileURLWithPath: "/state")
    private var partial: PartialFiles { PartialFiles(key: "1", state: ShowState(stateFolder: state)) }
    private var log: URL { state.appendingPathComponent(ArchiveLayout.downloadLog) }
    private let admitted = PartialRecord(url: "http://a.example/1.mp3", validator: "\"e\"", expectedSize: 10)
    private let complete = PartialRecord(
        url: "http://a.example/1.mp3", completeSize: 10, sha256: "ab", target: "One.mp3")

    /// A fresh reader each time, as the next run (or the next opening of the show) is.
    private var records: ShowRecords { ShowRecords(files: fileSystem, writer: fileSystem) }

    override func setUpWithError() throws {
        try fileSystem.createDirectory(at: state, withIntermediateDirectories: true, attributes: nil)
    }

    func test_theLastRecordWritten_isTheRecord_forTheNextRunToo() throws {
        let records = self.records
        XCTAssertNil(records.loadDownloadRecord(partial), "no log, no record")
        try records.saveDownloadRecord(admitted, for: partial)
        XCTAssertEqual(records.loadDownloadRecord(partial), admitted)
        try records.saveDownloadRecord(complete, for: partial)
        XCTAssertEqual(records.loadDownloadRecord(partial), complete)
        XCTAssertEqual(self.records.loadDownloadRecord(partial), complete, "read back from the log")
        XCTAssertNil(
            self.records.loadDownloadRecord(PartialFiles(key: "2", state: ShowState(stateFolder: state))), "another's")
    }

    func test_aTornLastLine_leavesTheRecordAsItWas_andTheNextWriteIsALineOfItsOwn() throws {
        try records.saveDownloadRecord(admitted, for: partial)
        let whole = try XCTUnwrap(fileSystem.contents(atPath: log.path))
        _ = try fileSystem.append(
            Data(#"{"completeSize":10,"download":"\#(partial.stem)","sha"#.utf8), to: log, durable: false)
        XCTAssertEqual(records.loadDownloadRecord(partial), admitted, "the torn line is not read")

        try records.saveDownloadRecord(complete, for: partial)

        XCTAssertEqual(records.loadDownloadRecord(partial), complete)
        XCTAssertTrue(try XCTUnwrap(fileSystem.contents(atPath: log.path)).starts(with: whole))
    }

    func test_theLogOfManyAttempts_isCompactedToTheNewestRecordOfEachDownload_andRemovedOnceNoneIsLeft() throws {
        let records = self.records
        let other = PartialFiles(key: "2", state: ShowState(stateFolder: state))
        for attempt in 0..<100 {
            var record = admitted
            record.validator = "\"attempt \(attempt)\""
            try records.saveDownloadRecord(record, for: partial)
            try records.saveDownloadRecord(record, for: other)
        }
        records.forget(other)
        records.compactDownloadLog(of: ShowState(stateFolder: state))

        let lines = try XCTUnwrap(fileSystem.contents(atPath: log.path)).split(separator: UInt8(ascii: "\n"))
        XCTAssertEqual(lines.count, 1, "the newest record of the one download left")
        var newest = admitted
        newest.validator = "\"attempt 99\""
        XCTAssertEqual(self.records.loadDownloadRecord(partial), newest)
        XCTAssertNil(self.records.loadDownloadRecord(other))

        records.forget(partial)
        records.compactDownloadLog(of: ShowState(stateFolder: state))
        XCTAssertNil(fileSystem.contents(atPath: log.path), "no record left, no log")
    }

    func test_aRecordFileAnEarlierVersionKept_isRead_andGoesOnceTheLogHoldsANewerRecord() throws {
        // Versions before the log kept a file per download: lines of records (the oldest, one record whole).
        _ = try fileSystem.append(try JSONEncoder.records.encode(admitted), to: partial.record, durable: false)
        records.openDownloadLog(
            of: ShowState(stateFolder: state), listed: try fileSystem.contentsOfDirectory(atPath: state.path))
        XCTAssertEqual(records.loadDownloadRecord(partial), admitted)

        try records.saveDownloadRecord(complete, for: partial)

        XCTAssertNil(fileSystem.contents(atPath: partial.record.path), "the log holds the record now")
        XCTAssertEqual(self.records.loadDownloadRecord(partial), complete)
    }

    func test_aLogOfNothingThatDecodes_holdsNoRecord() throws {
        _ = try fileSystem.append(Data("garbage\n{\"url\":\n".utf8), to: log, durable: false)
        XCTAssertNil(records.loadDownloadRecord(partial))
    }

    /// The line written by hand reads as JSONEncoder's would: every field, and strings that need escaping.
    func test_aLogLine_isOneLineOfJSON_thatReadsBackAsTheRecord() throws {
        let record = PartialRecord(
            url: "http://a.example/\"quoted\"\\back/slash\u{1}?q=é", validator: "W/\"x\"", expectedSize: 7,
            completeSize: 7, sha256: "ab", target: "Séason 1/\"One\".mp3")
        for written in [record, admitted, PartialRecord(url: "")] {
            let line = written.logLine(download: "0123456789abcdef")
            XCTAssertTrue(line.starts(with: [0x0A]) && line.last == 0x0A, String(decoding: line, as: UTF8.self))
            XCTAssertEqual(line.split(separator: 0x0A).count, 1)
            var read = try JSONDecoder().decode(PartialRecord.self, from: line.dropFirst().dropLast())
            XCTAssertEqual(read.download, "0123456789abcdef")
            read.download = nil
            XCTAssertEqual(read, written)
            var logged = written
            logged.download = "0123456789abcdef"
            XCTAssertEqual(
                try JSONSerialization.jsonObject(with: line) as? NSDictionary,
                try JSONSerialization.jsonObject(with: JSONEncoder.records.encode(logged)) as? NSDictionary)
        }
    }

    /// A run killed after syncing its journal but before removing the download records: the next run's opening
    /// removes those of archived episodes, and keeps the one that adopts a file renamed but not yet indexed;
    /// record files of an earlier version likewise.
    func test_recordsOfArchivedEpisodes_areRemovedWhenTheFolderIsOpened_butNotOneThatAdoptsAFile() throws {
        let archived = PartialFiles(key: "archived", state: ShowState(stateFolder: state))
        let unindexed = PartialFiles(key: "renamed, not indexed", state: ShowState(stateFolder: state))
        let resuming = PartialFiles(key: "being repaired", state: ShowState(stateFolder: state))
        let archivedEarlier = PartialFiles(key: "archived by an earlier version", state: ShowState(stateFolder: state))
        let unindexedEarlier = PartialFiles(key: "renamed by an earlier version", state: ShowState(stateFolder: state))
        for partial in [archived, unindexed, resuming] { try records.saveDownloadRecord(complete, for: partial) }
        for partial in [archivedEarlier, unindexedEarlier] {
            _ = try fileSystem.append(try JSONEncoder.records.encode(complete), to: partial.record, durable: false)
        }
        _ = try fileSystem.append(Data("half".utf8), to: resuming.body, durable: false)
        var index = ArchiveIndex(feed: "https://example.com/feed.xml", title: "Show")
        for key in ["archived", "being repaired", "archived by an earlier version"] {
            index.record(
                ArchiveIndex.Entry(
                    key: key, guid: key, title: key, url: "https://example.com/\(key).mp3", file: "\(key).mp3",
                    size: 1, sha256: "ab", published: nil, archived: "2027-01-01T00:00:00Z"))
        }

        let records = self.records
        let folders = FeedFolders(
            files: fileSystem, attributes: fileSystem, mover: fileSystem,
            locks: ShowLocks(
                locker: fileSystem,
                clock: SyncClock(
                    now: { Date(timeIntervalSince1970: 0) }, sleep: { _ in }, timer: { _ in }, jitter: { 0.5 })),
            indexes: IndexStore(files: fileSystem, attributes: fileSystem, writer: fileSystem), records: records)
        let listed = try fileSystem.contentsOfDirectory(atPath: state.path)
        records.openDownloadLog(of: ShowState(stateFolder: state), listed: listed)
        folders.removeSettledRecords(listed, of: ShowState(stateFolder: state), index: index)

        let next = self.records
        XCTAssertNil(next.loadDownloadRecord(archived), "its episode is archived")
        XCTAssertEqual(next.loadDownloadRecord(unindexed), complete, "it adopts the renamed file")
        XCTAssertEqual(next.loadDownloadRecord(resuming), complete, "its body is still being fetched")
        XCTAssertNil(fileSystem.contents(atPath: archivedEarlier.record.path), "its episode is archived")
        XCTAssertNotNil(fileSystem.contents(atPath: unindexedEarlier.record.path), "it adopts the renamed file")
        XCTAssertEqual(
            try XCTUnwrap(fileSystem.contents(atPath: log.path)).split(separator: UInt8(ascii: "\n")).count, 2,
            "the log compacted to the records still needed")
    }
}
