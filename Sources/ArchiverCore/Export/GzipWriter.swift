// Streaming gzip (RFC 1952) through the system's zlib, for payloads too large to hold: each WARC record of a `.gz`
// export is one gzip member, so a reader can seek to any record (as the web archives' indexes do).
import CZlib
import Foundation

/// Deflates one gzip member chunk by chunk, handing each piece of output to `sink` as it is made.
/// The stream lives at a fixed address: zlib keeps a pointer back to it and refuses a stream that moved.
final class GzipWriter {
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    private let sink: (UnsafeRawBufferPointer) throws -> Void
    private var started = false

    /// A member whose compressed bytes go to `sink`; `sink`'s errors end the member and are rethrown.
    public init(sink: @escaping (UnsafeRawBufferPointer) throws -> Void) throws {
        self.sink = sink
        stream.initialize(to: z_stream())
        // windowBits 15 + 16: a gzip header and trailer (CRC-32, size) rather than zlib's.
        guard
            deflateInit2_(
                stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
                Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else {
            stream.deallocate()
            throw Gzip.Damaged(reason: "zlib could not start")
        }
        started = true
    }

    deinit {
        if started {
            deflateEnd(stream)
            stream.deallocate()
        }
    }

    /// Compresses `bytes` (output is handed on as zlib makes it).
    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard !bytes.isEmpty else { return }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: bytes.bindMemory(to: Bytef.self).baseAddress)
        stream.pointee.avail_in = uInt(bytes.count)
        try run(Z_NO_FLUSH)
    }

    /// Compresses `bytes`.
    public func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    /// Ends the member: the rest of the compressed data and the gzip trailer go to the sink.
    public func finish() throws {
        stream.pointee.next_in = nil
        stream.pointee.avail_in = 0
        try run(Z_FINISH)
    }

    private func run(_ flush: Int32) throws {
        repeat {
            let (status, made) = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(buffer.count)
                let status = deflate(stream, flush)
                return (status, buffer.count - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                throw Gzip.Damaged(reason: stream.pointee.msg.map { String(cString: $0) } ?? "zlib failed (\(status))")
            }
            if made > 0 { try output.withUnsafeBytes { try sink(UnsafeRawBufferPointer(rebasing: $0[0..<made])) } }
            if flush == Z_FINISH, status == Z_STREAM_END { return }
        } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0 || flush == Z_FINISH
    }
}
