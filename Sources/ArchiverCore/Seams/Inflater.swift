// Streaming inflate through the system's zlib, one piece of input at a time, each piece of output handed on as it
// is made (64 KB at most): bodies sent with `Content-Encoding: gzip` or `deflate`, and the feed history's gzipped
// revisions, expanded without ever holding them whole, and known to be complete only at their stream's end.
import CZlib
import Foundation

/// Inflates one compressed stream fed in pieces: gzip (RFC 1952: one member, or several one after another, each
/// checked against its CRC-32 and length), or what HTTP calls deflate: a zlib stream (RFC 1950, checked against its
/// Adler-32), or, as some servers send it, raw deflate (RFC 1951, complete at its final block), told apart by the
/// first two bytes. Anything after the stream's end is damage.
final class Inflater {
    /// The stream's wrapping.
    enum Format {
        /// RFC 1952, members one after another.
        case gzip
        /// RFC 1950 (zlib), or raw RFC 1951 deflate, whichever the first two bytes are.
        case deflate
    }

    /// Why the bytes could not be inflated: not the format, a failed check, bytes past the end.
    struct Damaged: Error, Equatable {
        /// zlib's words for it, or podarchive's.
        var reason: String
        /// True when the stream was whole and bytes followed its end.
        var pastTheEnd = false
    }

    let format: Format
    /// The stream lives at a fixed address: zlib keeps a pointer back to it and refuses a stream that moved.
    private let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    private var output = [UInt8](repeating: 0, count: 1 << 16)
    private var started = false
    /// The first byte of a deflate stream, held until the second tells zlib from raw deflate.
    private var held: UInt8?
    /// Whether the stream (the last gzip member so far) has ended, its check passed: the input may end here.
    private(set) var ended = false

    init(_ format: Format) {
        self.format = format
        stream.initialize(to: z_stream())
    }

    deinit {
        if started { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Expands `bytes`, handing what they hold to `body` (each piece valid only during the call).
    /// - Throws: `Damaged` when they are not the format, fail its check or come after its end; `body`'s errors,
    ///   which stop the inflating there.
    func read(_ bytes: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var input = bytes
        guard !input.isEmpty else { return }
        if !started {
            if format == .deflate, held == nil, input.count == 1 {
                held = input[0]
                return
            }
            if let first = held {
                held = nil
                try start(looking: first, then: input[0])
                _ = try withUnsafeBytes(of: first) { try inflate($0, body) }
            } else {
                try start(looking: input[0], then: input.count > 1 ? input[1] : 0)
            }
        }
        while !input.isEmpty {
            if ended {
                // A gzip file may hold several members; anything else past the end is not the body.
                guard format == .gzip, input[0] == 0x1F, inflateReset(stream) == Z_OK else {
                    throw Damaged(reason: "it goes on past the end of its compressed stream", pastTheEnd: true)
                }
                ended = false
            }
            let used = try inflate(input, body)
            input = UnsafeRawBufferPointer(rebasing: input[used...])
        }
    }

    /// Starts zlib for the format, a deflate stream told apart by its first two bytes.
    private func start(looking first: UInt8, then second: UInt8) throws {
        let isZlib = first & 0x0F == 8 && first >> 4 <= 7 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
        let windowBits: Int32 = format == .gzip ? 15 + 16 : isZlib ? 15 : -15
        guard inflateInit2_(stream, windowBits, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw Damaged(reason: "zlib could not start")
        }
        started = true
    }

    /// Inflates from `input` until it is used up or the stream ends; returns how many of its bytes were used.
    private func inflate(_ input: UnsafeRawBufferPointer, _ body: (UnsafeRawBufferPointer) throws -> Void) throws
        -> Int
    {
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.bindMemory(to: Bytef.self).baseAddress)
        stream.pointee.avail_in = uInt(input.count)
        defer { stream.pointee.next_in = nil }
        repeat {
            let (status, made) = output.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress
                stream.pointee.avail_out = uInt(buffer.count)
                let status = CZlib.inflate(stream, Z_NO_FLUSH)
                return (status, buffer.count - Int(stream.pointee.avail_out))
            }
            guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && made == 0) else {
                throw Damaged(reason: stream.pointee.msg.map { String(cString: $0) } ?? "not compressed data")
            }
            if made > 0 { try output.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[0..<made])) } }
            if status == Z_STREAM_END {
                ended = true
                break
            }
            // No progress possible: every byte given is used and all it held was handed on.
            if status == Z_BUF_ERROR { break }
        } while stream.pointee.avail_in > 0 || stream.pointee.avail_out == 0
        return input.count - Int(stream.pointee.avail_in)
    }
}
