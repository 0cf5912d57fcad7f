// Compressed bodies that never end, for servers that send a small stream which inflates without limit: zeros,
// written by hand as fixed-Huffman deflate blocks that each end on a byte boundary (as zlib's Z_SYNC_FLUSH
// leaves them), so one piece can follow another for as long as a test's server keeps sending.
import Foundation

/// The pieces of an endless `Content-Encoding: gzip` or `deflate` body of zeros.
public enum EndlessDeflate {
    /// `matches` copies of 258 zeros each: the first piece about 1 MB decoded, 6.5 KB sent (160 to 1).
    public static let matchesPerPiece = 4096

    /// How many zero bytes each piece decodes to (the first one has one more).
    public static let decodedPerPiece = matchesPerPiece * 258

    /// The `number`th piece of the body: the first starts with the gzip (RFC 1952) or zlib (RFC 1950, what HTTP
    /// calls `deflate`) header; none is ever the last block, so no trailer follows.
    public static func piece(_ number: Int, encoding: String = "gzip") -> Data {
        var bits = BitWriter()
        bits.write(0, count: 1)  // BFINAL: more blocks follow
        bits.write(1, count: 2)  // BTYPE 01: fixed Huffman codes
        if number == 0 { bits.code(0x30, count: 8) }  // literal 0: the byte every match copies
        for _ in 0..<matchesPerPiece {
            bits.code(0xC5, count: 8)  // length code 285: 258 bytes
            bits.code(0, count: 5)  // distance code 0: 1 byte back
        }
        bits.code(0, count: 7)  // end of block (256)
        // An empty stored block: aligned to the next byte, then LEN 0 and NLEN 0xFFFF.
        bits.write(0, count: 3)
        var data = Data(bits.bytes + [0x00, 0x00, 0xFF, 0xFF])
        guard number == 0 else { return data }
        let header: [UInt8] =
            encoding == "gzip" ? [0x1F, 0x8B, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xFF] : [0x78, 0x01]
        data.insert(contentsOf: header, at: 0)
        return data
    }

    /// Packs bits as deflate does: from the least significant bit of each byte up.
    private struct BitWriter {
        var bytes: [UInt8] = []
        private var used = 0

        /// A number, least significant bit first (header fields, extra bits).
        mutating func write(_ value: Int, count: Int) {
            for index in 0..<count { bit(value >> index & 1) }
        }

        /// A Huffman code, most significant bit first.
        mutating func code(_ value: Int, count: Int) {
            for index in stride(from: count - 1, through: 0, by: -1) { bit(value >> index & 1) }
        }

        private mutating func bit(_ value: Int) {
            if used % 8 == 0 { bytes.append(0) }
            bytes[bytes.count - 1] |= UInt8(value) << (used % 8)
            used += 1
        }
    }
}
