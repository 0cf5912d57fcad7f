// The small records beside a show's index: the feed's validators, companions that failed, and the record of each
// download in progress. Each is a hint checked again when read: losing one costs a download, never a file.
import Foundation

/// Reads and writes a show's small records, and drops a download's hidden files.
struct ShowRecords: Sendable {
    let files: any FileStore
    let writer: any AtomicFileWriting
    /// The download logs of the shows open now, shared by every copy of these records (see `DownloadLog`).
    let logs = DownloadLogs()

    /// The record at `url`; nil when there is none or it does not decode.
    func load<Record: Decodable>(_ url: URL) -> Record? {
        files.contents(atPath: url.path).flatMap { try? JSONDecoder().decode(Record.self, from: $0) }
    }

    /// Records (the registry, validators) are rewritten atomically but not fsynced: each is a
    /// hint that is checked again when read, so losing one to a power cut costs a download, never a file.
    /// An intent (a hook owed, a deletion pending) is written `durable`: fsynced before the act it announces.
    func save<Record: Encodable>(_ record: Record, to url: URL, ownerOnly: Bool = false, durable: Bool = false)
        throws
    {
        do {
            try writer.writeAtomically(
                try JSONEncoder.records.encode(record), to: url, durable: durable, ownerOnly: ownerOnly)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }

    /// Makes the next sync of the show whose state folder is `stateFolder` read its feed in full, never
    /// conditionally (see `FeedValidators.readInFullNextTime`): what must be derived from the feed again (a
    /// damaged journal record's episode, a changed wish) is then derived. Durable before it returns.
    func readFeedInFullNextTime(in stateFolder: URL) throws {
        try FeedValidators.readInFullNextTime(in: stateFolder, files: files, writer: writer)
    }
}
