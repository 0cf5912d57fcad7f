// Subresource Integrity (W3C SRI), as Podcasting 2.0's `<podcast:integrity type="sri" value="sha384-…">` carries
// it: one or more `alg-base64digest` tokens separated by white space, each possibly followed by `?options`. Only
// the strongest algorithm given counts (SRI §3.3.3): a file matches when its digest equals any value given for
// that algorithm. Unknown algorithms are ignored; a value with none known says nothing.
import Foundation

/// A publisher's Subresource Integrity value.
public struct SubresourceIntegrity: Equatable, Sendable, Codable {
    /// The hash algorithms SRI names, weakest first.
    public enum Algorithm: String, Comparable, Sendable, Codable, CaseIterable {
        case sha256
        case sha384
        case sha512

        /// The digest's length in bytes.
        public var byteCount: Int {
            switch self {
            case .sha256: return 32
            case .sha384: return 48
            case .sha512: return 64
            }
        }

        /// Weaker first: SHA-256 < SHA-384 < SHA-512.
        public static func < (lhs: Algorithm, rhs: Algorithm) -> Bool {
            allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
        }
    }

    /// The strongest algorithm the value names.
    public var algorithm: Algorithm
    /// The digests given for it (usually one).
    public var digests: [[UInt8]]

    /// The value as the feed wrote it, or nil when it names no known algorithm with a well-formed digest.
    public init?(_ text: String) {
        var found: [Algorithm: [[UInt8]]] = [:]
        for token in text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).prefix(16) {
            let expression = token.split(separator: "?", maxSplits: 1)[0]
            guard let dash = expression.firstIndex(of: "-"),
                let algorithm = Algorithm(rawValue: expression[..<dash].lowercased()),
                let digest = Data(
                    base64Encoded: SubresourceIntegrity.padded(expression[expression.index(after: dash)...])),
                digest.count == algorithm.byteCount
            else { continue }
            found[algorithm, default: []].append([UInt8](digest))
        }
        guard let strongest = found.keys.max() else { return nil }
        algorithm = strongest
        digests = found[strongest]!
    }

    /// Whether `digest`, computed with `algorithm`, is one the value allows.
    public func matches(_ digest: [UInt8]) -> Bool { digests.contains(digest) }

    /// The first allowed digest as SRI writes it (`sha384-…`), for messages.
    public var expected: String { Self.format(algorithm, digests[0]) }

    /// `digest` as SRI writes it.
    public static func format(_ algorithm: Algorithm, _ digest: [UInt8]) -> String {
        algorithm.rawValue + "-" + Data(digest).base64EncodedString()
    }

    /// Base64 as written, with the padding some feeds leave off put back (and the URL-safe alphabet read too).
    private static func padded(_ text: Substring) -> String {
        var value = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while value.count % 4 != 0 { value += "=" }
        return value
    }
}

/// RFC 4648 base32 (upper case, padded), as WARC's `sha1:` digests are written.
enum Base32 {
    /// `bytes` in base32.
    public static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)
        var out: [UInt8] = []
        var buffer: UInt64 = 0
        var bits = 0
        for byte in bytes {
            buffer = buffer << 8 | UInt64(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[Int(buffer >> UInt64(bits - 5) & 31)])
                bits -= 5
            }
        }
        if bits > 0 { out.append(alphabet[Int(buffer << UInt64(5 - bits) & 31)]) }
        while out.count % 8 != 0 { out.append(UInt8(ascii: "=")) }
        return String(decoding: out, as: UTF8.self)
    }
}
