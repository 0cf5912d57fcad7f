import CSHA256
import XCTest

@testable import ArchiverCore

// SHA-1, as the WARC digests need it: the FIPS vectors, and the SHA instructions' compression held to the portable
// one on every length around the block boundaries and on random data.
final class SHA1Tests: XCTestCase {
    private func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    private func digest(_ bytes: [UInt8]) -> String {
        var hash = SHA1()
        hash.update(bytes)
        return hex(hash.finalize())
    }

    func test_fipsVectors() {
        XCTAssertEqual(digest([]), "da39a3ee5e6b4b0d3255bfef95601890afd80709")
        XCTAssertEqual(digest(Array("abc".utf8)), "a9993e364706816aba3e25717850c26c9cd0d89d")
        XCTAssertEqual(
            digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)),
            "84983e441c3bd26ebaae4aa1f95129e5e54670f1")
        XCTAssertEqual(digest([UInt8](repeating: 0x61, count: 1_000_000)), "34aa973cd4c4daa4f61eeb2bdbad27316534016f")
    }

    func test_theSHAInstructions_compressAsThePortableCode_blockByBlock() throws {
        try XCTSkipUnless(SHA256.hasSHAExtensions, "this CPU has no SHA instructions")
        var generator = SystemRandomNumberGenerator()
        for blocks in [1, 2, 3, 7, 64] {
            let input = (0..<(64 * blocks)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var portable: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
            var instructions = portable
            input.withUnsafeBufferPointer { bytes in
                SHA1.portableCompress(&portable, bytes.baseAddress!, blocks: blocks)
                instructions.withUnsafeMutableBufferPointer {
                    csha1_compress_ni($0.baseAddress!, bytes.baseAddress!, blocks)
                }
            }
            XCTAssertEqual(instructions, portable, "\(blocks) blocks")
        }
    }
}
