// The small records beside a show's index: the feed's validators, companions that failed, and the record of each
// download in progress. Each is a hint checked again when read: losing one costs a download, never a file.
import Foundation

/// Reads and writes a show's small records, and drops a download's hidden files.
struct ShowRecords: Sendable {
    let files: any FileStore
    let writer: any AtomicFileWriting

    /// The record at `url`; nil when there is none or it does not decode.
    func load<Record: Decodable>(_ url: URL) -> Record? {
        files.contents(atPath: url.path).flatMap { try? JSONDecoder().decode(Record.self, from: $0) }
    }

    /// Records (the registry, validators) are rewritten atomically but not fsynced: each is a
    /// hint that is checked again when read, so losing one to a power cut costs a download, never a file.
    func save<Record: Encodable>(_ record: Record, to url: URL, ownerOnly: Bool = false) throws {
        do {
            try writer.writeAtomically(
                try JSONEncoder.records.encode(record), to: url, durable: false, ownerOnly: ownerOnly)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }

    /// A download record is a log of one-line JSON records, each appended (no temporary file, no rename, no sync:
    /// two writes per episode, with no inode freed for either); the last whole line is the record. Killed mid-append,
    /// the torn line is ignored and the record reads as it was before that write. Each line also starts with a
    /// newline, so one appended after a torn line is a line of its own.
    func saveDownloadRecord(_ record: PartialRecord, to url: URL) throws {
        do {
            var line = Data([UInt8(ascii: "\n")])
            line.append(try JSONEncoder.records.encode(record))
            line.append(UInt8(ascii: "\n"))
            // An episode tried again over many attempts and nights appends a line each time: past a few, the
            // record is replaced whole by its newest line, so it never grows without bound.
            if try writer.append(line, to: url, durable: false) > Self.downloadRecordLimit {
                try writer.writeAtomically(line, to: url, durable: false)
            }
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }

    /// The size past which a download record is cut back to its newest line.
    static let downloadRecordLimit: Int64 = 4096

    /// The last line of the download record at `url` that decodes (a record written whole by an older version is
    /// one line without a newline), or nil.
    func loadDownloadRecord(_ url: URL) -> PartialRecord? {
        guard let data = files.contents(atPath: url.path) else { return nil }
        let decoder = JSONDecoder()
        for line in data.split(separator: UInt8(ascii: "\n")).reversed() {
            if let record = try? decoder.decode(PartialRecord.self, from: Data(line)) { return record }
        }
        return nil
    }

    /// Drops a download's hidden files: what was kept cannot be continued.
    func discard(_ partial: PartialFiles) {
        try? files.removeItem(at: partial.body)
        try? files.removeItem(at: partial.record)
    }

    /// Drops a download's record once the index lists its episode.
    func forget(_ partial: PartialFiles) {
        try? files.removeItem(at: partial.record)
    }
}
