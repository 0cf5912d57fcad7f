// WARC records byte for byte: the header's lines and CRLFs, the SHA-1 digests in base32 as the web archives write
// them, a gzip member per record, and the two readings of a file (hash, then copy) done in chunks, never whole.
import Foundation
import XCTest

@testable import ArchiverCore

final class WARCRecordTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("warc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Writes records with a `WARCWriter` into a file, and returns what the file holds and the offsets after each.
    private func write(
        gzip: Bool = false, reader: any ChunkedFileReading = POSIXChunkedFileReader(), chunkSize: Int = 1 << 20,
        cancelled: @escaping () -> Bool = { false }, _ records: [(WARCRecordHeader, WARCBlock, WARCRecordType)]
    ) throws -> (bytes: [UInt8], offsets: [Int64]) {
        let url = folder.appendingPathComponent("out.warc")
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        let writer = WARCWriter(
            descriptor: descriptor, target: url.path, gzip: gzip, reader: reader, chunkSize: chunkSize,
            cancelled: cancelled)
        var offsets: [Int64] = []
        for (header, block, type) in records {
            try writer.write(header, block: block, type: type)
            offsets.append(writer.written)
        }
        try writer.finish()
        return (Array(try Data(contentsOf: url)), offsets)
    }

    private func resource(uri: String) -> WARCRecordHeader {
        var header = WARCRecordHeader(
            type: .resource, id: "<urn:uuid:00000000-0000-4000-8000-000000000001>", date: "2025-01-31T18:00:00Z")
        header.add("WARC-Target-URI", uri)
        header.add("Content-Type", "audio/mpeg")
        return header
    }

    func test_aSmallResourceRecord_isExactlyTheseBytes_CRLFEverywhere_digestsInBase32() throws {
        let (bytes, _) = try write([
            (resource(uri: "https://cdn.example/e1.mp3"), .bytes(Array("hello".utf8)), .resource)
        ])

        let expected =
            "WARC/1.1\r\n" + "WARC-Type: resource\r\n"
            + "WARC-Record-ID: <urn:uuid:00000000-0000-4000-8000-000000000001>\r\n"
            + "WARC-Date: 2025-01-31T18:00:00Z\r\n" + "WARC-Target-URI: https://cdn.example/e1.mp3\r\n"
            + "Content-Type: audio/mpeg\r\n" + "WARC-Block-Digest: sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N\r\n"
            + "WARC-Payload-Digest: sha1:VL2MMHO4YXUKFWV63YHTWSBM3GXKSQ2N\r\n" + "Content-Length: 5\r\n" + "\r\n"
            + "hello\r\n\r\n"
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), expected)
    }

    func test_aMetadataRecord_hasABlockDigestButNoPayloadDigest_andAnEmptyBlockIsValid() throws {
        var header = WARCRecordHeader(type: .metadata, id: "<urn:uuid:x>", date: "2025-01-31T18:00:00Z")
        header.add("WARC-Refers-To", "<urn:uuid:y>")
        let (bytes, _) = try write([(header, .bytes([]), .metadata)])

        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("WARC-Block-Digest: sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ\r\n"), text)
        XCTAssertFalse(text.contains("WARC-Payload-Digest"), text)
        XCTAssertTrue(text.hasSuffix("Content-Length: 0\r\n\r\n\r\n\r\n"), text)
    }

    func test_aLineBreakInAValue_cannotEndTheHeader() {
        var header = WARCRecordHeader(type: .resource, id: "<urn:uuid:x>", date: "2025-01-31T18:00:00Z")
        header.add("Content-Type", "text/plain\r\nWARC-Type: forged")
        XCTAssertEqual(header.value("Content-Type"), "text/plain  WARC-Type: forged")
        XCTAssertEqual(String(decoding: header.serialized(), as: UTF8.self).components(separatedBy: "\r\n").count, 7)
    }

    func test_gzip_makesEachRecordAGzipMemberOfItsOwn() throws {
        let plain = try write([
            (resource(uri: "https://a.example/1"), .bytes(Array("one".utf8)), .resource),
            (resource(uri: "https://a.example/2"), .bytes(Array("two".utf8)), .resource),
        ]).bytes
        let (packed, offsets) = try write(
            gzip: true,
            [
                (resource(uri: "https://a.example/1"), .bytes(Array("one".utf8)), .resource),
                (resource(uri: "https://a.example/2"), .bytes(Array("two".utf8)), .resource),
            ])

        XCTAssertEqual(offsets.last, Int64(packed.count))
        let first = try Gzip.decompress(Data(packed[0..<Int(offsets[0])]))
        let second = try Gzip.decompress(Data(packed[Int(offsets[0])...]))
        XCTAssertEqual(Array(first + second), plain, "each member expands to one record; together, the plain file")
        XCTAssertTrue(String(decoding: second, as: UTF8.self).hasPrefix("WARC/1.1\r\n"))
    }

    func test_aFile_isReadTwiceThroughOneOpening_inChunksNeverLargerThanTheBuffer() throws {
        let file = folder.appendingPathComponent("big.mp3")
        let content = (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(content).write(to: file)
        let reader = RecordingReader()

        let (bytes, _) = try write(
            reader: reader, chunkSize: 1024, [(resource(uri: "https://a.example/big.mp3"), .file(file.path), .resource)]
        )

        XCTAssertEqual(reader.opened, [file.path], "opened once: the copy is of the file that was hashed")
        XCTAssertEqual(reader.rewinds, 1)
        XCTAssertLessThanOrEqual(reader.largestRead, 1024, "never more than a chunk in memory")
        XCTAssertEqual(reader.bytesRead, 2 * content.count, "hashed, then copied")
        let text = String(decoding: bytes.prefix(600), as: UTF8.self)
        XCTAssertTrue(text.contains("Content-Length: 20000\r\n"), text)
        let sha1 = WARCValues.sha1(
            {
                var hash = SHA1()
                hash.update(content)
                return hash.finalize()
            }())
        XCTAssertTrue(text.contains("WARC-Payload-Digest: \(sha1)\r\n"), text)
        let headerEnd = try XCTUnwrap(text.range(of: "\r\n\r\n")).upperBound.utf16Offset(in: text)
        XCTAssertEqual(Array(bytes[headerEnd..<(headerEnd + content.count)]), content)
    }

    func test_aFileThatComesWholeInOneChunk_isReadOnce_andCopiedFromThatChunk() throws {
        let file = folder.appendingPathComponent("small.mp3")
        let content = (0..<3000).map { UInt8(truncatingIfNeeded: $0 * 7) }
        try Data(content).write(to: file)
        let reader = RecordingReader()

        let (bytes, _) = try write(
            reader: reader, chunkSize: 4096, [(resource(uri: "https://a.example/s.mp3"), .file(file.path), .resource)])

        XCTAssertEqual(reader.rewinds, 0)
        XCTAssertEqual(reader.bytesRead, content.count, "hashed and copied from one reading")
        let text = String(decoding: bytes.prefix(600), as: UTF8.self)
        XCTAssertTrue(text.contains("Content-Length: 3000\r\n"), text)
        let headerEnd = try XCTUnwrap(text.range(of: "\r\n\r\n")).upperBound.utf16Offset(in: text)
        XCTAssertEqual(Array(bytes[headerEnd..<(headerEnd + content.count)]), content)
        XCTAssertEqual(Array(bytes.suffix(4)), Array("\r\n\r\n".utf8))
    }

    func test_aFileThatShrinksBetweenItsReadings_stopsTheExport_sayingSo() throws {
        let file = folder.appendingPathComponent("e.mp3")
        try Data(repeating: 7, count: 10_000).write(to: file)
        let reader = RecordingReader()
        reader.shortOnSecondPass = true

        // Larger than a chunk: read twice (a file that came whole in one chunk is copied from it, read once).
        XCTAssertThrowsError(
            try write(
                reader: reader, chunkSize: 4096,
                [(resource(uri: "https://a.example/e.mp3"), .file(file.path), .resource)])
        ) { error in
            XCTAssertEqual(error as? ExportError, .changed(path: file.path))
            XCTAssertTrue((error as? LocalizedError)?.errorDescription?.contains("changed while") == true)
        }
    }

    func test_aFeedRevision_isExpandedChunkByChunk_itsDigestAndLengthThoseOfTheDocument() throws {
        let document = Array(String(repeating: "<item><title>Episode</title></item>\n", count: 3000).utf8)
        let file = folder.appendingPathComponent("2025-01-31T18-00-00Z.xml.gz")
        try Gzip.compress(Data(document)).write(to: file)
        let reader = RecordingReader()

        let (bytes, _) = try write(
            reader: reader, chunkSize: 512,
            [(resource(uri: "https://a.example/feed.xml"), .gzipped(file.path), .resource)])

        XCTAssertLessThanOrEqual(reader.largestRead, 512)
        let text = String(decoding: bytes, as: UTF8.self)
        XCTAssertTrue(text.contains("Content-Length: \(document.count)\r\n"), text.prefix(600).description)
        var hash = SHA1()
        hash.update(document)
        XCTAssertTrue(text.contains("WARC-Payload-Digest: \(WARCValues.sha1(hash.finalize()))\r\n"))
        XCTAssertTrue(text.hasSuffix(String(decoding: document, as: UTF8.self) + "\r\n\r\n"))
    }

    func test_aFeedRevisionCutShort_isACannotReadError() throws {
        let file = folder.appendingPathComponent("2025-01-31T18-00-00Z.xml.gz")
        try Gzip.compress(Data(repeating: 65, count: 5000)).dropLast(6).write(to: file)

        XCTAssertThrowsError(try write([(resource(uri: "https://a/"), .gzipped(file.path), .resource)])) { error in
            XCTAssertEqual(error as? ExportError, .cannotRead(path: file.path, reason: "it is cut short"))
        }
    }

    func test_aStopAskedFor_endsTheCopyBeforeTheNextChunk() throws {
        let file = folder.appendingPathComponent("e.mp3")
        try Data(repeating: 7, count: 10_000).write(to: file)
        let reader = RecordingReader()
        var asked = 0

        XCTAssertThrowsError(
            try write(
                reader: reader, chunkSize: 1024,
                cancelled: {
                    asked += 1
                    return asked > 3
                }, [(resource(uri: "https://a.example/e.mp3"), .file(file.path), .resource)])
        ) { error in
            XCTAssertEqual(
                error as? ExportError, .interrupted(path: self.folder.appendingPathComponent("out.warc").path))
            XCTAssertEqual(RunStatus(for: error), .interrupted)
        }
        XCTAssertEqual(reader.bytesRead, 3 * 1024, "three chunks read, no more")
    }

    func test_anUnreadableFile_isACannotReadError_namingIt() throws {
        let missing = folder.appendingPathComponent("gone.mp3").path
        XCTAssertThrowsError(try write([(resource(uri: "https://a/"), .file(missing), .resource)])) { error in
            XCTAssertEqual(error as? ExportError, .cannotRead(path: missing, reason: "No such file or directory"))
        }
    }

    func test_targetURIs_areRedacted_andHoldNoSpace_localOnesAreURNs() {
        XCTAssertEqual(
            WARCValues.targetURI("https://user:pw@cdn.example/a b.mp3?token=SECRET"),
            "https://cdn.example/a%20b.mp3?token=REDACTED")
        XCTAssertEqual(WARCValues.targetURI("https://cdn.example/%C3%A9.mp3"), "https://cdn.example/%C3%A9.mp3")
        XCTAssertEqual(
            WARCValues.localURI(show: "My Show", file: "Ep 1.chapters.json"),
            "urn:podarchive:My%20Show/Ep%201.chapters.json")
        XCTAssertEqual(
            WARCValues.recordID(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!),
            "<urn:uuid:e621e1f8-c36c-495a-93fc-0c247a3e6e5f>")
    }

    func test_revisionNames_giveTheirFetchTime() {
        XCTAssertEqual(ExportPlanner.revisionDate("2025-01-31T18-00-00Z.xml.gz"), "2025-01-31T18:00:00Z")
        XCTAssertEqual(ExportPlanner.revisionDate("2025-01-31T18-00-00Z_002.json.gz"), "2025-01-31T18:00:00Z")
        XCTAssertNil(ExportPlanner.revisionDate("current.xml"))
        XCTAssertNil(ExportPlanner.revisionDate("2025-13-31T18-00-00Z.xml.gz"))
    }

    func test_gzipWriter_streamsALargeInputInPieces_intoOneMember() throws {
        let input = (0..<100_000).map { UInt8(truncatingIfNeeded: ($0 * 7) ^ ($0 >> 9)) }
        var out: [UInt8] = []
        let writer = try GzipWriter { out.append(contentsOf: $0) }
        for start in stride(from: 0, to: input.count, by: 4_097) {
            try writer.write(Array(input[start..<min(start + 4_097, input.count)]))
        }
        try writer.finish()
        XCTAssertEqual(Array(try Gzip.decompress(Data(out))), input)
    }
}

/// The live reader, recording each opening, read and rewind; can end a file early on its second reading.
private final class RecordingReader: ChunkedFileReading, @unchecked Sendable {
    var opened: [String] = []
    var rewinds = 0
    var largestRead = 0
    var bytesRead = 0
    var shortOnSecondPass = false

    func open(_ path: String) throws -> any ChunkedFile {
        opened.append(path)
        return File(base: try POSIXChunkedFileReader().open(path), owner: self)
    }

    final class File: ChunkedFile, @unchecked Sendable {
        let base: any ChunkedFile
        let owner: RecordingReader
        var pass = 1

        init(base: any ChunkedFile, owner: RecordingReader) {
            self.base = base
            self.owner = owner
        }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            owner.largestRead = max(owner.largestRead, buffer.count)
            if pass == 2, owner.shortOnSecondPass { return 0 }
            let count = try base.read(into: buffer)
            owner.bytesRead += count
            return count
        }

        func rewind() throws {
            owner.rewinds += 1
            pass += 1
            try base.rewind()
        }
    }
}
