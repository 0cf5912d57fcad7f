// gzip (RFC 1952) through the system's zlib: the feed history keeps each revision of a feed compressed.
import CZlib
import Foundation

/// Compresses to and expands from the gzip format.
enum Gzip {
    /// Why gzip data could not be expanded (damaged, cut short, not gzip).
    public struct Damaged: Error, Equatable, Sendable {
        /// zlib's words for it.
        public var reason: String
    }

    /// `data` as a gzip member (zlib's default level).
    public static func compress(_ data: Data) -> Data {
        var stream = z_stream()
        // windowBits 15 + 16: a gzip header and trailer (CRC-32, size) rather than zlib's.
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return Data() }
        defer { deflateEnd(&stream) }
        var output = Data(count: Int(deflateBound(&stream, uLong(data.count))) + 32)
        let written: Int = data.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                stream.next_in = UnsafeMutablePointer(
                    mutating: input.bindMemory(to: Bytef.self).baseAddress ?? UnsafePointer(bitPattern: 1))
                stream.avail_in = uInt(input.count)
                stream.next_out = out.bindMemory(to: Bytef.self).baseAddress
                stream.avail_out = uInt(out.count)
                _ = deflate(&stream, Z_FINISH)
                return out.count - Int(stream.avail_out)
            }
        }
        return output.prefix(written)
    }

    /// The bytes a gzip file holds (its members one after another), each checked against its CRC-32 and length.
    /// - Throws: `Damaged` when it is not gzip, is cut short, fails its check or has bytes past its end.
    public static func decompress(_ data: Data) throws -> Data {
        let inflater = Inflater(.gzip)
        var output = Data()
        do {
            try data.withUnsafeBytes { try inflater.read($0) { output.append(contentsOf: $0) } }
        } catch let damaged as Inflater.Damaged {
            throw Damaged(reason: damaged.reason)
        }
        guard inflater.ended else { throw Damaged(reason: "it is cut short") }
        return output
    }
}
