// Records every attribute change (the dates podarchive sets), then applies it to the fake file system.
import ArchiverCore
import Foundation

/// Records every attribute change (the dates podarchive sets, the origin URL), then applies it to a
/// `FakeFileSystem`.
public final class SpyFileAttributes: FileAttributes, Sendable {
    /// One change of a file's dates.
    public struct Change: Equatable, Sendable {
        /// The file.
        public var path: String
        /// The modification date set.
        public var modificationDate: Date?
        /// The creation date set.
        public var creationDate: Date?

        /// A change of `path`'s dates.
        public init(path: String, modificationDate: Date?, creationDate: Date?) {
            self.path = path
            self.modificationDate = modificationDate
            self.creationDate = creationDate
        }
    }

    private let origins = Locked<[String: String]>([:])

    /// The `user.xdg.origin.url` set on each path.
    public var originURLs: [String: String] { origins.current }

    private let fileSystem: FakeFileSystem
    private let recorded = Locked<[Change]>([])

    /// A spy over `fileSystem`.
    public init(fileSystem: FakeFileSystem) {
        self.fileSystem = fileSystem
    }

    /// Every change of dates, in order.
    public var changes: [Change] { recorded.current }

    /// Records the change (an extended attribute only as an origin URL), then applies dates to the file.
    public func setAttributes(_ attributes: [FileAttributeKey: Any], ofItemAtPath path: String) throws {
        if let extended = attributes[FileAttributeKey("NSFileExtendedAttributes")] as? [String: Data] {
            origins.withLock { origins in
                origins[path] = extended["user.xdg.origin.url"].map { String(decoding: $0, as: UTF8.self) }
            }
            return
        }
        let change = Change(
            path: path, modificationDate: attributes[.modificationDate] as? Date,
            creationDate: attributes[.creationDate] as? Date)
        recorded.withLock { recorded in recorded.append(change) }
        try fileSystem.setAttributes(attributes, ofItemAtPath: path)
    }

    /// The fake file system's attributes of `path`.
    public func attributesOfItem(atPath path: String) throws -> [FileAttributeKey: Any] {
        try fileSystem.attributesOfItem(atPath: path)
    }
}
