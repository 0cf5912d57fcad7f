// Seams: the file-system effects podarchive has, each a protocol with FileManager's own signature so that
// FileManager conforms as it is. Tests inject spies and an in-memory fake.
import Foundation

/// Moves a finished download into place. `moveItem` refuses to overwrite an existing file.
public protocol FileMovement: Sendable {
    /// Renames `srcURL` to `dstURL` (one file system), throwing when `dstURL` exists.
    func moveItem(at srcURL: URL, to dstURL: URL) throws
    /// Makes `dstURL` a hard link to `srcURL` (one file system), throwing when `dstURL` exists.
    func linkItem(at srcURL: URL, to dstURL: URL) throws
    /// Makes `url` a symbolic link to `destURL`.
    func createSymbolicLink(at url: URL, withDestinationURL destURL: URL) throws
    /// Copies `srcURL` to `dstURL`, throwing when `dstURL` exists.
    func copyItem(at srcURL: URL, to dstURL: URL) throws
}

extension FileMovement {
    /// Not supported by a spy that only moves.
    public func linkItem(at srcURL: URL, to dstURL: URL) throws { throw CocoaError(.featureUnsupported) }
    /// Not supported by a spy that only moves.
    public func createSymbolicLink(at url: URL, withDestinationURL destURL: URL) throws {
        throw CocoaError(.featureUnsupported)
    }
    /// Not supported by a spy that only moves.
    public func copyItem(at srcURL: URL, to dstURL: URL) throws { throw CocoaError(.featureUnsupported) }
}

/// Reads and sets file dates and sizes.
public protocol FileAttributes: Sendable {
    /// Sets dates (and, with FileManager's extended-attributes key, xattrs) of the file at `path`.
    func setAttributes(_ attributes: [FileAttributeKey: Any], ofItemAtPath path: String) throws
    /// The attributes of the file at `path`: `.size` is what podarchive reads.
    func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any]
    /// The type and size of the item at `path`, a link not followed; nil when there is none. What most checks
    /// need, without what `attributesOfItem` makes each time on Linux (the owner's and group's names, read from
    /// /etc/passwd and /etc/group, and a listxattr).
    func typeAndSize(atPath path: String) -> (type: FileAttributeType, size: Int64)?
    /// The permission bits of the item at `path` (`0o644`), a link not followed; nil when there is none. One
    /// lstat, for the same reason as `typeAndSize`.
    func permissions(atPath path: String) -> Int?
    /// Who owns the item at `path` and who may write it, a link not followed (one lstat and one statvfs); nil
    /// when there is none. What `TrustedFiles` judges.
    func ownership(atPath path: String) -> Ownership?
    /// The path the link at `path` names, as written.
    func destinationOfSymbolicLink(atPath path: String) throws -> String
}

extension FileAttributes {
    /// From `attributesOfItem`: what a test double gets.
    public func typeAndSize(atPath path: String) -> (type: FileAttributeType, size: Int64)? {
        guard let found = try? attributesOfItem(atPath: path) else { return nil }
        return (found[.type] as? FileAttributeType ?? .typeRegular, (found[.size] as? NSNumber)?.int64Value ?? 0)
    }

    /// From `attributesOfItem`: what a test double gets.
    public func permissions(atPath path: String) -> Int? {
        ((try? attributesOfItem(atPath: path))?[.posixPermissions] as? NSNumber)?.intValue
    }

    /// From `attributesOfItem`: what a test double gets (`.ownerAccountID`, `.posixPermissions`, else 0600 for a
    /// file and 0700 for a folder; `.onReadOnlyMount`).
    public func ownership(atPath path: String) -> Ownership? {
        guard let found = try? attributesOfItem(atPath: path) else { return nil }
        let type = found[.type] as? FileAttributeType
        return Ownership(
            owner: (found[.ownerAccountID] as? NSNumber)?.uint32Value,
            mode: (found[.posixPermissions] as? NSNumber)?.intValue ?? (type == .typeDirectory ? 0o700 : 0o600),
            isLink: type == .typeSymbolicLink, onReadOnlyMount: found[.onReadOnlyMount] as? Bool ?? false)
    }

    /// A test double keeps no links.
    public func destinationOfSymbolicLink(atPath path: String) throws -> String {
        throw CocoaError(.featureUnsupported)
    }

    /// True when the item at `path` is a symbolic link.
    func isSymbolicLink(atPath path: String) -> Bool {
        typeAndSize(atPath: path)?.type == .typeSymbolicLink
    }

    /// The size of the item at `url`; nil when there is none (asked of `files` first, which may hide it).
    func size(of url: URL, in files: any FileReading) -> Int64? {
        guard files.fileExists(atPath: url.path) else { return nil }
        return typeAndSize(atPath: url.path)?.size
    }
}

/// Creates the archive's folders.
public protocol DirectoryCreation: Sendable {
    /// Creates the folder at `url`, and its parents when `createIntermediates`.
    func createDirectory(
        at url: URL, withIntermediateDirectories createIntermediates: Bool, attributes: [FileAttributeKey: Any]?
    ) throws
}

/// Reads files and folder listings: local feeds, the archive index, the names already taken.
public protocol FileReading: Sendable {
    /// The whole file at `path`, or nil when it cannot be read.
    func contents(atPath path: String) -> Data?
    /// True when a file or folder is at `path`.
    func fileExists(atPath path: String) -> Bool
    /// The names in the folder at `path`.
    func contentsOfDirectory(atPath path: String) throws -> [String]
    /// True when this process may read the file at `path`.
    func isReadableFile(atPath path: String) -> Bool
    /// At most the first `count` bytes of the file at `path` (what it is, without reading it all), or nil.
    func prefix(ofFileAtPath path: String, count: Int) -> Data?
    /// Passes the file at `path` to `body` in chunks of at most `size` bytes, never holding it whole; false when
    /// it cannot be read.
    func forEachChunk(ofFileAtPath path: String, size: Int, _ body: (Data) throws -> Void) throws -> Bool
}

extension FileReading {
    /// Reads the whole file: for stores that hold files in memory.
    public func prefix(ofFileAtPath path: String, count: Int) -> Data? {
        contents(atPath: path).map { Data($0.prefix(count)) }
    }

    /// Reads the whole file: for stores that hold files in memory.
    public func forEachChunk(ofFileAtPath path: String, size: Int, _ body: (Data) throws -> Void) throws -> Bool {
        guard let data = contents(atPath: path) else { return false }
        var start = data.startIndex
        while start < data.endIndex {
            let end = data.index(start, offsetBy: size, limitedBy: data.endIndex) ?? data.endIndex
            try body(data[start..<end])
            start = end
        }
        return true
    }
}

/// Removes leftovers: a download that failed its checks.
public protocol FileRemoval: Sendable {
    /// Removes the file at `url`.
    func removeItem(at url: URL) throws
}

/// Writes small files: atomically (a temporary file renamed over the old one), or by appending to them.
public protocol AtomicFileWriting: Sendable {
    /// - Parameters:
    ///   - durable: also fsync, so the new content survives a power cut (the index); false for records that are
    ///     only hints and are checked again when read.
    ///   - ownerOnly: create the file readable and writable by its owner only (0600) from its first byte: it
    ///     holds a secret.
    func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool) throws

    /// As `writeAtomically(_:to:durable:ownerOnly:)`, with the temporary file in the folder `staging` rather than
    /// beside `url` (on the same file system): a show's files are written through its state folder, which every
    /// run that takes the show's lock clears of what a killed process left (see `TemporaryFiles`).
    func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool, stagedIn staging: URL?) throws

    /// Appends `data` to the file at `url` (created if missing, never through a link) in one write; with
    /// `durable`, syncs it before returning. Returns the file's size after the append.
    func append(_ data: Data, to url: URL, durable: Bool) throws -> Int64

    /// Creates the file at `url` holding `data`, durably and whole, unless a file is there already (then it is
    /// left as it is and the answer is false): of two processes creating it at once, exactly one succeeds.
    func createExclusively(_ data: Data, at url: URL) throws -> Bool

    /// As `createExclusively(_:at:)`, with the temporary file in the folder `staging` (see
    /// `writeAtomically(_:to:durable:ownerOnly:stagedIn:)`).
    func createExclusively(_ data: Data, at url: URL, stagedIn staging: URL?) throws -> Bool

    /// The file at `url` for appends, each as `append(_:to:durable:)` makes it, kept open between them where the
    /// writer can (a log, a journal appended to many times in a run). Closed by `close()`.
    func appender(for url: URL) -> any FileAppending

    /// Copies the file at `source` (never through a link) to `url`, durably and whole, replacing what is there:
    /// a temporary file in `url`'s folder, fsynced, given the source's modification date, renamed to `url`, the
    /// folder fsynced. For files of any size (read in chunks), across file systems (`offload --into`).
    func copyDurably(_ source: URL, to url: URL) throws
}

extension AtomicFileWriting {
    /// Not supported by a writer that only writes small files.
    public func copyDurably(_ source: URL, to url: URL) throws { throw CocoaError(.featureUnsupported) }
}

/// A file appended to many times (see `AtomicFileWriting.appender(for:)`): each append is one write, as
/// `AtomicFileWriting.append` makes it, and a file removed meanwhile is created again, never written unlinked.
public protocol FileAppending: Sendable {
    /// Appends `data` in one write; with `durable`, syncs it before returning. Returns the file's size after it.
    func append(_ data: Data, durable: Bool) throws -> Int64
    /// Lets the file go (the next append opens it again).
    func close()
}

/// The appender of a writer that keeps nothing open: each append is its `append(_:to:durable:)`.
struct ReopeningAppender: FileAppending {
    let writer: any AtomicFileWriting
    let url: URL

    func append(_ data: Data, durable: Bool) throws -> Int64 { try writer.append(data, to: url, durable: durable) }
    func close() {}
}

extension AtomicFileWriting {
    /// An appender that opens the file for each append.
    public func appender(for url: URL) -> any FileAppending { ReopeningAppender(writer: self, url: url) }

    /// An atomic write of a file anyone may read (0644, less the umask).
    public func writeAtomically(_ data: Data, to url: URL, durable: Bool) throws {
        try writeAtomically(data, to: url, durable: durable, ownerOnly: false)
    }

    /// A durable atomic write.
    public func writeAtomically(_ data: Data, to url: URL) throws {
        try writeAtomically(data, to: url, durable: true)
    }

    /// A store that makes no temporary file (one in memory) writes as it would without `staging`.
    public func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool, stagedIn staging: URL?)
        throws
    {
        try writeAtomically(data, to: url, durable: durable, ownerOnly: ownerOnly)
    }

    /// An atomic write of a file anyone may read, its temporary file in `staging`.
    public func writeAtomically(_ data: Data, to url: URL, durable: Bool, stagedIn staging: URL?) throws {
        try writeAtomically(data, to: url, durable: durable, ownerOnly: false, stagedIn: staging)
    }

    /// A store that makes no temporary file creates as it would without `staging`.
    public func createExclusively(_ data: Data, at url: URL, stagedIn staging: URL?) throws -> Bool {
        try createExclusively(data, at: url)
    }
}

/// Free space and other facts about the file system holding a path.
public protocol FileSystemAttributes: Sendable {
    /// Facts about the file system holding `path`: `.systemFreeSize` is what podarchive reads.
    func attributesOfFileSystem(forPath path: String) throws -> [FileAttributeKey: Any]
}

extension FileManager: FileMovement {}
extension FileManager: FileAttributes {
    /// One lstat(2).
    public func typeAndSize(atPath path: String) -> (type: FileAttributeType, size: Int64)? {
        guard let status = Self.linkStatus(path) else { return nil }
        let type: FileAttributeType =
            switch status.st_mode & S_IFMT {
            case S_IFREG: .typeRegular
            case S_IFDIR: .typeDirectory
            case S_IFLNK: .typeSymbolicLink
            case S_IFCHR: .typeCharacterSpecial
            case S_IFBLK: .typeBlockSpecial
            case S_IFSOCK: .typeSocket
            default: .typeUnknown
            }
        return (type, Int64(status.st_size))
    }

    /// One lstat(2).
    public func permissions(atPath path: String) -> Int? {
        Self.linkStatus(path).map { Int($0.st_mode & 0o7777) }
    }

    /// One lstat(2) and one statvfs(2).
    public func ownership(atPath path: String) -> Ownership? {
        guard let status = Self.linkStatus(path) else { return nil }
        var system = statvfs()
        let readOnly = statvfs(path, &system) == 0 && system.f_flag & UInt(ST_RDONLY) != 0
        return Ownership(
            owner: UInt32(status.st_uid), mode: Int(status.st_mode & 0o7777),
            isLink: status.st_mode & S_IFMT == S_IFLNK, onReadOnlyMount: readOnly)
    }

    /// What lstat(2) says of `path`, a link not followed; nil when there is nothing there.
    private static func linkStatus(_ path: String) -> stat? {
        var status = stat()
        return lstat(path, &status) == 0 ? status : nil
    }
}
extension FileManager: DirectoryCreation {}
extension FileManager: FileReading {
    /// Reads only the first `count` bytes.
    public func prefix(ofFileAtPath path: String, count: Int) -> Data? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        return try? handle.read(upToCount: count) ?? Data()
    }

    /// Reads `size` bytes at a time.
    public func forEachChunk(ofFileAtPath path: String, size: Int, _ body: (Data) throws -> Void) throws -> Bool {
        try FileChunks.forEach(ofFileAtPath: path, size: size, body)
    }
}

/// A file read a chunk at a time.
enum FileChunks {
    /// Passes the file at `path` to `body` `size` bytes at a time; false when it cannot be opened or read.
    static func forEach(ofFileAtPath path: String, size: Int, _ body: (Data) throws -> Void) rethrows -> Bool {
        guard let handle = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? handle.close() }
        while true {
            // nil, or empty, at the end of the file; a read that fails throws.
            let chunk: Data?
            do { chunk = try handle.read(upToCount: size) } catch { return false }
            guard let chunk, !chunk.isEmpty else { return true }
            try body(chunk)
        }
    }
}
extension FileManager: FileRemoval {}

extension FileManager: FileSystemAttributes {}

/// The file-system seams FileManager provides as it is.
public typealias FileStore = FileReading & DirectoryCreation & FileRemoval & FileSystemAttributes

/// Every file-system seam the archiver uses, so one test double can stand for all of them.
public typealias ArchiveFileSystem = FileMovement & FileAttributes & FileStore & AtomicFileWriting & FileLocking
    & FileHashing

/// Size, SHA-256 and first bytes of a file on disk.
public struct FileDigest: Sendable, Equatable {
    /// The file's size in bytes.
    public var size: Int64
    /// Hex SHA-256 of the whole file.
    public var digest: String
    /// The first bytes of the file (up to 512).
    public var leading: Data

    /// A digest as computed.
    public init(size: Int64, digest: String, leading: Data) {
        self.size = size
        self.digest = digest
        self.leading = leading
    }
}

/// A lock held until `unlock()` or until the process ends (the kernel drops flock locks of dead processes).
public protocol HeldLock: AnyObject, Sendable {
    /// Releases the lock; calling it again does nothing.
    func unlock()
    /// Writes `note` (one line, no newline) into the lock file after the holder's PID, in place: what the holder
    /// last did (a show's last sync) kept without a new file, a rename or a sync. A hint: a crash mid-write leaves
    /// a note that no longer decodes, and the reader falls back on what it knew before.
    func keep(_ note: Data)
}

/// Exclusive locks on files, so two syncs of one feed never run at once.
public protocol FileLocking: Sendable {
    /// Takes an exclusive lock on the file at `url` (creating it), or returns nil when another process holds it.
    func tryLock(_ url: URL) throws -> (any HeldLock)?
    /// Takes an exclusive lock on the file at `url` as it is, opened for reading only (never created, nothing
    /// written to it): for a reader where the archive cannot be written. Nil when another process holds it;
    /// throws when there is no such file, or the file system cannot lock a file opened so.
    func tryLockForReading(_ url: URL) throws -> (any HeldLock)?
    /// The process ID the current holder wrote into the lock file, if any.
    func lockHolder(_ url: URL) -> Int32?
    /// The note the last holder kept in the lock file at `url` (see `HeldLock.keep`), if any; read without the lock.
    func note(in url: URL) -> Data?
}

/// Hashes files already on disk, reading them in chunks (never whole into memory).
public protocol FileHashing: Sendable {
    /// Size, SHA-256 and first bytes of the file at `path`; throws `FileSystemError` when it cannot be read.
    func sha256(ofFileAtPath path: String) throws -> FileDigest
}
