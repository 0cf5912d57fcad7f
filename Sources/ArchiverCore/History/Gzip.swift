// gzip (RFC 1952) through the system's zlib: the feed history keeps each revision of a feed compressed.
import CZlib
import Foundation

/// Compresses to and expands from the gzip format.
public enum Gzip {
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

    /// The bytes a gzip member holds, checked against its CRC-32 and length.
    /// - Throws: `Damaged` when it is not gzip, is cut short, or its check fails.
    public static func decompress(_ data: Data) throws -> Data {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Damaged(reason: "zlib could not start")
        }
        defer { inflateEnd(&stream) }
        var output = Data()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var status = Z_OK
        try data.withUnsafeBytes { input in
            stream.next_in = UnsafeMutablePointer(
                mutating: input.bindMemory(to: Bytef.self).baseAddress ?? UnsafePointer(bitPattern: 1))
            stream.avail_in = uInt(input.count)
            repeat {
                status = chunk.withUnsafeMutableBufferPointer { buffer in
                    stream.next_out = buffer.baseAddress
                    stream.avail_out = uInt(buffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                output.append(contentsOf: chunk[0..<(chunk.count - Int(stream.avail_out))])
                guard status == Z_OK || status == Z_STREAM_END else {
                    throw Damaged(reason: stream.msg.map { String(cString: $0) } ?? "not gzip data")
                }
                if status == Z_OK, stream.avail_in == 0, stream.avail_out != 0 {
                    throw Damaged(reason: "it is cut short")
                }
            } while status != Z_STREAM_END
        }
        return output
    }
}
