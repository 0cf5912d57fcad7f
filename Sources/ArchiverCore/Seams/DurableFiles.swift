// Live seams that Foundation has no call for: durable atomic replacement, flock(2) locks, streaming hashes.
import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
    private let systemWrite = Darwin.write
#endif

/// A POSIX error as a Swift error, with the system's reason and the path it concerns.
public struct FileSystemError: Error, Equatable, Sendable, LocalizedError {
    /// The file or folder the call concerned.
    public var path: String
    /// The `errno` value.
    public var code: Int32

    /// The error `code` (an `errno`) for `path`.
    public init(path: String, code: Int32) {
        self.path = path
        self.code = code
    }

    public var errorDescription: String? { "\(path): \(String(cString: strerror(code)))" }

    /// Whether `code`, from link(2), says the file system has no hard links (FAT, exFAT, some network shares):
    /// exclusive creation then has to do without them.
    static func meansNoHardLinks(_ code: Int32) -> Bool {
        [EPERM, EOPNOTSUPP, ENOTSUP, ENOSYS].contains(code)
    }
}

/// Writes to a file descriptor, the one place that knows a write may be partial or interrupted.
public enum FileDescriptor {
    /// Writes every byte of `buffer` to `descriptor`, again after a partial write or EINTR.
    /// - Returns: 0, or the `errno` of the write that failed.
    public static func writeAll(_ buffer: UnsafeRawBufferPointer, to descriptor: Int32) -> Int32 {
        var offset = 0
        while offset < buffer.count {
            let written = systemWrite(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if written == 0 { return EIO }
            offset += written
        }
        return 0
    }
}

// MARK: - Atomic writes

/// Replaces small files (the index, download records) so a crash leaves either the old or the new content:
/// write a temporary file beside the target, fsync it, rename it over the target, fsync the folder.
/// Foundation's `.atomic` write does not fsync, so a power cut could leave an empty index behind.
public struct DurableFileWriter: AtomicFileWriting {
    #if PODARCHIVE_TEST_HOOKS
        private var beforeRename: (@Sendable (URL) -> Void)?
        private var midWrite: (@Sendable (URL, Data) -> Void)?

        /// A writer that calls the crash tests' hooks (test builds only: the shipped binary has neither).
        /// - Parameters:
        ///   - beforeRename: called with the target once the temporary file is written.
        ///   - midWrite: called with the file and the whole of what is being appended once half of it is written
        ///     (the crash tests tear an append there; without it, an append is one write(2)).
        public init(
            beforeRename: (@Sendable (URL) -> Void)? = nil, midWrite: (@Sendable (URL, Data) -> Void)? = nil
        ) {
            self.beforeRename = beforeRename
            self.midWrite = midWrite
        }
    #endif

    /// The live writer.
    public init() {}

    /// Appends with one write(2), so a crash leaves the record whole or absent (a test build's `midWrite` hook
    /// splits it in two to tear it), then `fdatasync` when durable.
    public func append(_ data: Data, to url: URL, durable: Bool) throws -> Int64 {
        let descriptor = openForAppending(url.path)
        guard descriptor >= 0 else { throw FileSystemError(path: url.path, code: errno) }
        defer { close(descriptor) }
        let failure = appendWhole(data, to: url, descriptor: descriptor, durable: durable)
        guard failure == 0 else { throw FileSystemError(path: url.path, code: failure) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileSystemError(path: url.path, code: errno) }
        return Int64(status.st_size)
    }

    /// The file at `url`, kept open between appends (see `DescriptorAppender`).
    public func appender(for url: URL) -> any FileAppending { DescriptorAppender(writer: self, url: url) }

    /// Writes `data` with one write(2), then `fdatasync` when `durable`: 0, or the `errno` of what failed.
    fileprivate func appendWhole(_ data: Data, to url: URL, descriptor: Int32, durable: Bool) -> Int32 {
        let failure = writeAppended(data, to: url, descriptor: descriptor)
        guard failure == 0, durable else { return failure }
        return fdatasync(descriptor) == 0 ? 0 : errno
    }

    /// Writes `data` with one write(2) (again only after a partial write); 0 or the `errno`.
    private func writeAppended(_ data: Data, to url: URL, descriptor: Int32) -> Int32 {
        #if PODARCHIVE_TEST_HOOKS
            if let midWrite {
                let half = data.count / 2
                let failure = data.prefix(half).withUnsafeBytes { FileDescriptor.writeAll($0, to: descriptor) }
                guard failure == 0 else { return failure }
                midWrite(url, data)
                return data.dropFirst(half).withUnsafeBytes { FileDescriptor.writeAll($0, to: descriptor) }
            }
        #endif
        return data.withUnsafeBytes { FileDescriptor.writeAll($0, to: descriptor) }
    }

    /// Writes `data` to `url` only if nothing is there (durably, through a temporary file linked into place);
    /// false when something was.
    public func createExclusively(_ data: Data, at url: URL) throws -> Bool {
        try createExclusively(data, at: url, stagedIn: nil)
    }

    /// As `createExclusively(_:at:)`, its temporary file in `staging` when given (beside `url` when `staging` is on
    /// another file system).
    public func createExclusively(_ data: Data, at url: URL, stagedIn staging: URL?) throws -> Bool {
        // Unique per call (see `TemporaryFiles`): two tasks of one process may race to make the same file.
        let temporary = Self.temporaryPath(for: url, stagedIn: staging)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(path: temporary, code: errno) }
        var failure = data.withUnsafeBytes { FileDescriptor.writeAll($0, to: descriptor) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        defer { unlink(temporary) }
        guard failure == 0 else { throw FileSystemError(path: url.path, code: failure) }
        // link(2) never replaces what is there: the first process to link wins.
        guard link(temporary, url.path) == 0 else {
            if errno == EEXIST { return false }
            // The staging folder is on another file system (a subfolder mounted there): beside the file, then.
            if errno == EXDEV, staging != nil { return try createExclusively(data, at: url, stagedIn: nil) }
            guard FileSystemError.meansNoHardLinks(errno) else {
                throw FileSystemError(path: url.path, code: errno)
            }
            // A file system without hard links (FAT, exFAT, some shares): O_EXCL is as exclusive, if not atomic
            // against a crash mid-write (a reader then finds the file damaged and says so).
            return try createWithoutLink(data, at: url)
        }
        return true
    }

    private func createWithoutLink(_ data: Data, at url: URL) throws -> Bool {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else {
            if errno == EEXIST { return false }
            throw FileSystemError(path: url.path, code: errno)
        }
        var failure = data.withUnsafeBytes { FileDescriptor.writeAll($0, to: descriptor) }
        if failure == 0, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0 else { throw FileSystemError(path: url.path, code: failure) }
        return true
    }

    public func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool) throws {
        try writeAtomically(data, to: url, durable: durable, ownerOnly: ownerOnly, stagedIn: nil)
    }

    public func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool, stagedIn staging: URL?)
        throws
    {
        let folder = url.deletingLastPathComponent().path
        let temporary = Self.temporaryPath(for: url, stagedIn: staging)
        // O_NOFOLLOW: a link planted at this name is refused, never written through; O_EXCL: the name is this
        // call's alone. A secret's file is 0600 from its first byte.
        let mode: mode_t = ownerOnly ? 0o600 : 0o644
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode)
        guard descriptor >= 0 else { throw FileSystemError(path: temporary, code: errno) }
        var failure = data.withUnsafeBytes { FileDescriptor.writeAll($0, to: descriptor) }
        if failure == 0, durable, fsync(descriptor) != 0 { failure = errno }
        close(descriptor)
        guard failure == 0 else {
            unlink(temporary)
            throw FileSystemError(path: url.path, code: failure)
        }
        #if PODARCHIVE_TEST_HOOKS
            beforeRename?(url)
        #endif
        guard rename(temporary, url.path) == 0 else {
            let code = errno
            unlink(temporary)
            // The staging folder is on another file system (a subfolder mounted there): beside the file, then.
            if code == EXDEV, staging != nil {
                return try writeAtomically(data, to: url, durable: durable, ownerOnly: ownerOnly, stagedIn: nil)
            }
            throw FileSystemError(path: url.path, code: code)
        }
        let folderDescriptor = durable ? open(folder, O_RDONLY | O_CLOEXEC) : -1
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Copies `source` to `url` through a temporary file beside it, fsynced, dated as `source`, renamed.
    public func copyDurably(_ source: URL, to url: URL) throws {
        let input = open(source.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard input >= 0 else { throw FileSystemError(path: source.path, code: errno) }
        defer { close(input) }
        var status = stat()
        guard fstat(input, &status) == 0 else { throw FileSystemError(path: source.path, code: errno) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { throw FileSystemError(path: source.path, code: EINVAL) }
        let temporary = Self.temporaryPath(for: url, stagedIn: nil)
        let output = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard output >= 0 else { throw FileSystemError(path: temporary, code: errno) }
        var failure: Int32 = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        copying: while failure == 0 {
            let count = buffer.withUnsafeMutableBytes { systemRead(input, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                failure = errno
            } else if count == 0 {
                break copying
            } else {
                failure = buffer.withUnsafeBytes {
                    FileDescriptor.writeAll(UnsafeRawBufferPointer(rebasing: $0[..<count]), to: output)
                }
            }
        }
        if failure == 0 {
            #if canImport(Glibc)
                let times = [status.st_atim, status.st_mtim]
            #else
                let times = [status.st_atimespec, status.st_mtimespec]
            #endif
            if futimens(output, times) != 0 { failure = errno }
        }
        if failure == 0, fsync(output) != 0 { failure = errno }
        close(output)
        guard failure == 0 else {
            unlink(temporary)
            throw FileSystemError(path: url.path, code: failure)
        }
        guard rename(temporary, url.path) == 0 else {
            let code = errno
            unlink(temporary)
            throw FileSystemError(path: url.path, code: code)
        }
        let folderDescriptor = open(url.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }

    /// Where the temporary file of a write to `url` goes: in `staging`, else beside `url`, under a name that says
    /// whose it is (see `TemporaryFiles`).
    private static func temporaryPath(for url: URL, stagedIn staging: URL?) -> String {
        (staging?.path ?? url.deletingLastPathComponent().path) + "/" + TemporaryFiles.name(for: url.lastPathComponent)
    }
}

// MARK: - Locks

/// `flock(2)` locks: a killed process never leaves a stale lock behind.
struct FlockLocker: FileLocking {
    /// The live locker.
    public init() {}

    public func tryLock(_ url: URL) throws -> (any HeldLock)? {
        // O_NOFOLLOW: a lock file that is a link would have its target overwritten with our PID (from root's
        // cron, any file on the machine); it is refused instead.
        guard let descriptor = try Self.lock(url, flags: O_RDWR | O_CREAT) else { return nil }
        // Say who holds it, for the message the next process prints: a line of fixed width, so the note after it
        // (the last holder's, see `keep`) stays where it is without reading the file first.
        let text = Array(Self.pidLine(getpid()).utf8)
        _ = text.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return FlockLock(descriptor: descriptor)
    }

    public func tryLockForReading(_ url: URL) throws -> (any HeldLock)? {
        // flock(2) needs no write access: a read-only mount's lock file still keeps a sync and a reader apart (on
        // one machine; NFS locks a file opened so only for reading, and that is refused with EBADF).
        try Self.lock(url, flags: O_RDONLY).map(FlockLock.init(descriptor:))
    }

    /// The lock file at `url` opened with `flags` (never through a link) and locked, exclusively, without waiting:
    /// its descriptor, or nil when another process holds it.
    private static func lock(_ url: URL, flags: Int32) throws -> Int32? {
        let descriptor = open(url.path, flags | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw FileSystemError(path: url.path, code: errno) }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            close(descriptor)
            if code == EWOULDBLOCK || code == EINTR { return nil }
            throw FileSystemError(path: url.path, code: code)
        }
        return descriptor
    }

    /// The holder's PID, padded to `noteOffset` bytes with its newline.
    static func pidLine(_ pid: Int32) -> String {
        let digits = String(pid)
        return digits + String(repeating: " ", count: max(0, noteOffset - 1 - digits.count)) + "\n"
    }

    /// Where a note starts: after the PID line (files written before notes hold only "<pid>\n").
    static let noteOffset = 16

    public func lockHolder(_ url: URL) -> Int32? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let line = data.prefix { $0 != UInt8(ascii: "\n") }
        return Int32(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespaces))
    }

    /// The line after the PID line, when the lock file has one.
    public func note(in url: URL) -> Data? {
        guard let data = FileManager.default.contents(atPath: url.path), data.count > Self.noteOffset,
            let end = data.firstIndex(of: UInt8(ascii: "\n")), end == data.startIndex + Self.noteOffset - 1
        else { return nil }
        let note = data.dropFirst(Self.noteOffset).prefix { $0 != UInt8(ascii: "\n") }
        return note.isEmpty ? nil : Data(note)
    }
}

private final class FlockLock: HeldLock, Sendable {
    private let descriptor: Locked<Int32>

    init(descriptor: Int32) {
        self.descriptor = Locked(descriptor)
    }

    func unlock() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            close(descriptor)
            descriptor = -1
        }
    }

    /// One pwrite(2) and an ftruncate(2) of the file this lock already holds open: no open, no rename, no sync.
    func keep(_ note: Data) {
        var line = note
        line.append(UInt8(ascii: "\n"))
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            let offset = FlockLocker.noteOffset
            let written = line.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, off_t(offset)) }
            if written == line.count { _ = ftruncate(descriptor, off_t(offset + line.count)) }
        }
    }

    deinit {
        unlock()
    }
}

// MARK: - Hashing files

/// The live `FileHashing`: reads with read(2) in 1 MB chunks.
struct StreamingFileHasher: FileHashing {
    /// The live hasher.
    public init() {}

    public func sha256(ofFileAtPath path: String) throws -> FileDigest {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(path: path, code: errno) }
        defer { close(descriptor) }
        var hasher = SHA256()
        var size: Int64 = 0
        var leading = Data()
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 16)
        defer { buffer.deallocate() }
        while true {
            let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if count < 0 {
                if errno == EINTR { continue }
                throw FileSystemError(path: path, code: errno)
            }
            if count == 0 { break }
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            hasher.update(bytes)
            if leading.count < 512 { leading.append(contentsOf: bytes.prefix(512 - leading.count)) }
            size += Int64(count)
        }
        return FileDigest(size: size, digest: hasher.hexDigest(), leading: leading)
    }
}

// MARK: - A file kept open for appends

/// A file appended to many times in a run (the show's download log, the index's journal), kept open: each append is
/// an fstat (a file removed meanwhile, its link count 0, is opened again rather than written unlinked), one write
/// and, when durable, an fdatasync; no open and close each time.
final class DescriptorAppender: FileAppending {
    private let writer: DurableFileWriter
    private let url: URL
    /// The open file, and its size; nil until the first append, and after `close`.
    private let open = Locked<(descriptor: Int32, size: Int64)?>(nil)

    init(writer: DurableFileWriter, url: URL) {
        self.writer = writer
        self.url = url
    }

    deinit { close() }

    func append(_ data: Data, durable: Bool) throws -> Int64 {
        try open.withLock { file in
            var status = stat()
            if let current = file, fstat(current.descriptor, &status) != 0 || status.st_nlink == 0 {
                closeDescriptor(current.descriptor)
                file = nil
            }
            if file == nil {
                let descriptor = openForAppending(url.path)
                guard descriptor >= 0 else { throw FileSystemError(path: url.path, code: errno) }
                guard fstat(descriptor, &status) == 0 else {
                    let code = errno
                    closeDescriptor(descriptor)
                    throw FileSystemError(path: url.path, code: code)
                }
                file = (descriptor, Int64(status.st_size))
            }
            guard let current = file else { throw FileSystemError(path: url.path, code: EBADF) }
            let failure = writer.appendWhole(data, to: url, descriptor: current.descriptor, durable: durable)
            guard failure == 0 else {
                // Where a failed write left the file is not known: the next append starts from a fresh look.
                closeDescriptor(current.descriptor)
                file = nil
                throw FileSystemError(path: url.path, code: failure)
            }
            let size = current.size + Int64(data.count)
            file = (current.descriptor, size)
            return size
        }
    }

    func close() {
        open.withLock { file in
            if let descriptor = file?.descriptor { closeDescriptor(descriptor) }
            file = nil
        }
    }
}

/// close(2), named apart from `FileAppending.close()`.
private func closeDescriptor(_ descriptor: Int32) {
    _ = close(descriptor)
}

/// The file at `path` opened for appends: created if missing (0644), never through a link.
private func openForAppending(_ path: String) -> Int32 {
    open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o644)
}
