import Foundation
import TestSupport
import XCTest

// The live small-file writer on a real file system: what an append leaves behind, where the crash tests' hook
// tears it, and that no write goes through a link planted at its path.
@testable import ArchiverCore

final class DurableFilesTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let writer = DurableFileWriter()

    override func setUpWithError() throws {
        folder = try TemporaryFolder("durable")
    }

    override func tearDown() {
        folder?.remove()
    }

    private func file(_ name: String) -> URL { folder.url.appendingPathComponent(name, isDirectory: false) }

    func test_aLinkPlantedAtThePath_isRefusedByAppends_andReplacedNotFollowedByAtomicWrites() throws {
        let target = file("elsewhere")
        try Data("precious".utf8).write(to: target)
        let planted = file("planted")
        try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: target)

        XCTAssertThrowsError(try writer.append(Data("x".utf8), to: planted, durable: true)) { error in
            XCTAssertEqual((error as? FileSystemError)?.code, ELOOP)
        }
        XCTAssertEqual(try String(contentsOf: target, encoding: .utf8), "precious")

        try writer.writeAtomically(Data("x".utf8), to: planted)

        XCTAssertEqual(
            try String(contentsOf: target, encoding: .utf8), "precious", "the link is replaced, not followed")
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(atPath: planted.path)[.type] as? FileAttributeType, .typeRegular)
    }

    func test_append_addsToTheEnd_andReportsTheNewSize() throws {
        let journal = file("index.journal")
        XCTAssertEqual(try writer.append(Data("one\n".utf8), to: journal, durable: true), 4)
        XCTAssertEqual(try writer.append(Data("two\n".utf8), to: journal, durable: false), 8)
        XCTAssertEqual(try String(contentsOf: journal, encoding: .utf8), "one\ntwo\n")
    }

    func test_anAppenderKeptOpen_addsToTheEnd_andAFileRemovedMeanwhileIsMadeAgain_notWrittenUnlinked() throws {
        let journal = file("index.journal")
        try Data("earlier\n".utf8).write(to: journal)
        let appender = writer.appender(for: journal)
        defer { appender.close() }
        XCTAssertEqual(try appender.append(Data("one\n".utf8), durable: true), 12)
        XCTAssertEqual(try appender.append(Data("two\n".utf8), durable: false), 16)
        XCTAssertEqual(try String(contentsOf: journal, encoding: .utf8), "earlier\none\ntwo\n")

        try FileManager.default.removeItem(at: journal)  // a fold removes the journal it wrote into the index
        XCTAssertEqual(try appender.append(Data("three\n".utf8), durable: true), 6)
        XCTAssertEqual(try String(contentsOf: journal, encoding: .utf8), "three\n")

        appender.close()
        XCTAssertEqual(try appender.append(Data("four\n".utf8), durable: false), 11, "opened again after close")
        XCTAssertEqual(try String(contentsOf: journal, encoding: .utf8), "three\nfour\n")
    }

    #if PODARCHIVE_TEST_HOOKS
        func test_aHookMidWrite_seesHalfTheBytesOnDisk_andTheWholeDataItIsWriting() throws {
            let record = file("download-2.json")
            let data = Data("0123456789".utf8)
            let seen = Seen()
            let hooked = DurableFileWriter(midWrite: { url, whole in
                seen.onDisk = FileManager.default.contents(atPath: url.path)
                seen.whole = whole
            })

            _ = try hooked.append(data, to: record, durable: false)

            XCTAssertEqual(seen.onDisk, Data("01234".utf8), "the crash tests kill the process here: a torn record")
            XCTAssertEqual(seen.whole, data)
            XCTAssertEqual(FileManager.default.contents(atPath: record.path), data)
        }
    #endif
}

#if PODARCHIVE_TEST_HOOKS
    /// What the hook saw; written and read on the test's own thread (the hook runs inside the write).
    private final class Seen: @unchecked Sendable {
        var onDisk: Data?
        var whole: Data?
    }
#endif
