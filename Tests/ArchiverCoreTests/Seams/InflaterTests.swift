// Inflating gzip, zlib and raw deflate fed in pieces, as bodies arrive: the stream's end is the only completeness,
// anything after it is damage, and a stream that inflates without end is handed on in bounded pieces.
import Foundation
import TestSupport
import XCTest

@testable import ArchiverCore

final class InflaterTests: XCTestCase {
    private let text = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) })

    /// What `inflater` makes of `data` fed `piece` bytes at a time, and whether it ended.
    private func inflate(_ data: Data, _ format: Inflater.Format, piece: Int = 1 << 14) throws -> (Data, Bool) {
        let inflater = Inflater(format)
        var output = Data()
        var start = 0
        while start < data.count {
            let chunk = data.subdata(in: start..<min(start + piece, data.count))
            try chunk.withUnsafeBytes { try inflater.read($0) { output.append(contentsOf: $0) } }
            start += piece
        }
        return (output, inflater.ended)
    }

    func test_gzipZlibAndRawDeflate_fedInAnyPieces_areWhole_andEndOnlyAtTheirEnd() throws {
        let encodings: [(String, Data, Inflater.Format)] = [
            ("gzip", Gzip.compress(text), .gzip), ("zlib", Compressed.zlib(text), .deflate),
            ("raw", Compressed.rawDeflate(text), .deflate),
        ]
        for (name, encoded, format) in encodings {
            for piece in [1, 2, 7, 16_384, encoded.count] {
                let (whole, ended) = try inflate(encoded, format, piece: piece)
                XCTAssertEqual(whole, text, "\(name) in pieces of \(piece)")
                XCTAssertTrue(ended, "\(name) in pieces of \(piece)")
            }
            for cut in [1, 2, 10, encoded.count / 2, encoded.count - 1] {
                let (_, ended) = try inflate(encoded.prefix(cut), format)
                XCTAssertFalse(ended, "\(name) cut at \(cut) of \(encoded.count)")
            }
        }
    }

    func test_bytesPastTheEnd_areDamage_butAnotherGzipMemberIsTheStreamGoingOn() throws {
        let members = Gzip.compress(text.prefix(1000)) + Gzip.compress(text.suffix(from: 1000))
        XCTAssertEqual(try inflate(members, .gzip, piece: 333).0, text)
        XCTAssertFalse(try inflate(members.dropLast(), .gzip).1, "the second member cut")

        for (encoded, format) in [(Gzip.compress(text), Inflater.Format.gzip), (Compressed.zlib(text), .deflate)] {
            XCTAssertThrowsError(try inflate(encoded + Data("x".utf8), format)) {
                XCTAssertEqual(
                    $0 as? Inflater.Damaged,
                    Inflater.Damaged(
                        reason: "it goes on past the end of its compressed stream", pastTheEnd: true))
            }
        }
    }

    func test_aFailedCheck_isDamage() {
        var gzip = Gzip.compress(text)
        gzip[gzip.count - 6] ^= 0x01  // the CRC-32
        var zlib = Compressed.zlib(text)
        zlib[zlib.count - 1] ^= 0x01  // the Adler-32
        XCTAssertThrowsError(try inflate(gzip, .gzip)) {
            XCTAssertEqual(($0 as? Inflater.Damaged)?.reason, "incorrect data check")
        }
        XCTAssertThrowsError(try inflate(zlib, .deflate)) {
            XCTAssertEqual(($0 as? Inflater.Damaged)?.reason, "incorrect data check")
        }
        XCTAssertThrowsError(try inflate(Data("not compressed at all".utf8), .gzip))
    }

    func test_aStreamThatInflatesWithoutEnd_isHandedOnInBoundedPieces_andStopsWhereTheCallerSays() throws {
        let inflater = Inflater(.gzip)
        var largest = 0
        var total = 0
        struct Enough: Error {}
        func feed() throws {
            for number in 0..<100 {
                try EndlessDeflate.piece(number).withUnsafeBytes { bytes in
                    try inflater.read(bytes) { piece in
                        largest = max(largest, piece.count)
                        total += piece.count
                        if total > 8 << 20 { throw Enough() }
                    }
                }
            }
        }
        XCTAssertThrowsError(try feed()) { XCTAssertTrue($0 is Enough) }
        XCTAssertLessThanOrEqual(largest, 1 << 16, "never more than 64 KB at a time")
        XCTAssertLessThan(total, (8 << 20) + (1 << 16), "stopped at the piece past the cap")
    }
}

/// Compressed bodies made by hand, as servers send them.
enum Compressed {
    /// RFC 1950: a zlib stream (what HTTP calls `deflate`): header, raw deflate, Adler-32.
    static func zlib(_ data: Data) -> Data {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        let adler = b << 16 | a
        return Data([0x78, 0x9C]) + rawDeflate(data)
            + Data([UInt8(adler >> 24), UInt8(adler >> 16 & 0xFF), UInt8(adler >> 8 & 0xFF), UInt8(adler & 0xFF)])
    }

    /// RFC 1951 with no wrapper, as some servers send `deflate`: a gzip member less its 10-byte header and trailer.
    static func rawDeflate(_ data: Data) -> Data {
        let member = Gzip.compress(data)
        return member.subdata(in: 10..<(member.count - 8))
    }
}
