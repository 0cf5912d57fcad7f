// The first reading of a record's block: its length and SHA-1, which its header must give before the block. A file
// that comes whole in its first chunk is kept as bytes (copied from there, read once); a larger one stays open, to be
// read again through the same descriptor for the copy (a file renamed over meanwhile does not mix in).
import Foundation

/// A block read once through.
struct ReadBlock: Sendable {
    /// What the copy is made from.
    enum Body: Sendable {
        /// The whole block.
        case bytes([UInt8])
        /// The file, open, to be read again from its start (expanded from gzip when `expand`).
        case file(any ChunkedFile, expand: Bool)
    }

    /// Where the block came from, for messages.
    let path: String
    /// Its length, as read.
    let length: Int64
    /// Its SHA-1.
    let digest: [UInt8]
    let body: Body
}

/// Reads blocks in chunks through its own buffer (one reader for each thread that reads).
final class BlockReader {
    private let reader: any ChunkedFileReading
    private let buffer: UnsafeMutableRawBufferPointer
    /// Asked before each chunk: true stops the reading with `ExportError.interrupted`.
    private let cancelled: () -> Bool
    /// The export's name, for messages.
    private let target: String

    init(reader: any ChunkedFileReading, chunkSize: Int, target: String, cancelled: @escaping () -> Bool) {
        self.reader = reader
        self.buffer = .allocate(byteCount: chunkSize, alignment: 16)
        self.target = target
        self.cancelled = cancelled
    }

    deinit { buffer.deallocate() }

    /// `block` read once through: its length and digest, and what its copy is made from.
    /// - Throws: `ExportError.cannotRead` when a file cannot be opened or read, or a gzip file is damaged or cut
    ///   short; `ExportError.interrupted` when `cancelled` says so.
    func read(_ block: WARCBlock) throws -> ReadBlock {
        switch block {
        case .bytes(let bytes):
            var hash = SHA1()
            hash.update(bytes)
            return ReadBlock(path: "", length: Int64(bytes.count), digest: hash.finalize(), body: .bytes(bytes))
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
            let digest = hash.finalize()
            if !expand, chunks <= 1 {
                // The whole file is still in the buffer.
                let whole = Array(UnsafeRawBufferPointer(rebasing: buffer[0..<Int(length)]))
                return ReadBlock(path: path, length: length, digest: digest, body: .bytes(whole))
            }
            return ReadBlock(path: path, length: length, digest: digest, body: .file(file, expand: expand))
        }
    }

    /// Reads `file` to its end in chunks (expanded from gzip when `expand`), handing each to `body`: the bytes
    /// handed on.
    func readAll(
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

    static func reason(_ error: Error) -> String {
        if let failure = error as? FileSystemError { return String(cString: strerror(failure.code)) }
        return (error as? LocalizedError)?.errorDescription ?? "\(error)"
    }
}
