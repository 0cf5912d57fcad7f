// Records every move, then performs it on the fake file system.
import ArchiverCore
import Foundation

final class SpyFileMovement: FileMovement, @unchecked Sendable {
    struct Move: Equatable {
        var from: String
        var to: String
    }

    private let fileSystem: FakeFileSystem
    private let lock = NSLock()
    private var recorded: [Move] = []

    init(fileSystem: FakeFileSystem) {
        self.fileSystem = fileSystem
    }

    var moves: [Move] { lock.withLock { recorded } }

    func moveItem(at srcURL: URL, to dstURL: URL) throws {
        lock.withLock { recorded.append(Move(from: srcURL.path, to: dstURL.path)) }
        try fileSystem.moveItem(at: srcURL, to: dstURL)
    }
}
