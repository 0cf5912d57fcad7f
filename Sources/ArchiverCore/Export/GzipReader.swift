// Streaming gunzip through the system's zlib: the feed history's revisions are expanded into an export chunk by
// chunk, so a feed document of hundreds of megabytes is never held whole.
import CZlib
import Foundation

/// Inflates one gzip member fed in pieces, handing each piece of output to a closure.
final class GzipReader {
    /// The stream lives at a fixed address: zlib keeps a pointer back to it and refuses a stream that moved.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    private var started = false
    /// Whether the member's end (and its checked CRC-32 and length) has been read.
    private(set) var ended = false

    init() throws {
        stream.initialize(to: z_stream())
        guard inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            stream.deallocate()
            throw Gzip.Damaged(reason: "zlib could not start")
        }
        started = true
    }

    deinit {
        if started {
            inflateEnd(stream)
            stream.deallocate()
        }
    }

    /// Expands `bytes`, handing what they hold to `body`; bytes after the member's end are ignored.
    /// - Throws: `Gzip.Damaged` when they are not gzip or fail its check; `body`'s errors.
    func read(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        guard !ended, !bytes.isEmpty else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
        stream.pointee.avail_in = uInt(bytes.count)
        repeat {
            let (status, made) = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(buffer.count)
                let status = inflate(stream, Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && made == 0) else {
                throw Gzip.Damaged(reason: stream.pointee.msg.map { String(cString: $0) } ?? "not gzip data")
            }
            if made > 0 { try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<made])) } }
            if status == Z_STREAM_END {
                ended = true
                return
            }
        } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
    }
}
