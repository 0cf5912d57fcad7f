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

    /// Marks the validators of the show whose state folder is `stateFolder` incomplete, so that its next sync reads
    /// the feed in full whatever it answers to a conditional request: what the show wants changed outside a sync
    /// (`forget --undo`). Written durably, unlike the sync's own save: a mark lost to a power cut would leave the
    /// change waiting for the feed's next change. A show without validators is read in full anyway.
    func markIncomplete(in stateFolder: URL) throws {
        let url = stateFolder.appendingPathComponent(ArchiveLayout.validatorsFile, isDirectory: false)
        guard var validators: FeedValidators = load(url),
            validators.incomplete != true || validators.leftOutOnly == true
        else { return }
        validators.incomplete = true
        validators.leftOutOnly = nil
        do {
            try writer.writeAtomically(
                try JSONEncoder.records.encode(validators), to: url, durable: true, ownerOnly: false)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
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
}
