// Writes WARC records into an open file, each block streamed from the archive in chunks (a revision of a feed's
// history expanded from gzip as it is read). A record's header comes
// before its block and must give the block's length and SHA-1, so each file is read twice through one open
// descriptor: once to hash it, once to copy it (a file renamed over meanwhile does not mix in), but for one that
// came whole in its first chunk, which is copied from there. With gzip, each record is a gzip member of its own.
// Records are gathered and written a megabyte at a time, but for a large block's chunks: one write(2) for many
// small files' headers, bytes and trailers (`finish` writes what is left).
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
    /// The writer's own reading: of blocks handed to `write(_:block:type:copied:)`, and each large block's second.
    private let blocks: BlockReader

    /// Bytes of the export so far: written to the descriptor, or gathered to be (all written after `finish`).
    var written: Int64 { flushed + Int64(pending.count) }
    /// Bytes written to the descriptor.
    private var flushed: Int64 = 0
    /// Records' bytes gathered and not written yet.
    private var pending: [UInt8] = []
    /// The most bytes gathered before they are written.
    private let gathered = 1 << 20

    init(
        descriptor: Int32, target: String, gzip: Bool, reader: any ChunkedFileReading, chunkSize: Int,
        cancelled: @escaping () -> Bool = { false }
    ) {
        self.descriptor = descriptor
        self.target = target
        self.gzip = gzip
        self.blocks = BlockReader(reader: reader, chunkSize: chunkSize, target: target, cancelled: cancelled)
    }

    /// Writes one record: `header` with `Content-Length`, `WARC-Block-Digest` and (for a resource) the same
    /// `WARC-Payload-Digest` added, then `block`; `copied` is told the bytes of a file copied so far, after each
    /// chunk. Returns the header written.
    @discardableResult
    func write(
        _ header: WARCRecordHeader, block: WARCBlock, type: WARCRecordType, copied: (Int64) -> Void = { _ in }
    ) throws -> WARCRecordHeader {
        try write(header, read: blocks.read(block), type: type, copied: copied)
    }

    /// Writes one record whose block `read` has been read once through already (see `BlockPrefetcher`).
    @discardableResult
    func write(
        _ header: WARCRecordHeader, read: ReadBlock, type: WARCRecordType, copied: (Int64) -> Void = { _ in }
    ) throws -> WARCRecordHeader {
        var header = header
        header.add("WARC-Block-Digest", WARCValues.sha1(read.digest))
        if type == .resource { header.add("WARC-Payload-Digest", WARCValues.sha1(read.digest)) }
        header.add("Content-Length", String(read.length))
        switch read.body {
        case .bytes(let bytes):
            try emit(header) { write in try bytes.withUnsafeBytes { try write($0) } }
            if !read.path.isEmpty { copied(read.length) }
        case .file(let file, let expand):
            do {
                try file.rewind()
            } catch {
                throw ExportError.cannotRead(path: read.path, reason: BlockReader.reason(error))
            }
            var again: Int64 = 0
            var copiedSoFar: Int64 = 0
            try emit(header) { write in
                again = try blocks.readAll(file, path: read.path, expand: expand) { chunk in
                    try write(chunk)
                    copiedSoFar += Int64(chunk.count)
                    copied(copiedSoFar)
                }
            }
            if again != read.length { throw ExportError.changed(path: read.path) }
        }
        return header
    }

    /// Writes what is gathered: after the last record, before the file is synced.
    func finish() throws { try flush() }

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
                throw ExportError.cannotWrite(path: target, reason: BlockReader.reason(error))
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

    /// Writes what is gathered: at the end, and whenever more would pass `gathered`.
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
        flushed += Int64(bytes.count)
    }
}
