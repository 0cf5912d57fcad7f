// The export's reading ahead: blocks handed on in their order, a reading's error handed on in its place, and a
// stop that ends the reading thread whether it is reading or waiting for room.
import Foundation
import XCTest

@testable import ArchiverCore

final class BlockPrefetcherTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ahead-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `count` small files, each holding its own number, and their blocks.
    private func files(_ count: Int) throws -> [WARCBlock] {
        try (0..<count).map { number in
            let url = folder.appendingPathComponent("\(number).bin")
            try Data("file \(number)".utf8).write(to: url)
            return .file(url.path)
        }
    }

    private func text(_ block: ReadBlock) -> String? {
        guard case .bytes(let bytes) = block.body else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    func test_blocksComeInTheirOrder_withTheirLengthAndDigest() throws {
        let blocks = try files(200)
        let ahead = BlockPrefetcher(blocks, reader: POSIXChunkedFileReader(), chunkSize: 4096, target: "out.warc")
        defer { ahead.stop() }

        for number in 0..<200 {
            let block = try ahead.next()
            XCTAssertEqual(text(block), "file \(number)")
            XCTAssertEqual(block.length, Int64("file \(number)".utf8.count))
            var hash = SHA1()
            hash.update(Array("file \(number)".utf8))
            XCTAssertEqual(block.digest, hash.finalize())
        }
    }

    func test_aFileThatCannotBeRead_isTheErrorInItsPlace_andTheReadingEndsThere() throws {
        var blocks = try files(5)
        blocks.insert(.file(folder.appendingPathComponent("missing.bin").path), at: 3)
        let reader = CountingReader()
        let ahead = BlockPrefetcher(blocks, reader: reader, chunkSize: 4096, target: "out.warc")
        defer { ahead.stop() }

        for number in 0..<3 { XCTAssertEqual(text(try ahead.next()), "file \(number)") }
        XCTAssertThrowsError(try ahead.next()) { error in
            guard case .cannotRead(let path, _)? = error as? ExportError else {
                return XCTFail("\(error)")
            }
            XCTAssertTrue(path.hasSuffix("missing.bin"))
        }
        ahead.stop()
        XCTAssertEqual(reader.opened, 3, "the three before it opened, nothing after it")
    }

    func test_stop_endsAReadingThatWaitsForRoom_andLetsGoOfWhatItRead() throws {
        // Far more blocks than are read ahead, and none taken: the reader waits for room until it is stopped.
        let blocks = try files(300)
        let reader = CountingReader()
        let ahead = BlockPrefetcher(blocks, reader: reader, chunkSize: 4096, target: "out.warc")
        XCTAssertEqual(text(try ahead.next()), "file 0")

        ahead.stop()

        XCTAssertLessThan(reader.opened, 300, "it stopped reading ahead")
        XCTAssertEqual(reader.open, 0, "every file it opened is closed")
        XCTAssertThrowsError(try ahead.next(), "nothing more after a stop")
    }

    func test_aStopAskedForWhileALongReadingGoesOn_isSeenBeforeTheReadingEnds() throws {
        // The reader's first read does not return until the test lets it: the wait for the block must still end.
        let reader = HeldReader()
        let ahead = BlockPrefetcher(try files(1), reader: reader, chunkSize: 4096, target: "out.warc")

        XCTAssertThrowsError(try ahead.next(cancelled: { true })) { error in
            XCTAssertEqual(error as? ExportError, .interrupted(path: "out.warc"))
        }
        XCTAssertFalse(reader.released, "the reading was still going on")
        reader.release()
        ahead.stop()
    }

    func test_aLargeFile_staysOpenForItsSecondReading() throws {
        let url = folder.appendingPathComponent("large.bin")
        try Data(repeating: 7, count: 10_000).write(to: url)
        let ahead = BlockPrefetcher([.file(url.path)], reader: POSIXChunkedFileReader(), chunkSize: 4096, target: "o")
        defer { ahead.stop() }

        let block = try ahead.next()

        XCTAssertEqual(block.length, 10_000)
        guard case .file(let file, let expand) = block.body else { return XCTFail("read whole: \(block.body)") }
        XCTAssertFalse(expand)
        try file.rewind()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 10_000, alignment: 1)
        defer { buffer.deallocate() }
        XCTAssertEqual(try file.read(into: buffer), 10_000)
    }
}

/// A live file with hooks: one before each read, one when it is let go (closed).
private final class HookedFile: ChunkedFile {
    let base: any ChunkedFile
    let beforeRead: @Sendable () -> Void
    let closed: @Sendable () -> Void

    init(
        _ path: String, beforeRead: @escaping @Sendable () -> Void = {}, closed: @escaping @Sendable () -> Void = {}
    ) throws {
        base = try POSIXChunkedFileReader().open(path)
        self.beforeRead = beforeRead
        self.closed = closed
    }

    deinit { closed() }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        beforeRead()
        return try base.read(into: buffer)
    }

    func rewind() throws { try base.rewind() }
}

/// The live reader, counting the files it opened and those still open (from any thread).
private final class CountingReader: ChunkedFileReading, Sendable {
    private let counts = Locked((opened: 0, open: 0))
    var opened: Int { counts.withLock { $0.opened } }
    var open: Int { counts.withLock { $0.open } }

    func open(_ path: String) throws -> any ChunkedFile {
        let file = try HookedFile(path, closed: { [counts] in counts.withLock { $0.open -= 1 } })
        counts.withLock {
            $0.opened += 1
            $0.open += 1
        }
        return file
    }
}

/// The live reader, whose reads wait until `release` (bounded: a test that never releases ends in 10 s).
private final class HeldReader: ChunkedFileReading, Sendable {
    private let gate = DispatchSemaphore(value: 0)
    private let state = Locked(false)
    var released: Bool { state.current }

    func release() {
        state.set(true)
        gate.signal()
    }

    func open(_ path: String) throws -> any ChunkedFile {
        try HookedFile(
            path,
            beforeRead: { [state, gate] in
                if !state.current, gate.wait(timeout: .now() + 10) == .success { gate.signal() }
            })
    }
}
