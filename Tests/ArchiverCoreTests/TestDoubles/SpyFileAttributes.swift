// Records every attribute change (the dates podarchive sets), then applies it to the fake file system.
import ArchiverCore
import Foundation

final class SpyFileAttributes: FileAttributes, @unchecked Sendable {
    struct Change: Equatable {
        var path: String
        var modificationDate: Date?
        var creationDate: Date?
    }

    private var origins: [String: String] = [:]

    /// The `user.xdg.origin.url` set on each path.
    var originURLs: [String: String] { lock.withLock { origins } }

    private let fileSystem: FakeFileSystem
    private let lock = NSLock()
    private var recorded: [Change] = []

    init(fileSystem: FakeFileSystem) {
        self.fileSystem = fileSystem
    }

    var changes: [Change] { lock.withLock { recorded } }

    func setAttributes(_ attributes: [FileAttributeKey: Any], ofItemAtPath path: String) throws {
        if let extended = attributes[FileAttributeKey("NSFileExtendedAttributes")] as? [String: Data] {
            lock.withLock {
                origins[path] = extended["user.xdg.origin.url"].map { String(decoding: $0, as: UTF8.self) }
            }
            return
        }
        let change = Change(
            path: path, modificationDate: attributes[.modificationDate] as? Date,
            creationDate: attributes[.creationDate] as? Date)
        lock.withLock { recorded.append(change) }
        try fileSystem.setAttributes(attributes, ofItemAtPath: path)
    }

    func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        try fileSystem.attributesOfItem(atPath: path)
    }
}
