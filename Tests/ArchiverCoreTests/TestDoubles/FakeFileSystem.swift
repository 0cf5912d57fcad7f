// A working in-memory file system: files, folders, attributes, atomic writes and no-overwrite moves.
import ArchiverCore
import Foundation

final class FakeFileSystem: ArchiveFileSystem, @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String: Data] = [:]
    private var folders: Set<String> = ["/"]
    private var attributes: [String: [FileAttributeKey: Any]] = [:]
    private(set) var atomicWrites: [String] = []
    /// Paths whose writes fail, to simulate an unwritable folder.
    var failingWrites: Set<String> = []
    /// What `attributesOfFileSystem` reports as free.
    var freeSpace: Int64 = 1 << 40
    private var heldLocks: [String: Int32] = [:]

    init(files: [String: Data] = [:]) {
        for (path, data) in files { put(path, data) }
    }

    // MARK: - Inspection

    func put(_ path: String, _ data: Data) {
        lock.withLock {
            files[path] = data
            addParents(of: path)
        }
    }

    func file(_ path: String) -> Data? { lock.withLock { files[path] } }

    /// Every file path, sorted.
    var allFiles: [String] { lock.withLock { files.keys.sorted() } }

    /// The files a user sees: everything but podarchive's `.podarchive` state folders.
    var visibleFiles: [String] { allFiles.filter { !$0.contains("/.podarchive/") } }

    // MARK: - Seams

    func contents(atPath path: String) -> Data? { file(path) }

    func fileExists(atPath path: String) -> Bool {
        lock.withLock { files[path] != nil || folders.contains(path) }
    }

    func contentsOfDirectory(atPath path: String) throws -> [String] {
        try lock.withLock {
            guard folders.contains(path) else { throw CocoaError(.fileReadNoSuchFile) }
            let prefix = path.hasSuffix("/") ? path : path + "/"
            let children = (Array(files.keys) + Array(folders)).filter { $0.hasPrefix(prefix) && $0 != prefix }
                .map { String($0.dropFirst(prefix.count).split(separator: "/")[0]) }
            return Array(Set(children)).sorted()
        }
    }

    func createDirectory(
        at url: URL, withIntermediateDirectories createIntermediates: Bool, attributes: [FileAttributeKey: Any]?
    ) throws {
        lock.withLock {
            folders.insert(url.path)
            addParents(of: url.path)
        }
    }

    func removeItem(at url: URL) throws {
        try lock.withLock {
            guard files.removeValue(forKey: url.path) != nil else { throw CocoaError(.fileNoSuchFile) }
        }
    }

    func writeAtomically(_ data: Data, to url: URL, durable: Bool) throws {
        try lock.withLock {
            guard !failingWrites.contains(url.path) else { throw CocoaError(.fileWriteNoPermission) }
            guard folders.contains(url.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            files[url.path] = data
            atomicWrites.append(url.path)
        }
    }

    func moveItem(at srcURL: URL, to dstURL: URL) throws {
        try lock.withLock {
            guard files[dstURL.path] == nil, !folders.contains(dstURL.path) else {
                throw CocoaError(.fileWriteFileExists)
            }
            // rename(2) does not create folders.
            guard folders.contains(dstURL.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            guard let data = files.removeValue(forKey: srcURL.path) else { throw CocoaError(.fileNoSuchFile) }
            files[dstURL.path] = data
        }
    }

    func setAttributes(_ attributes: [FileAttributeKey: Any], ofItemAtPath path: String) throws {
        try lock.withLock {
            guard files[path] != nil else { throw CocoaError(.fileNoSuchFile) }
            self.attributes[path, default: [:]].merge(attributes) { _, new in new }
        }
    }

    func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        try lock.withLock {
            guard let data = files[path] else { throw CocoaError(.fileNoSuchFile) }
            return (attributes[path] ?? [:]).merging([.size: data.count]) { old, _ in old }
        }
    }

    func attributesOfFileSystem(forPath path: String) throws -> [FileAttributeKey: Any] {
        lock.withLock { [.systemFreeSize: NSNumber(value: freeSpace)] }
    }

    // MARK: - Locks and hashes

    /// Locks as another process would hold them: `tryLock` fails while `holdLock` holds one.
    func holdLock(_ path: String, by pid: Int32) {
        lock.withLock { heldLocks[path] = pid }
    }

    func releaseLock(_ path: String) {
        _ = lock.withLock { heldLocks.removeValue(forKey: path) }
    }

    func tryLock(_ url: URL) throws -> (any HeldLock)? {
        try lock.withLock {
            guard folders.contains(url.deletingLastPathComponent().path) else { throw CocoaError(.fileNoSuchFile) }
            guard heldLocks[url.path] == nil else { return nil }
            heldLocks[url.path] = 0
            return FakeLock { [weak self] in self?.releaseLock(url.path) }
        }
    }

    func lockHolder(_ url: URL) -> Int32? {
        lock.withLock { heldLocks[url.path] }
    }

    func sha256(ofFileAtPath path: String) throws -> FileDigest {
        guard let data = file(path) else { throw CocoaError(.fileReadNoSuchFile) }
        return FileDigest(size: Int64(data.count), digest: SHA256.hex(data), leading: data.prefix(512))
    }

    private func addParents(of path: String) {
        var url = URL(fileURLWithPath: path).deletingLastPathComponent()
        while url.path != "/" {
            folders.insert(url.path)
            url = url.deletingLastPathComponent()
        }
    }
}

final class FakeLock: HeldLock, @unchecked Sendable {
    private var release: (() -> Void)?

    init(release: @escaping () -> Void) {
        self.release = release
    }

    func unlock() {
        release?()
        release = nil
    }
}
