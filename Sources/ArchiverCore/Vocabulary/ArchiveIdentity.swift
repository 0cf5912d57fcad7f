// Who an archive is, wherever it is mounted: `<root>/.podarchive/archive.json` holds a random ID, which keys
// its shows' credentials in the configuration folder (so a moved or remounted archive keeps its secrets), and a
// random key for the keyed hashes that stand in the index for identifiers carrying a secret (a GUID or an
// enclosure URL with a token). The key travels with the archive on purpose: every machine syncing a shared
// archive must compute the same hash for the same episode, or it would download it again. It hides a token's
// text; it does not stop someone who holds the archive from confirming a token they already know.
import Foundation

/// An archive's ID and identifier key.
struct ArchiveIdentity: Codable, Sendable, Equatable {
    /// A random UUID, lower case.
    public var id: String
    /// 32 random bytes, hex: the HMAC key of `keyedHash`.
    var key: String

    /// The prefix of a keyed hash standing for an identifier in the index.
    public static let hashPrefix = "hmac-sha256:"

    /// A fresh identity from the system's random number generator.
    static func random() -> ArchiveIdentity {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return ArchiveIdentity(id: UUID().uuidString.lowercased(), key: SHA256.hex(bytes))
    }

    /// `hmac-sha256:` and the HMAC-SHA256 of `text` under the archive's key, hex.
    public func keyedHash(_ text: String) -> String {
        Self.hashPrefix + SHA256.hex(HMAC.sha256(key: Array(key.utf8), message: Array(text.utf8)))
    }

    /// Whether `text` is a keyed hash (it stands for an identifier that carried a secret).
    public static func isKeyedHash(_ text: String) -> Bool { text.hasPrefix(hashPrefix) }
}

/// HMAC (RFC 2104) over SHA-256.
enum HMAC {
    static func sha256(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var block = key.count > 64 ? SHA256.digest(key) : key
        block += [UInt8](repeating: 0, count: 64 - block.count)
        var inner = SHA256()
        inner.update(block.map { $0 ^ 0x36 })
        inner.update(message)
        var outer = SHA256()
        outer.update(block.map { $0 ^ 0x5c })
        outer.update(inner.finalize())
        return outer.finalize()
    }
}

extension SHA256 {
    /// The SHA-256 of `bytes`.
    static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var hasher = SHA256()
        hasher.update(bytes)
        return hasher.finalize()
    }
}
