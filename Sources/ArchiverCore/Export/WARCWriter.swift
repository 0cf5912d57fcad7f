// Writes WARC records into an open file, each block streamed from the archive in chunks (a revision of a feed's
// history expanded from gzip as it is read). A record's header comes
// before its block and must give the block's length and SHA-1, so each file is read twice through one open
// descriptor: once to hash it, once to copy it (a file renamed over meanwhile does not mix in), but for one that
// came whole in its first chunk, which is copied from there. With gzip, each record is a gzip member of its own.
// A record is gathered and written at once, but for a large block's chunks: one write(2) for a small file's
// header, bytes and trailer, and nothing left unwritten when `write` returns.
import Foundation

/// Why an export stopped. Nothing is left under the export's name.
public enum ExportError: Error, Equatable, Sendable, LocalizedError {
    /// An archived file could not be read.
    case cannotRead(path: String, reason: String)
    /// The export could not be written.
    case cannotWrite(path: String, reason: String)
    /// An archived file changed between its two readings (a sync or repair at work).
    case changed(path: String)
    /// The run was stopped (Ctrl-C, a stop signal) before the export was complete.
    case interrupted(path: String)
    /// The export was to be written inside a show's folder, where it could take an archived file's place.
    case insideShow(path: String, show: String)
    /// The export was to be written inside the archive's own state folder (`.podarchive`).
    case insideArchiveState(path: String, folder: String)

    public var errorDescription: String? {
        switch self {
        case .cannotRead(let path, let reason):
            return "cannot export \(path): \(reason); no export was written"
        case .cannotWrite(let path, let reason):
            return "cannot write the export \(path): \(reason); nothing was left under its name"
        case .changed(let path):
            return "\(path) changed while it was being exported (is a sync running?); no export was written"
        case .interrupted(let path):
            return "interrupted: \(path) was not written"
        case .insideShow(let path, let show):
            return "the export \(path) would be written inside the show folder \(show): name a file outside it"
        case .insideArchiveState(let path, let folder):
            return "the export \(path) would be written inside the archive's state folder \(folder): name a file "
                + "outside it"
        }
    }
}

/// Where a record's block comes from.
enum WARCBlock: Sendable {
    /// An archived file, read in chunks.
    case file(String)
    /// A gzip file, expanded chunk by chunk (a revision of a feed's history).
    case gzipped(String)
    /// Bytes made by the export (the warcinfo fields, a decompressed feed revision).
    case bytes([UInt8])
}

/// Writes records to a file descriptor.
final class WARCWriter {
    private let descriptor: Int32
    /// The export's name, for messages.
    private let target: String
    private let gzip: Bool
    private let reader: any ChunkedFileReading
    private let buffer: UnsafeMutableRawBufferPointer
    /// Asked before each chunk: true stops the export.
    private let cancelled: () -> Bool

    /// Bytes written to the descriptor.
    private(set) var written: Int64 = 0
    /// The record's bytes gathered and not written yet (written before `write` returns).
    private var pending: [UInt8] = []
    /// The most bytes gathered before they are written.
    private let gathered = 1 << 20

    init(
        descriptor: Int32, target: String, gzip: Bool, reader: any ChunkedFileReading, chunkSize: Int,
        cancelled: @escaping () -> Bool = { false }
    ) {
        self.cancelled = cancelled
        self.descriptor = descriptor
        self.target = target
        self.gzip = gzip
        self.reader = reader
        self.buffer = .allocate(byteCount: chunkSize, alignment: 16)
    }

    deinit { buffer.deallocate() }

    /// Writes one record: `header` with `Content-Length`, `WARC-Block-Digest` and (for a resource) the same
    /// `WARC-Payload-Digest` added, then `block`; `copied` is told the bytes of a file copied so far, after each
    /// chunk. Returns the header written.
    @discardableResult
    func write(
        _ header: WARCRecordHeader, block: WARCBlock, type: WARCRecordType, copied: (Int64) -> Void = { _ in }
    ) throws -> WARCRecordHeader {
        defer { pending.removeAll(keepingCapacity: true) }
        let written = try record(header, block: block, type: type, copied: copied)
        try flush()
        return written
    }

    private func record(
        _ header: WARCRecordHeader, block: WARCBlock, type: WARCRecordType, copied: (Int64) -> Void
    ) throws -> WARCRecordHeader {
        var header = header
        switch block {
        case .bytes(let bytes):
            var hash = SHA1()
            hash.update(bytes)
            try finishHeader(&header, length: Int64(bytes.count), digest: hash.finalize(), type: type)
            try emit(header) { write in try bytes.withUnsafeBytes { try write($0) } }
        case .file(let path), .gzipped(let path):
            let expand: Bool
            if case .gzipped = block { expand = true } else { expand = false }
            let file: any ChunkedFile
            do {
                file = try reader.open(path)
            } catch {
                throw ExportError.cannotRead(path: path, reason: Self.reason(error))
            }
            var hash = SHA1()
            var chunks = 0
            let length = try readAll(file, path: path, expand: expand) { chunk in
                hash.update(chunk)
                chunks += 1
            }
            try finishHeader(&header, length: length, digest: hash.finalize(), type: type)
            if !expand, chunks <= 1 {
                // The whole file is still in the buffer: copied from there, read once.
                let whole = UnsafeRawBufferPointer(rebasing: buffer[0..<Int(length)])
                try emit(header) { write in try write(whole) }
                copied(length)
                return header
            }
            do {
                try file.rewind()
            } catch {
                throw ExportError.cannotRead(path: path, reason: Self.reason(error))
            }
            var again: Int64 = 0
            var copiedSoFar: Int64 = 0
            try emit(header) { write in
                again = try readAll(file, path: path, expand: expand) { chunk in
                    try write(chunk)
                    copiedSoFar += Int64(chunk.count)
                    copied(copiedSoFar)
                }
            }
            if again != length { throw ExportError.changed(path: path) }
        }
        return header
    }

    private func finishHeader(_ header: inout WARCRecordHeader, length: Int64, digest: [UInt8], type: WARCRecordType)
        throws
    {
        header.add("WARC-Block-Digest", WARCValues.sha1(digest))
        if type == .resource { header.add("WARC-Payload-Digest", WARCValues.sha1(digest)) }
        header.add("Content-Length", String(length))
    }

    /// Reads `file` to its end in chunks (expanded from gzip when `expand`), handing each to `body`: the bytes
    /// handed on.
    private func readAll(
        _ file: any ChunkedFile, path: String, expand: Bool, _ body: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int64 {
        var total: Int64 = 0
        let gunzip = expand ? Inflater(.gzip) : nil
        while true {
            if cancelled() { throw ExportError.interrupted(path: target) }
            let count: Int
            do {
                count = try file.read(into: buffer)
            } catch {
                throw ExportError.cannotRead(path: path, reason: Self.reason(error))
            }
            let chunk = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            guard let gunzip else {
                if count == 0 { return total }
                try body(chunk)
                total += Int64(count)
                continue
            }
            if count == 0 {
                guard gunzip.ended else { throw ExportError.cannotRead(path: path, reason: "it is cut short") }
                return total
            }
            do {
                try gunzip.read(chunk) { piece in
                    try body(piece)
                    total += Int64(piece.count)
                }
            } catch let damaged as Inflater.Damaged {
                throw ExportError.cannotRead(path: path, reason: damaged.reason)
            }
        }
    }

    /// The header, the block `body` writes, and the trailer: as they are, or as one gzip member.
    private func emit(
        _ header: WARCRecordHeader, body: ((UnsafeRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let raw: (UnsafeRawBufferPointer) throws -> Void = { [self] bytes in
            if pending.count + bytes.count > gathered { try flush() }
            if bytes.count >= gathered {
                try writeOut(bytes)
            } else {
                pending.append(contentsOf: bytes)
            }
        }
        if gzip {
            let member: GzipWriter
            do {
                member = try GzipWriter(sink: raw)
            } catch {
                throw ExportError.cannotWrite(path: target, reason: Self.reason(error))
            }
            try member.write(header.serialized())
            try body { try member.write($0) }
            try member.write(WARCRecordHeader.trailer)
            try member.finish()
        } else {
            try header.serialized().withUnsafeBytes { try raw($0) }
            try body(raw)
            try WARCRecordHeader.trailer.withUnsafeBytes { try raw($0) }
        }
    }

    /// Writes what is gathered: at the end of each record, and whenever more would pass `gathered`.
    private func flush() throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBytes { try writeOut($0) }
        pending.removeAll(keepingCapacity: true)
    }

    private func writeOut(_ bytes: UnsafeRawBufferPointer) throws {
        let failure = FileDescriptor.writeAll(bytes, to: descriptor)
        guard failure == 0 else {
            throw ExportError.cannotWrite(path: target, reason: String(cString: strerror(failure)))
        }
        written += Int64(bytes.count)
    }

    private static func reason(_ error: Error) -> String {
        if let failure = error as? FileSystemError { return String(cString: strerror(failure.code)) }
        return (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }
}
