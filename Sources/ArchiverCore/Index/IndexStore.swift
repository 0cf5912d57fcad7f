// A show's index on disk as a sync reads and writes it: `index.json` with its journal applied, written
// whole (which folds the journal), or the journal appended to; and a journal found torn or damaged, folded
// before anything is appended after the damage.
import Foundation

/// Reads a show's index with its journal applied, and writes it: whole, or by appending to the journal.
struct IndexStore: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let writer: any AtomicFileWriting
    /// Where the download records of the episodes committed go (see `dropDownloadRecords`); nil drops only the
    /// record files of earlier versions.
    var records: ShowRecords?

    init(
        files: any FileStore, attributes: any FileAttributes, writer: any AtomicFileWriting, records: ShowRecords? = nil
    ) {
        self.files = files
        self.attributes = attributes
        self.writer = writer
        self.records = records
    }

    /// The index at `url` with its journal applied (see `readIndex`); nil when there is none yet.
    /// - Throws: `ArchiveError.damagedIndex` or `.newerIndex` when it cannot be used.
    func loadIndex(at url: URL) throws -> ArchiveIndex? {
        try readIndex(at: url)?.index
    }

    /// The index at `url` with the intact records of its journal applied, and what reading the journal found (nil
    /// when there is no journal); nil when there is no index yet. Both files are refused past
    /// `IndexFormat.maximumBytes` before they are read, and the index past `ArchiveIndex.maximumDepth` before it
    /// is parsed.
    func readIndex(at url: URL) throws -> (index: ArchiveIndex, journal: IndexJournal.Reading?)? {
        if let size = fileSize(url), size > IndexFormat.maximumBytes {
            throw ArchiveError.damagedIndex(path: url.path, reason: IndexFormat.tooLarge(size))
        }
        guard let data = files.contents(atPath: url.path) else {
            // Something is there that cannot be read (a folder, no permission): not "no index yet".
            if files.fileExists(atPath: url.path) {
                throw ArchiveError.damagedIndex(path: url.path, reason: "it is not a readable file")
            }
            return nil
        }
        var index: ArchiveIndex
        do {
            index = try IndexFormat.decode(data)
        } catch let refused as IndexFormat.LimitExceeded {
            throw ArchiveError.damagedIndex(path: url.path, reason: refused.reason)
        } catch {
            // A newer podarchive may have changed the format: say so rather than call it damaged. Only this
            // rare path parses the index a second time.
            let version = (try? JSONSerialization.jsonObject(with: data) as? [String: Any])?["version"] as? Int
            if let version, version > ArchiveIndex.currentVersion {
                throw ArchiveError.newerIndex(path: url.path, version: version)
            }
            throw ArchiveError.damagedIndex(path: url.path, reason: "not valid index JSON")
        }
        guard index.version <= ArchiveIndex.currentVersion else {
            throw ArchiveError.newerIndex(path: url.path, version: index.version)
        }
        // The episodes archived since the index was last written whole (see `IndexJournal`).
        let journalURL = IndexJournal.url(besideIndex: url)
        if let size = fileSize(journalURL), size > IndexFormat.maximumBytes {
            throw ArchiveError.damagedIndex(path: journalURL.path, reason: IndexFormat.tooLarge(size))
        }
        var journal: IndexJournal.Reading?
        if let data = files.contents(atPath: journalURL.path) {
            let reading = IndexJournal.entries(in: data)
            for entry in reading.entries { index.record(entry) }
            journal = reading
        }
        if let problem = IndexFormat.unsafeFile(in: index) {
            throw ArchiveError.damagedIndex(path: url.path, reason: problem)
        }
        return (index, journal)
    }

    /// Writes the index whole (atomically, fsynced), which folds the journal beside it into it: the journal goes.
    func save(_ index: ArchiveIndex, to url: URL) throws {
        do {
            try writer.writeAtomically(IndexFormat.encode(index), to: url)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
        try? files.removeItem(at: IndexJournal.url(besideIndex: url))
    }

    /// Saves the show's index whole (folding its journal), and drops the download records of the episodes it
    /// now holds.
    func saveIndex(of show: inout FeedFolder) throws {
        try save(show.index, to: show.indexURL)
        dropDownloadRecords(of: &show)
    }

    /// Makes the episodes recorded since the last commit durable: one append of their records to the journal and
    /// one sync for all of them (group commit), then their download records go. A show without an index file
    /// yet, or whose journal passed `IndexJournal.foldSize`, has its index written whole instead.
    func commitJournal(of show: inout FeedFolder) throws {
        guard !show.unjournaled.isEmpty else { return }
        guard files.fileExists(atPath: show.indexURL.path) else { return try saveIndex(of: &show) }
        let size = try appendToJournal(show.unjournaled.map(\.entry), at: show.journalURL)
        if size > IndexJournal.foldSize { return try saveIndex(of: &show) }
        dropDownloadRecords(of: &show)
    }

    /// Appends the entries' records to the journal at `journal` in one write (through `appender`, the journal kept
    /// open, when given), synced once for all of them. Returns the journal's size after it.
    func appendToJournal(
        _ entries: [ArchiveIndex.Entry], at journal: URL, through appender: (any FileAppending)? = nil
    ) throws -> Int64 {
        var lines = Data()
        for entry in entries { lines.append(try IndexJournal.line(for: entry)) }
        do {
            if let appender { return try appender.append(lines, durable: true) }
            return try writer.append(lines, to: journal, durable: true)
        } catch {
            throw ArchiveError.storage(error, path: journal.path)
        }
    }

    /// Folds a journal read with a torn or damaged record into `index.json` at once (its intact records are in the
    /// index already): a record appended after a torn one would run on from it and be lost with it. The episodes
    /// the damaged records held are found again by the next sync that reads the feed (their files adopted).
    func foldDamagedJournal(of show: inout FeedFolder) throws {
        guard show.journal?.damaged.isEmpty == false else { return }
        try saveIndex(of: &show)
        show.journal = nil
    }

    /// Folds the show's journal into `index.json`, if it has one (what a sync does when it ends).
    func foldJournal(of show: inout FeedFolder) throws {
        guard !show.unjournaled.isEmpty || files.fileExists(atPath: show.journalURL.path) else { return }
        try saveIndex(of: &show)
        show.journal = nil
    }

    /// The episodes recorded since the last commit are durable now: their download records go.
    private func dropDownloadRecords(of show: inout FeedFolder) {
        if let records {
            for (_, partial) in show.unjournaled { records.forget(partial) }
            if !show.unjournaled.isEmpty { records.compactDownloadLog(in: show.stateFolder) }
        } else {
            for (_, partial) in show.unjournaled { try? files.removeItem(at: partial.record) }
        }
        show.unjournaled = []
    }

    private func fileSize(_ url: URL) -> Int64? { attributes.size(of: url, in: files) }
}
