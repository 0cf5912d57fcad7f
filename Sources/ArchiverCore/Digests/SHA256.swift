// SHA-256 (FIPS 180-4), incremental, for hashing episodes while they stream to disk.
//
// There is no CryptoKit on Linux and podarchive takes no packages, so it is written here and checked against the
// NIST vectors and `sha256sum` in the tests. Portable Swift compresses about 270 MB/s, slower than a loopback
// download, so on x86-64 CPUs with the SHA instructions the compression runs in CSHA256 (about 1.7 GB/s).
import CSHA256
import Foundation

/// An incremental SHA-256 hasher.
public struct SHA256: Sendable {
    /// Which compression function to use.
    public enum Implementation: Sendable {
        /// The SHA instructions when the CPU has them, else portable Swift.
        case automatic
        /// Portable Swift only.
        case portable
    }

    /// True when this CPU has the SHA instructions podarchive uses.
    public static let hasSHAExtensions = csha256_has_sha_extensions() == 1

    private var state: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) = (
        0x6a09_e667, 0xbb67_ae85, 0x3c6e_f372, 0xa54f_f53a, 0x510e_527f, 0x9b05_688c, 0x1f83_d9ab, 0x5be0_cd19
    )
    private var blocks = HashBlocks(size: 64)
    private let useExtensions: Bool

    /// A fresh hash; `.automatic` uses the CPU's SHA instructions when it has them.
    public init(implementation: Implementation = .automatic) {
        useExtensions = implementation == .automatic && Self.hasSHAExtensions
    }

    /// Feeds `bytes` into the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        blocks.feed(bytes, into: &state) { [useExtensions] in Self.compress(&$0, $1, blocks: $2, useExtensions) }
    }

    /// Feeds any contiguous bytes (`Data`, `[UInt8]`) into the hash.
    public mutating func update<Bytes: ContiguousBytes>(_ bytes: Bytes) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The digest of everything fed so far. The hasher itself is not changed.
    public func finalize() -> [UInt8] {
        var final = state
        blocks.finish(&final) { [useExtensions] in Self.compress(&$0, $1, blocks: $2, useExtensions) }
        let words = [final.0, final.1, final.2, final.3, final.4, final.5, final.6, final.7]
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (24 - 8 * UInt32($0))) } }
    }

    /// The digest as 64 lowercase hex digits, as `sha256sum` prints it.
    public func hexDigest() -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(64)
        for byte in finalize() {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The hex digest of `bytes` in one call.
    public static func hex<Bytes: ContiguousBytes>(_ bytes: Bytes) -> String {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.hexDigest()
    }

    // MARK: - Compression

    private static func compress(
        _ state: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ input: UnsafePointer<UInt8>,
        blocks: Int, _ useExtensions: Bool
    ) {
        if useExtensions {
            withUnsafeMutableBytes(of: &state) { words in
                csha256_compress_ni(words.baseAddress!.assumingMemoryBound(to: UInt32.self), input, blocks)
            }
            return
        }
        var (h0, h1, h2, h3, h4, h5, h6, h7) = state
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { w in
            SHA256.roundConstants.withUnsafeBufferPointer { k in
                var block = input
                for _ in 0..<blocks {
                    for t in 0..<16 {
                        let p = block + t * 4
                        w[t] = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
                    }
                    for t in 16..<64 {
                        let x = w[t - 15]
                        let y = w[t - 2]
                        let s0 = (x >> 7 | x << 25) ^ (x >> 18 | x << 14) ^ (x >> 3)
                        let s1 = (y >> 17 | y << 15) ^ (y >> 19 | y << 13) ^ (y >> 10)
                        w[t] = w[t - 16] &+ s0 &+ w[t - 7] &+ s1
                    }
                    var a = h0
                    var b = h1
                    var c = h2
                    var d = h3
                    var e = h4
                    var f = h5
                    var g = h6
                    var h = h7
                    for t in 0..<64 {
                        let s1 = (e >> 6 | e << 26) ^ (e >> 11 | e << 21) ^ (e >> 25 | e << 7)
                        let choose = (e & f) ^ (~e & g)
                        let t1 = h &+ s1 &+ choose &+ k[t] &+ w[t]
                        let s0 = (a >> 2 | a << 30) ^ (a >> 13 | a << 19) ^ (a >> 22 | a << 10)
                        let majority = (a & b) ^ (a & c) ^ (b & c)
                        let t2 = s0 &+ majority
                        h = g
                        g = f
                        f = e
                        e = d &+ t1
                        d = c
                        c = b
                        b = a
                        a = t1 &+ t2
                    }
                    h0 &+= a
                    h1 &+= b
                    h2 &+= c
                    h3 &+= d
                    h4 &+= e
                    h5 &+= f
                    h6 &+= g
                    h7 &+= h
                    block += 64
                }
            }
        }
        state = (h0, h1, h2, h3, h4, h5, h6, h7)
    }

    private static let roundConstants: [UInt32] = [
        0x428a_2f98, 0x7137_4491, 0xb5c0_fbcf, 0xe9b5_dba5, 0x3956_c25b, 0x59f1_11f1, 0x923f_82a4, 0xab1c_5ed5,
        0xd807_aa98, 0x1283_5b01, 0x2431_85be, 0x550c_7dc3, 0x72be_5d74, 0x80de_b1fe, 0x9bdc_06a7, 0xc19b_f174,
        0xe49b_69c1, 0xefbe_4786, 0x0fc1_9dc6, 0x240c_a1cc, 0x2de9_2c6f, 0x4a74_84aa, 0x5cb0_a9dc, 0x76f9_88da,
        0x983e_5152, 0xa831_c66d, 0xb003_27c8, 0xbf59_7fc7, 0xc6e0_0bf3, 0xd5a7_9147, 0x06ca_6351, 0x1429_2967,
        0x27b7_0a85, 0x2e1b_2138, 0x4d2c_6dfc, 0x5338_0d13, 0x650a_7354, 0x766a_0abb, 0x81c2_c92e, 0x9272_2c85,
        0xa2bf_e8a1, 0xa81a_664b, 0xc24b_8b70, 0xc76c_51a3, 0xd192_e819, 0xd699_0624, 0xf40e_3585, 0x106a_a070,
        0x19a4_c116, 0x1e37_6c08, 0x2748_774c, 0x34b0_bcb5, 0x391c_0cb3, 0x4ed8_aa4a, 0x5b9c_ca4f, 0x682e_6ff3,
        0x748f_82ee, 0x78a5_636f, 0x84c8_7814, 0x8cc7_0208, 0x90be_fffa, 0xa450_6ceb, 0xbef9_a3f7, 0xc671_78f2,
    ]
}
