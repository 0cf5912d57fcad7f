// How a library file is written: under a temporary name beside it, then renamed over its name, so a failure or a
// kill leaves the old file or the new one, never half of one. On Linux the copies are made durable together, by one
// syncfs(2) before the library's record says they are whole (`syncFileSystem`): a copy's own fsync cost 0.6 ms each,
// most of an export of small files; elsewhere each copy is synced before its rename. A tagged copy is its new tag followed by
// the archived file's bytes after its own tags, read in chunks (memory stays at one chunk for a 2 GB episode). A
// file that is not tagged is cloned where the file system shares blocks (FICLONE), else copied; never hard-linked,
// so a tagger writing in place into the library never changes the archive.
import CWriteback
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// open(2), out of the way of other `open`s.
private func openFile(_ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Int32 { open(path, flags, mode) }

/// A part of a written file: bytes made here, or the archived file's bytes from `from` to `to` (its end when nil).
enum CopyPiece: Equatable {
    case bytes([UInt8])
    case source(from: Int64, to: Int64?)
    /// The archived file's Ogg pages from `from` to its end, each of stream `serial` with its sequence number moved
    /// by `delta` and its CRC made again (bytes that are no page copied as they are).
    case oggPages(from: Int64, serial: UInt32, delta: Int64)
}

/// What was written: its SHA-256 (hex) and its size.
struct WrittenFile: Equatable, Sendable {
    var sha256: String
    var size: Int64
}

struct LibraryCopier: Sendable {
    /// How archived files are read.
    var reader: any ChunkedFileReading
    var chunkSize = 1 << 20
    /// Whether to stop (asked before each chunk).
    var cancelled: @Sendable () -> Bool = { Task.isCancelled }
    /// Whether to try FICLONE before copying (false in tests that count the bytes copied).
    var cloning = true

    /// Writes `head`, then the bytes of the file at `source` after its first `skip` bytes, to `target`.
    /// - Throws: `ExportError` when the source cannot be read or the target written (nothing is left under a
    ///   temporary name; what was at `target` stays).
    func write(head: [UInt8], source: String, skip: Int64, to target: URL) throws -> WrittenFile {
        try write([.bytes(head), .source(from: skip, to: nil)], source: source, to: target)
    }

    /// Writes `pieces` in order to `target`: bytes made here, and ranges of the file at `source` (ascending, none
    /// overlapping), read once from its start in chunks.
    func write(_ pieces: [CopyPiece], source: String, to target: URL) throws -> WrittenFile {
        try writing(to: target) { descriptor in
            var hash = SHA256()
            var size: Int64 = 0
            let file = try open(source)
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
            defer { buffer.deallocate() }
            // The source's bytes in `buffer[used..<count]` start at `position`.
            var (position, used, count): (Int64, Int, Int) = (0, 0, 0)
            func emit(_ chunk: UnsafeRawBufferPointer) throws {
                hash.update(chunk)
                let code = FileDescriptor.writeAll(chunk, to: descriptor)
                guard code == 0 else { throw ExportError.cannotWrite(path: target.path, reason: Self.reason(code)) }
                size += Int64(chunk.count)
            }
            for piece in pieces {
                switch piece {
                case .bytes(let bytes): try bytes.withUnsafeBytes { try emit($0) }
                case .oggPages(let from, let serial, let delta):
                    // What is left of the file, page by page: a page is at most 65,307 bytes.
                    var carry: [UInt8] = []
                    var raw = false
                    while true {
                        if used == count {
                            if cancelled() { throw ExportError.interrupted(path: target.path) }
                            (used, count) = (0, try readChunk(file, into: buffer, source: source))
                            if count == 0 { break }
                        }
                        let skip = position < from ? Int(min(Int64(count - used), from - position)) : 0
                        let chunk = UnsafeRawBufferPointer(rebasing: buffer[(used + skip)..<count])
                        (position, used) = (position + Int64(count - used), count)
                        if raw {
                            try emit(chunk)
                            continue
                        }
                        carry += chunk
                        var start = 0
                        while carry.count - start >= 27 {
                            guard carry[start..<(start + 4)].elementsEqual("OggS".utf8) else {
                                raw = true
                                break
                            }
                            let head = Array(carry[start..<min(carry.count, start + 27 + 255)])
                            guard head.count >= 27 + Int(head[26]) else { break }
                            guard let length = OggPage.pageLength(head) else {
                                raw = true
                                break
                            }
                            guard carry.count - start >= length else { break }
                            OggPage.renumber(&carry, at: start, length: length, serial: serial, delta: delta)
                            try carry[start..<(start + length)].withUnsafeBytes { try emit($0) }
                            start += length
                        }
                        carry.removeFirst(start)
                        if raw {
                            try carry.withUnsafeBytes { try emit($0) }
                            carry = []
                        }
                    }
                    try carry.withUnsafeBytes { try emit($0) }
                case .source(let from, let to):
                    while to.map({ position < $0 }) ?? true {
                        if used == count {
                            if cancelled() { throw ExportError.interrupted(path: target.path) }
                            (used, count) = (0, try readChunk(file, into: buffer, source: source))
                            if count == 0 { break }
                        }
                        var take = count - used
                        if let to { take = Int(min(Int64(take), to - position)) }
                        if position < from { take = Int(min(Int64(take), from - position)) }
                        if position >= from {
                            try emit(UnsafeRawBufferPointer(rebasing: buffer[used..<(used + take)]))
                        }
                        (position, used) = (position + Int64(take), used + take)
                    }
                }
            }
            return WrittenFile(sha256: hash.hexDigest(), size: size)
        }
    }

    /// Copies the file at `source` to `target` as it is: a clone sharing its blocks where the file system can
    /// (btrfs, XFS), else every byte. `sha256` and `size` are the source's, as the index records them.
    func copy(source: String, to target: URL, sha256: String?, size: Int64) throws -> WrittenFile {
        if cloning, let sha256 {
            let cloned = try? writing(to: target) { descriptor -> WrittenFile in
                let from = openFile(source, O_RDONLY | O_CLOEXEC)
                guard from >= 0 else { throw ExportError.cannotRead(path: source, reason: Self.reason(errno)) }
                defer { close(from) }
                // FICLONE: _IOW(0x94, 9, int).
                guard ioctl(descriptor, 0x4004_9409, from) == 0 else {
                    throw ExportError.cannotWrite(path: target.path, reason: Self.reason(errno))
                }
                return WrittenFile(sha256: sha256, size: size)
            }
            if let cloned { return cloned }
        }
        return try write(head: [], source: source, skip: 0, to: target)
    }

    /// `count` bytes of the file at `path` from `offset` (fewer at its end), read with pread(2).
    func bytes(of path: String, at offset: Int64, count: Int) throws -> [UInt8] {
        let descriptor = openFile(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw ExportError.cannotRead(path: path, reason: Self.reason(errno)) }
        defer { close(descriptor) }
        var bytes = [UInt8](repeating: 0, count: count)
        var filled = 0
        while filled < count {
            let read = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + filled, count - filled, off_t(offset) + off_t(filled))
            }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw ExportError.cannotRead(path: path, reason: Self.reason(errno)) }
            if read == 0 { break }
            filled += read
        }
        return Array(bytes.prefix(filled))
    }

    /// The SHA-256 of the file at `path`, read in chunks.
    func hash(of path: String) throws -> String {
        let file = try open(path)
        var hash = SHA256()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkSize, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = try readChunk(file, into: buffer, source: path)
            if count == 0 { return hash.hexDigest() }
            hash.update(UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    /// The SHA-256 of `bytes`, hex.
    static func sha256(_ bytes: [UInt8]) -> String {
        var hash = SHA256()
        hash.update(bytes)
        return hash.hexDigest()
    }

    /// The first `count` bytes of the file at `path` (fewer when it is shorter).
    func head(of path: String, count: Int) throws -> [UInt8] {
        let file = try open(path)
        var bytes: [UInt8] = []
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: 16)
        defer { buffer.deallocate() }
        while bytes.count < count {
            let read = try readChunk(
                file, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<(count - bytes.count)]), source: path)
            if read == 0 { break }
            bytes += UnsafeRawBufferPointer(rebasing: buffer[0..<read])
        }
        return bytes
    }

    private func open(_ source: String) throws -> any ChunkedFile {
        do { return try reader.open(source) } catch {
            throw ExportError.cannotRead(path: source, reason: "\(error)")
        }
    }

    private func readChunk(_ file: any ChunkedFile, into buffer: UnsafeMutableRawBufferPointer, source: String)
        throws -> Int
    {
        do { return try file.read(into: buffer) } catch {
            throw ExportError.cannotRead(path: source, reason: "\(error)")
        }
    }

    private func put(_ bytes: [UInt8], to descriptor: Int32, target: URL) throws {
        let code = bytes.withUnsafeBytes { FileDescriptor.writeAll($0, to: descriptor) }
        guard code == 0 else { throw ExportError.cannotWrite(path: target.path, reason: Self.reason(code)) }
    }

    /// Runs `body` on a new temporary file beside `target`, then syncs it and renames it over `target`; removes it
    /// when anything fails.
    private func writing(to target: URL, _ body: (Int32) throws -> WrittenFile) throws -> WrittenFile {
        let temporary = target.deletingLastPathComponent().appendingPathComponent(
            TemporaryFiles.name(for: target.lastPathComponent), isDirectory: false)
        let descriptor = openFile(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw ExportError.cannotWrite(path: target.path, reason: Self.reason(errno)) }
        var isOpen = true
        do {
            let written = try body(descriptor)
            guard Self.syncedTogether || fsync(descriptor) == 0 else {
                throw ExportError.cannotWrite(path: target.path, reason: Self.reason(errno))
            }
            close(descriptor)
            isOpen = false
            guard rename(temporary.path, target.path) == 0 else {
                throw ExportError.cannotWrite(path: target.path, reason: Self.reason(errno))
            }
            return written
        } catch {
            if isOpen { close(descriptor) }
            unlink(temporary.path)
            throw error
        }
    }

    static func reason(_ code: Int32) -> String { String(cString: strerror(code)) }

    /// Whether copies are synced together by `syncFileSystem` rather than each on its own.
    #if os(Linux)
        static let syncedTogether = true
    #else
        static let syncedTogether = false
    #endif

    /// Makes every copy written so far in `library` durable, with the folders' entries: syncfs(2) of its file
    /// system, once (nothing to do where each copy was synced on its own).
    /// - Throws: `ExportError.cannotWrite` when the file system cannot be synced.
    static func syncFileSystem(of library: URL) throws {
        #if os(Linux)
            let descriptor = openFile(library.path, O_RDONLY | O_CLOEXEC | O_DIRECTORY)
            guard descriptor >= 0 else { throw ExportError.cannotWrite(path: library.path, reason: reason(errno)) }
            defer { close(descriptor) }
            guard podarchive_sync_file_system(descriptor) == 0 else {
                throw ExportError.cannotWrite(path: library.path, reason: reason(errno))
            }
        #endif
    }
}
