// SHA-1 (FIPS 180-4), only because the web archives index WARC records by it (`WARC-Payload-Digest: sha1:…`).
// Never used to decide whether a file is intact: that is SHA-256's job (and the publisher's SRI value's).

import CSHA256
import Foundation

/// A SHA-1 hash, fed in pieces.
struct SHA1: Sendable {
    private var state: [UInt32] = [0x6745_2301, 0xEFCD_AB89, 0x98BA_DCFE, 0x1032_5476, 0xC3D2_E1F0]
    private var blocks = HashBlocks(size: 64)

    /// A fresh hash.
    public init() {}

    /// Adds `bytes` to the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        blocks.feed(bytes, into: &state, Self.compress)
    }

    /// Adds `bytes` to the hash.
    public mutating func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 20-byte digest of everything added.
    public func finalize() -> [UInt8] {
        var final = state
        blocks.finish(&final, Self.compress)
        return final.flatMap { word in
            stride(from: 24, through: 0, by: -8).map { UInt8(truncatingIfNeeded: word >> UInt32($0)) }
        }
    }

    private static func compress(_ state: inout [UInt32], _ input: UnsafePointer<UInt8>, blocks: Int) {
        if SHA256.hasSHAExtensions {
            return state.withUnsafeMutableBufferPointer { csha1_compress_ni($0.baseAddress!, input, blocks) }
        }
        portableCompress(&state, input, blocks: blocks)
    }

    /// The compression in Swift, where the CPU has no SHA instructions (and for the tests, which hold the two to
    /// the same digests).
    static func portableCompress(_ state: inout [UInt32], _ input: UnsafePointer<UInt8>, blocks: Int) {
        // The message schedule on the stack, words loaded big-endian at once, and the four rounds as four loops: no
        // allocation and no branch a round (the export hashes every archived byte).
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 80) { w in
            var (h0, h1, h2, h3, h4) = (state[0], state[1], state[2], state[3], state[4])
            for blockIndex in 0..<blocks {
                let block = UnsafeRawPointer(input + blockIndex * 64)
                for t in 0..<16 {
                    w[t] = UInt32(bigEndian: block.loadUnaligned(fromByteOffset: t * 4, as: UInt32.self))
                }
                for t in 16..<80 {
                    let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
                    w[t] = x << 1 | x >> 31
                }
                var (a, b, c, d, e) = (h0, h1, h2, h3, h4)
                @inline(__always) func round(_ f: UInt32, _ k: UInt32, _ word: UInt32) {
                    let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ word
                    (e, d, c, b, a) = (d, c, b << 30 | b >> 2, a, temp)
                }
                for t in 0..<20 { round((b & c) | (~b & d), 0x5A82_7999, w[t]) }
                for t in 20..<40 { round(b ^ c ^ d, 0x6ED9_EBA1, w[t]) }
                for t in 40..<60 { round((b & c) | (b & d) | (c & d), 0x8F1B_BCDC, w[t]) }
                for t in 60..<80 { round(b ^ c ^ d, 0xCA62_C1D6, w[t]) }
                h0 &+= a
                h1 &+= b
                h2 &+= c
                h3 &+= d
                h4 &+= e
            }
            state = [h0, h1, h2, h3, h4]
        }
    }
}
