// The one way a saved record is read and written: JSON through `JSONEncoder.records` (compact, keys sorted), written
// through the injected `AtomicFileWriting` as the record's durability says, read through the injected file store.
// (Measured hot, and so written by hand, stay apart: the index and its journal, `IndexFormat`/`IndexJournal`; the
// download log, `DownloadLog`.)
import Foundation

extension RecordFile where Record: Decodable {
    /// The record; nil when there is none or it does not decode (a record is checked again when read: a damaged
    /// one is as good as none).
    func load(_ files: any FileReading) -> Record? {
        if case .record(let record) = read(files) { return record }
        return nil
    }

    /// What the file holds, for a reader that tells a missing record from a damaged one.
    func read(_ files: any FileReading) -> RecordReading<Record> {
        guard let data = files.contents(atPath: url.path) else { return .none }
        guard let record = try? JSONDecoder().decode(Record.self, from: data) else { return .damaged }
        return .record(record)
    }
}

/// What a record file holds (see `RecordFile.read`).
enum RecordReading<Record> {
    /// No file, or one that cannot be read.
    case none
    /// A file that does not decode as the record.
    case damaged
    case record(Record)
}

extension RecordFile where Record: Encodable {
    /// Writes `record` atomically, fsynced when the record's durability (or `durability`, when given) asks.
    /// - Throws: `ArchiveError.storage` naming the file.
    func save(_ record: Record, _ writer: any AtomicFileWriting, as durability: RecordDurability? = nil) throws {
        do {
            try writer.writeAtomically(
                try JSONEncoder.records.encode(record), to: url, durable: (durability ?? self.durability) == .intent,
                ownerOnly: ownerOnly)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }

    /// Writes `record` only if no record is there (durably, through a temporary file linked into place): false when
    /// one was. Errors are the writer's own.
    func create(_ record: Record, _ writer: any AtomicFileWriting) throws -> Bool {
        try writer.createExclusively(try JSONEncoder.records.encode(record), at: url)
    }
}

extension RecordFile {
    /// Whether the record's file is there.
    func exists(_ files: any FileReading) -> Bool { files.fileExists(atPath: url.path) }

    /// Removes the record's file; one already gone is removed all the same.
    /// - Throws: `ArchiveError.storage` when it cannot be removed and is still there.
    func remove(_ files: any FileStore) throws {
        do {
            try files.removeItem(at: url)
        } catch {
            if files.fileExists(atPath: url.path) { throw ArchiveError.storage(error, path: url.path) }
        }
    }
}

extension ShowState {
    /// Whether the folder is a show's: its state folder holds an index (the one answer every command gives).
    func isShow(_ files: any FileReading) -> Bool { files.fileExists(atPath: index.path) }
}
