// A working in-memory file system: files, folders, attributes, atomic writes and no-overwrite moves.
import ArchiverCore
import Foundation

/// A working in-memory file system with every seam the archiver uses.
public final class FakeFileSystem: ArchiveFileSystem, @unchecked Sendable {
    // Safe to share: every stored property is read and written only under `lock` (the public ones are views of
    // them). Not a `Locked` value: attributes are `[FileAttributeKey: Any]`, which is not Sendable.
    private let lock = NSLock()
    private var files: [String: Data] = [:]
    private var folders: Set<String> = ["/"]
    private var attributes: [String: [FileAttributeKey: Any]] = [:]
    private var written: [String] = []
    private var appended: [String] = []
    private var failing: Set<String> = []
    private var free: Int64 = 1 << 40
    private var size: Int64?
    private var refusedForSpace = 0
    private var hidden: Set<String> = []

    /// Every path written atomically, in order.
    public var atomicWrites: [String] { lock.withLock { written } }
    /// Every path appended to, in order.
    public var appends: [String] { lock.withLock { appended } }
    /// Paths whose writes (and moves to them) fail, to simulate an unwritable folder.
    public var failingWrites: Set<String> {
        get { lock.withLock { failing } }
        set { lock.withLock { failing = newValue } }
    }
    /// What `attributesOfFileSystem` reports as free (unless `capacity` is set).
    public var freeSpace: Int64 {
        get { lock.withLock { free } }
        set { lock.withLock { free = newValue } }
    }
    /// A disk of this many bytes: free space is what the files leave, and a write that does not fit fails as a
    /// full disk would (counted in `outOfSpaceWrites`).
    public var capacity: Int64? {
        get { lock.withLock { size } }
        set { lock.withLock { size = newValue } }
    }
    /// Writes refused because the disk was full.
    public var outOfSpaceWrites: Int { lock.withLock { refusedForSpace } }
    /// Paths this process may not read (`isReadableFile` says so; `contents` returns nil).
    public var unreadable: Set<String> {
        get { lock.withLock { hidden } }
        set { lock.withLock { hidden = newValue } }
    }
    private var heldLocks: [String: Int32] = [:]
    /// Lock files `tryLock` made (kept apart from `files`, whose listings the tests compare).
    private var lockFiles: Set<String> = []
    private var refusing: [String: Int32] = [:]

    /// Folders whose contents cannot be changed, as on a read-only mount (`EROFS`) or for a user who may not write
    /// them (`EACCES`): every write, append, creation, move, removal, attribute change and lock there fails with
    /// that code (a `FileSystemError`), as the live file system's calls do; reading works, and a lock file made
    /// earlier can still be locked for reading (`tryLockForReading`).
    public var unwritable: [String: Int32] {
        get { lock.withLock { refusing } }
        set { lock.withLock { refusing = newValue } }
    }

    /// The refusal of a change at `path` (called locked).
    private func refusal(_ path: String) -> FileSystemError? {
        for (folder, code) in refusing where path == folder || path.hasPrefix(folder + "/") {
            return FileSystemError(path: path, code: code)
        }
        return nil
    }

    /// A file system holding `files` (by path), and the folders above them.
    public init(files: [String: Data] = [:]) {
        for (path, data) in files { put(path, data) }
    }

    // MARK: - Inspection

    /// Puts a file at `path`, creating the folders above it.
    public func put(_ path: String, _ data: Data) {
        lock.withLock {
            files[path] = data
            addParents(of: path)
        }
    }

    /// The file at `path`.
    public func file(_ path: String) -> Data? { lock.withLock { files[path] } }

    /// Every file path, sorted.
    public var allFiles: [String] { lock.withLock { files.keys.sorted() } }

    /// The files a user sees: everything but podarchive's `.podarchive` state folders.
    public var visibleFiles: [String] { allFiles.filter { !$0.contains("/\(ArchiveLayout.stateFolderName)/") } }

    // MARK: - Seams

    /// The file at `path`, unless it is unreadable.
    public func contents(atPath path: String) -> Data? {
        lock.withLock { hidden.contains(path) ? nil : files[path] }
    }

    /// False for paths in `unreadable` and for what does not exist.
    public func isReadableFile(atPath path: String) -> Bool {
        lock.withLock { !hidden.contains(path) && (files[path] != nil || folders.contains(path)) }
    }

    /// A file or a folder at `path`.
    public func fileExists(atPath path: String) -> Bool {
        lock.withLock { files[path] != nil || folders.contains(path) }
    }

    /// The names directly in the folder at `path`, sorted.
    public func contentsOfDirectory(atPath path: String) throws -> [String] {
        try lock.withLock {
            guard folders.contains(path) else { throw CocoaError(.fileReadNoSuchFile) }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            let children = (Array(files.keys) + Array(folders)).filter { $0.hasPrefix(prefix) && $0 != prefix }
                .map { String($0.dropFirst(prefix.count).split(separator: "/")[0]) }
            return Array(Set(children)).sorted()
        }
    }

    /// Creates the folder and those above it.
    public func createDirectory(
        at url: URL, withIntermediateDirectories createIntermediates: Bool, attributes: [FileAttributeKey: Any]?
    ) throws {
        try lock.withLock {
            if !folders.contains(url.path), let refused = refusal(url.path) { throw refused }
            if !folders.contains(url.path), let attributes { self.attributes[url.path] = attributes }
            folders.insert(url.path)
            addParents(of: url.path)
        }
    }

    /// Removes a file (not a folder).
    public func removeItem(at url: URL) throws {
        try lock.withLock {
            if let refused = refusal(url.path) { throw refused }
            guard files.removeValue(forKey: url.path) != nil else { throw CocoaError(.fileNoSuchFile) }
        }
    }

    /// Writes `data` at once, into an existing folder, unless the path is in `failingWrites`.
    public func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool) throws {
        try lock.withLock {
            if let refused = refusal(url.path) { throw refused }
            guard !failing.contains(url.path) else { throw CocoaError(.fileWriteNoPermission) }
            guard folders.contains(url.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            if let size, usedBytes - Int64(files[url.path]?.count ?? 0) + Int64(data.count) > size {
                refusedForSpace += 1
                throw CocoaError(.fileWriteOutOfSpace)
            }
            files[url.path] = data
            written.append(url.path)
            attributes[url.path, default: [:]][.posixPermissions] = ownerOnly ? 0o600 : 0o644
        }
    }

    /// Appends `data` to the file (created if missing), into an existing folder, unless the path is in
    /// `failingWrites` or the disk is full.
    public func append(_ data: Data, to url: URL, durable: Bool) throws -> Int64 {
        try lock.withLock {
            if let refused = refusal(url.path) { throw refused }
            guard !failing.contains(url.path) else { throw CocoaError(.fileWriteNoPermission) }
            guard folders.contains(url.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            if let size, usedBytes + Int64(data.count) > size {
                refusedForSpace += 1
                throw CocoaError(.fileWriteOutOfSpace)
            }
            files[url.path, default: Data()].append(data)
            appended.append(url.path)
            return Int64(files[url.path]!.count)
        }
    }

    /// Creates the file unless one is there, into an existing folder.
    public func createExclusively(_ data: Data, at url: URL) throws -> Bool {
        try lock.withLock {
            if let refused = refusal(url.path) { throw refused }
            guard !failing.contains(url.path) else { throw CocoaError(.fileWriteNoPermission) }
            guard folders.contains(url.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            guard files[url.path] == nil else { return false }
            files[url.path] = data
            written.append(url.path)
            return true
        }
    }

    /// A hard link: in memory, a copy (nothing here changes a file in place).
    public func linkItem(at srcURL: URL, to dstURL: URL) throws {
        try copyItem(at: srcURL, to: dstURL)
    }

    /// A symbolic link: in memory, a copy.
    public func createSymbolicLink(at url: URL, withDestinationURL destURL: URL) throws {
        try copyItem(at: destURL, to: url)
    }

    /// Copies a file, never over another, and only into an existing folder.
    public func copyItem(at srcURL: URL, to dstURL: URL) throws {
        try lock.withLock {
            if let refused = refusal(dstURL.path) { throw refused }
            guard files[dstURL.path] == nil, !folders.contains(dstURL.path) else {
                throw CocoaError(.fileWriteFileExists)
            }
            guard folders.contains(dstURL.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            guard let data = files[srcURL.path] else { throw CocoaError(.fileNoSuchFile) }
            files[dstURL.path] = data
        }
    }

    /// Moves a file, never over another file or folder, and only into an existing folder (as rename(2)); a move to
    /// a path in `failingWrites` fails.
    public func moveItem(at srcURL: URL, to dstURL: URL) throws {
        try lock.withLock {
            if let refused = refusal(srcURL.path) ?? refusal(dstURL.path) { throw refused }
            guard !failing.contains(dstURL.path) else { throw CocoaError(.fileWriteNoPermission) }
            guard files[dstURL.path] == nil, !folders.contains(dstURL.path) else {
                throw CocoaError(.fileWriteFileExists)
            }
            // rename(2) does not create folders.
            guard folders.contains(dstURL.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            guard let data = files.removeValue(forKey: srcURL.path) else { throw CocoaError(.fileNoSuchFile) }
            files[dstURL.path] = data
        }
    }

    /// Merges `attributes` into the file's or folder's.
    public func setAttributes(_ attributes: [FileAttributeKey: Any], ofItemAtPath path: String) throws {
        try lock.withLock {
            if let refused = refusal(path) { throw refused }
            guard files[path] != nil || folders.contains(path) else { throw CocoaError(.fileNoSuchFile) }
            self.attributes[path, default: [:]].merge(attributes) { _, new in new }
        }
    }

    /// The file's attributes, with its size; a folder's, with its type.
    public func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        try lock.withLock {
            if folders.contains(path) {
                return (attributes[path] ?? [:]).merging([.type: FileAttributeType.typeDirectory]) { old, _ in old }
            }
            guard let data = files[path] else { throw CocoaError(.fileNoSuchFile) }
            return (attributes[path] ?? [:]).merging([.size: data.count]) { old, _ in old }
        }
    }

    /// `freeSpace` as the free size.
    public func attributesOfFileSystem(forPath path: String) throws -> [FileAttributeKey: Any] {
        lock.withLock { [.systemFreeSize: NSNumber(value: size.map { $0 - usedBytes } ?? free)] }
    }

    // MARK: - Locks and hashes

    /// Locks as another process would hold them: `tryLock` fails while `holdLock` holds one.
    /// Holds the lock at `path` as process `pid` would.
    public func holdLock(_ path: String, by pid: Int32) {
        lock.withLock { heldLocks[path] = pid }
    }

    /// Releases the lock at `path`.
    public func releaseLock(_ path: String) {
        _ = lock.withLock { heldLocks.removeValue(forKey: path) }
    }

    /// Takes the lock unless another holder has it (its lock file made, unless the folder cannot be changed).
    public func tryLock(_ url: URL) throws -> (any HeldLock)? {
        try lock.withLock {
            guard folders.contains(url.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            if let refused = refusal(url.path) { throw refused }
            lockFiles.insert(url.path)
            return takeLock(url)
        }
    }

    /// Takes the lock on a lock file made earlier, unless another holder has it; as the live locker does, even
    /// where the folder cannot be changed.
    public func tryLockForReading(_ url: URL) throws -> (any HeldLock)? {
        try lock.withLock {
            guard lockFiles.contains(url.path) else { throw FileSystemError(path: url.path, code: ENOENT) }
            return takeLock(url)
        }
    }

    /// The lock at `url` as this process holds it, or nil when another has it (called locked).
    private func takeLock(_ url: URL) -> (any HeldLock)? {
        guard heldLocks[url.path] == nil else { return nil }
        heldLocks[url.path] = 0
        return FakeLock(
            keep: { [weak self] note in self?.keepNote(note, at: url.path) },
            release: { [weak self] in self?.releaseLock(url.path) })
    }

    /// Notes kept in lock files, by path (in place: neither an atomic write nor an append).
    private var notes: [String: Data] = [:]

    private func keepNote(_ note: Data, at path: String) {
        lock.withLock { notes[path] = note }
    }

    /// The note the last holder kept in the lock file at `url`.
    public func note(in url: URL) -> Data? {
        lock.withLock { notes[url.path] }
    }

    /// The process holding the lock.
    public func lockHolder(_ url: URL) -> Int32? {
        lock.withLock { heldLocks[url.path] }
    }

    /// The file's size, SHA-256 and first bytes.
    public func sha256(ofFileAtPath path: String) throws -> FileDigest {
        guard let data = file(path) else { throw CocoaError(.fileReadNoSuchFile) }
        return FileDigest(size: Int64(data.count), digest: SHA256.hex(data), leading: data.prefix(512))
    }

    /// Bytes held by every file (called locked).
    private var usedBytes: Int64 { files.values.reduce(Int64(0)) { $0 + Int64($1.count) } }

    private func addParents(of path: String) {
        var url = URL(fileURLWithPath: path).deletingLastPathComponent()
        while url.path != "/" {
            folders.insert(url.path)
            url = url.deletingLastPathComponent()
        }
    }
}

/// A lock of the fake file system; `unlock` releases it once.
public final class FakeLock: HeldLock, Sendable {
    private let release: Locked<(@Sendable () -> Void)?>
    private let keeping: @Sendable (Data) -> Void

    /// A lock released by calling `release`, whose notes go to `keep`.
    public init(keep: @escaping @Sendable (Data) -> Void = { _ in }, release: @escaping @Sendable () -> Void) {
        self.keeping = keep
        self.release = Locked(release)
    }

    /// Hands the note to `keep` (while held).
    public func keep(_ note: Data) {
        if release.current != nil { keeping(note) }
    }

    /// Releases the lock (once).
    public func unlock() {
        let once = release.withLock { release in
            defer { release = nil }
            return release
        }
        once?()
    }
}
