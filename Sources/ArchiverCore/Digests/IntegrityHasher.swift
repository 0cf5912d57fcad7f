// The second digest of a download: the algorithm a publisher's Subresource Integrity value names, computed in the
// same streaming pass as SHA-256 (see `DownloadOptions.integrityAlgorithm`), so an episode's bytes are read once.
import Foundation

/// A hash of one of the algorithms SRI names, fed in pieces.
public struct IntegrityHasher: Sendable {
    // Two optionals rather than an enum with payloads: `update` then mutates the hash in place, with no copy of
    // SHA-512's block buffer for each chunk.
    private var sha256: SHA256?
    private var sha512: SHA512?

    /// The algorithm this hasher computes.
    public let algorithm: SubresourceIntegrity.Algorithm

    /// A fresh hash of `algorithm`.
    public init(_ algorithm: SubresourceIntegrity.Algorithm) {
        self.algorithm = algorithm
        switch algorithm {
        case .sha256: sha256 = SHA256()
        case .sha384: sha512 = SHA512(.sha384)
        case .sha512: sha512 = SHA512(.sha512)
        }
    }

    /// Adds `bytes` to the hash.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        sha256?.update(bytes)
        sha512?.update(bytes)
    }

    /// The digest of everything added.
    public func finalize() -> [UInt8] {
        sha256?.finalize() ?? sha512!.finalize()
    }

    /// The digest of the file at `path` (read in 1 MB chunks); nil when it cannot be read.
    public static func digest(ofFileAtPath path: String, _ algorithm: SubresourceIntegrity.Algorithm) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var hasher = IntegrityHasher(algorithm)
        do {
            // nil (or an empty chunk) at the end of the file.
            while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
                chunk.withUnsafeBytes { hasher.update($0) }
            }
        } catch {
            return nil
        }
        return hasher.finalize()
    }
}
