// SHA-1 (FIPS 180-4), only because the web archives index WARC records by it (`WARC-Payload-Digest: sha1:…`).
// Never used to decide whether a file is intact: that is SHA-256's job (and the publisher's SRI value's).

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
        var w = [UInt32](repeating: 0, count: 80)
        for blockIndex in 0..<blocks {
            let block = input + blockIndex * 64
            for t in 0..<16 {
                w[t] =
                    UInt32(block[t * 4]) << 24 | UInt32(block[t * 4 + 1]) << 16 | UInt32(block[t * 4 + 2]) << 8
                    | UInt32(block[t * 4 + 3])
            }
            for t in 16..<80 {
                let x = w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16]
                w[t] = x << 1 | x >> 31
            }
            var a = state[0]
            var b = state[1]
            var c = state[2]
            var d = state[3]
            var e = state[4]
            for t in 0..<80 {
                let f: UInt32
                let k: UInt32
                switch t {
                case 0..<20: (f, k) = ((b & c) | (~b & d), 0x5A82_7999)
                case 20..<40: (f, k) = (b ^ c ^ d, 0x6ED9_EBA1)
                case 40..<60: (f, k) = ((b & c) | (b & d) | (c & d), 0x8F1B_BCDC)
                default: (f, k) = (b ^ c ^ d, 0xCA62_C1D6)
                }
                let temp = (a << 5 | a >> 27) &+ f &+ e &+ k &+ w[t]
                e = d
                d = c
                c = b << 30 | b >> 2
                b = a
                a = temp
            }
            state[0] &+= a
            state[1] &+= b
            state[2] &+= c
            state[3] &+= d
            state[4] &+= e
        }
    }
}
