// How an export reads the archive's files: in chunks of a fixed size, never a whole file, so memory stays the same
// for a 10 GB show as for a small one. A seam, so a test can see every read an export makes.
import Foundation

#if canImport(Glibc)
    import Glibc
    private let systemRead = Glibc.read
    private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { Glibc.open(path, flags) }
#elseif canImport(Darwin)
    import Darwin
    private let systemRead = Darwin.read
    private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { Darwin.open(path, flags) }
#endif

/// Opens files for reading chunk by chunk.
public protocol ChunkedFileReading: Sendable {
    /// The file at `path`, open for reading from its start.
    /// - Throws: `FileSystemError` when it cannot be opened.
    func open(_ path: String) throws -> any ChunkedFile
}

/// One open file, read in order: by one thread at a time (an export's reader hands it to its writer).
public protocol ChunkedFile: AnyObject, Sendable {
    /// Reads the next bytes into `buffer`: how many (0 at the end).
    /// - Throws: `FileSystemError` when the read fails.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Goes back to the start: the same file is read again, even if another has been renamed over its name since.
    /// - Throws: `FileSystemError` when it cannot.
    func rewind() throws
}

/// The live reader: open(2) and read(2).
struct POSIXChunkedFileReader: ChunkedFileReading {
    /// The live reader.
    public init() {}

    /// `path`, opened with open(2).
    public func open(_ path: String) throws -> any ChunkedFile {
        let descriptor = systemOpen(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileSystemError(path: path, code: errno) }
        return OpenFile(descriptor: descriptor, path: path)
    }

    private final class OpenFile: ChunkedFile {
        let descriptor: Int32
        let path: String

        init(descriptor: Int32, path: String) {
            self.descriptor = descriptor
            self.path = path
        }

        deinit { close(descriptor) }

        func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
            while true {
                let count = systemRead(descriptor, buffer.baseAddress, buffer.count)
                if count >= 0 { return count }
                if errno != EINTR { throw FileSystemError(path: path, code: errno) }
            }
        }

        func rewind() throws {
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw FileSystemError(path: path, code: errno) }
        }
    }
}
