// What a library folder holds that `export --library` wrote, kept in the folder itself as
// `.podarchive-library.json` (written whole, synced, renamed): each file's path in the library, the SHA-256 of the
// archived file it was made from, a fingerprint of what was put before it (the tag), and the written file's SHA-256
// and size. A rerun rewrites only what changed and removes only files it names: a file the user put there is never
// touched. It is saved before the first file is written, naming what is about to be, so a killed run's files are
// still the library's.
import Foundation

struct LibraryRecord: Codable, Equatable {
    static let fileName = ArchiveLayout.libraryRecord

    struct Written: Codable, Equatable {
        /// The show folder's name in the archive (a `--show` run touches only its shows).
        var show: String
        /// The archived file's SHA-256, as the index records it.
        var source: String?
        /// What was written before the archived bytes (the tag), by SHA-256; empty for an untagged copy.
        var tags: String
        /// The written file, once it is whole; nil while it is about to be written.
        var sha256: String?
        var size: Int64?
    }

    var version = 1
    /// By path in the library (`Show/2024-05-01 Title.mp3`).
    var files: [String: Written] = [:]

    /// The record in `folder`: empty when there is none.
    /// - Throws: `LibraryError.damagedRecord` when one is there and cannot be read.
    static func load(in folder: URL, files: any FileReading) throws -> LibraryRecord {
        let url = folder.appendingPathComponent(fileName, isDirectory: false)
        guard files.fileExists(atPath: url.path) else { return LibraryRecord() }
        guard let data = files.contents(atPath: url.path),
            let record = try? JSONDecoder().decode(LibraryRecord.self, from: data), record.version == 1
        else { throw LibraryError.damagedRecord(path: url.path) }
        return record
    }

    func save(in folder: URL, writer: any AtomicFileWriting) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        let url = folder.appendingPathComponent(Self.fileName, isDirectory: false)
        do {
            try writer.writeAtomically(try encoder.encode(self), to: url, durable: true, ownerOnly: false)
        } catch {
            throw ExportError.cannotWrite(path: url.path, reason: "\(error)")
        }
    }
}
