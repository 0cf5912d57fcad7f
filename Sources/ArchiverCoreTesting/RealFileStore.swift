// The real file system for a test double that changes one call of it (a disk that fills up, reads counted): the
// double conforms, implements that call, and every other goes to FileManager as the live archiver's would.
import ArchiverCore
import Foundation

/// A `FileStore` whose calls go to `FileManager.default` unless the conforming double implements them itself.
public protocol RealFileStore: FileStore {}

extension RealFileStore {
    /// `FileManager.default`'s.
    public func contents(atPath path: String) -> Data? { FileManager.default.contents(atPath: path) }
    /// `FileManager.default`'s.
    public func fileExists(atPath path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
    /// `FileManager.default`'s.
    public func contentsOfDirectory(atPath path: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path)
    }
    /// `FileManager.default`'s.
    public func isReadableFile(atPath path: String) -> Bool { FileManager.default.isReadableFile(atPath: path) }
    /// `FileManager.default`'s (the first `count` bytes only).
    public func prefix(ofFileAtPath path: String, count: Int) -> Data? {
        FileManager.default.prefix(ofFileAtPath: path, count: count)
    }
    /// `FileManager.default`'s (a chunk at a time).
    public func forEachChunk(ofFileAtPath path: String, size: Int, _ body: (Data) throws -> Void) throws -> Bool {
        try FileManager.default.forEachChunk(ofFileAtPath: path, size: size, body)
    }
    /// `FileManager.default`'s.
    public func createDirectory(
        at url: URL, withIntermediateDirectories createIntermediates: Bool, attributes: [FileAttributeKey: Any]?
    ) throws {
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: createIntermediates, attributes: attributes)
    }
    /// `FileManager.default`'s.
    public func removeItem(at url: URL) throws { try FileManager.default.removeItem(at: url) }
    /// `FileManager.default`'s.
    public func attributesOfFileSystem(forPath path: String) throws -> [FileAttributeKey: Any] {
        try FileManager.default.attributesOfFileSystem(forPath: path)
    }
}
