// Records every move, then performs it on the fake file system.
import ArchiverCore
import Foundation

/// Records every move, then performs it on a `FakeFileSystem`.
public final class SpyFileMovement: FileMovement, Sendable {
    /// One move, by path.
    public struct Move: Equatable, Sendable {
        /// The path moved from.
        public var from: String
        /// The path moved to.
        public var to: String

        /// A move from `from` to `to`.
        public init(from: String, to: String) {
            self.from = from
            self.to = to
        }
    }

    private let fileSystem: FakeFileSystem
    private let recorded: Locked<[Move]> = Locked([])

    /// A spy over `fileSystem`.
    public init(fileSystem: FakeFileSystem) {
        self.fileSystem = fileSystem
    }

    /// Every move, in order.
    public var moves: [Move] { recorded.current }

    /// Records the move, then performs it (failing as rename(2) would).
    public func moveItem(at srcURL: URL, to dstURL: URL) throws {
        recorded.withLock { recorded in recorded.append(Move(from: srcURL.path, to: dstURL.path)) }
        try fileSystem.moveItem(at: srcURL, to: dstURL)
    }
}
