// A show's index on disk as a sync reads and writes it: `index.json` with its journal applied, written
// whole (which folds the journal), or the journal appended to. Writing it whole is the one way a journal is folded
// (`save`): a journal read with a torn or damaged record leaves, before the index is written over it, the mark that
// makes the next sync read the feed in full (the damaged record's episode is found again there), and a damaged
// record (not a torn last one, which a crash leaves) is recorded in `folds` for the command to say.
import Foundation

/// A show's index as `IndexStore.readIndex` read it: `index.json` with the intact records of its journal applied,
/// and what the journal held. A `FeedFolder` is made from one, so that saving it knows what it folds.
struct IndexReading: Sendable {
    /// The index, the journal's intact records applied.
    var index: ArchiveIndex
    /// What reading the journal found; nil when there was none.
    var journal: IndexJournal.Reading?

    fileprivate init(index: ArchiveIndex, journal: IndexJournal.Reading?) {
        self.index = index
        self.journal = journal
    }

    /// A show with no index yet (a new feed's folder): nothing to fold.
    static func none(feed: String) -> IndexReading {
        IndexReading(index: ArchiveIndex(feed: feed, title: nil), journal: nil)
    }
}

/// Reads a show's index with its journal applied, and writes it: whole, or by appending to the journal.
struct IndexStore: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let writer: any AtomicFileWriting
    /// Where the download records of the episodes committed go (see `dropDownloadRecords`); nil drops only the
    /// record files of earlier versions.
    var records: ShowRecords?
    /// The damaged journals folded, for the command to say (shared by every copy of this store).
    let folds: JournalFolds

    init(
        files: any FileStore, attributes: any FileAttributes, writer: any AtomicFileWriting,
        records: ShowRecords? = nil,
        folds: JournalFolds = JournalFolds()
    ) {
        self.files = files
        self.attributes = attributes
        self.writer = writer
        self.records = records
        self.folds = folds
    }

    /// The index at `url` with its journal applied (see `readIndex`); nil when there is none yet. For reading
    /// only: what is saved is a `FeedFolder`, made from `readIndex`.
    /// - Throws: `ArchiveError.damagedIndex` or `.newerIndex` when it cannot be used.
    func loadIndex(at url: URL) throws -> ArchiveIndex? {
        try readIndex(at: url)?.index
    }

    /// The index at `url` with the intact records of its journal applied, and what reading the journal found (nil
    /// when there is no journal); nil when there is no index yet. Both files are refused past
    /// `IndexFormat.maximumBytes` before they are read, and the index past `ArchiveIndex.maximumDepth` before it
    /// is parsed.
    func readIndex(at url: URL) throws -> IndexReading? {
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
        return IndexReading(index: index, journal: journal)
    }

    /// Writes the show's index whole (atomically, fsynced), which folds the journal beside it into it (the journal
    /// goes), and drops the download records of the episodes it now holds. The one way an index is written: when
    /// the journal was read with a torn or damaged record (`show.journal`), the next sync is first made to read the
    /// feed in full (`FeedValidators.readInFullNextTime`, durably), so that what the record held is derived
    /// again, and a damaged record (not a torn last one) is recorded in `folds` for the command to say.
    func save(_ show: inout FeedFolder) throws {
        if let journal = show.journal, !journal.damaged.isEmpty {
            try FeedValidators.readInFullNextTime(
                show.state.validators, files: files, writer: writer, rederive: true)
        }
        do {
            try writer.writeAtomically(IndexFormat.encode(show.index), to: show.indexURL)
        } catch {
            throw ArchiveError.storage(error, path: show.indexURL.path)
        }
        try? files.removeItem(at: show.journalURL)
        if let damage = show.journalDamage { folds.record(damage) }
        show.journal = nil
        dropDownloadRecords(of: &show)
    }

    /// Makes the episodes recorded since the last commit durable: one append of their records to the journal and
    /// one sync for all of them (group commit), then their download records go. A show without an index file
    /// yet, or whose journal passed `IndexJournal.foldSize`, has its index written whole instead; a journal read with
    /// a torn or damaged record is folded first.
    func commitJournal(of show: inout FeedFolder) throws {
        guard !show.unjournaled.isEmpty else { return }
        // Never appended after a torn or damaged record (it would then be a damaged record in the middle).
        try foldDamagedJournal(of: &show)
        guard files.fileExists(atPath: show.indexURL.path) else { return try save(&show) }
        let size = try appendToJournal(show.unjournaled.map(\.entry), at: show.journalURL)
        if size > IndexJournal.foldSize { return try save(&show) }
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

    /// Folds a journal read with a torn or damaged record into `index.json` at once (through `save`; its intact
    /// records are in the index already): a record appended after a torn one would run on from it and be lost
    /// with it. What every command that takes a show's lock to write does first. The episodes the damaged records
    /// held are found again by the next sync, which reads the feed in full (their files adopted).
    func foldDamagedJournal(of show: inout FeedFolder) throws {
        guard show.journal?.damaged.isEmpty == false else { return }
        try save(&show)
    }

    /// Folds the show's journal into `index.json`, if it has one (what a sync does when it ends).
    func foldJournal(of show: inout FeedFolder) throws {
        guard !show.unjournaled.isEmpty || files.fileExists(atPath: show.journalURL.path) else { return }
        try save(&show)
    }

    /// The episodes recorded since the last commit are durable now: their download records go.
    private func dropDownloadRecords(of show: inout FeedFolder) {
        if let records {
            for (_, partial) in show.unjournaled { records.forget(partial) }
            if !show.unjournaled.isEmpty { records.compactDownloadLog(of: show.state) }
        } else {
            for (_, partial) in show.unjournaled { try? files.removeItem(at: partial.record) }
        }
        show.unjournaled = []
    }

    private func fileSize(_ url: URL) -> Int64? { attributes.size(of: url, in: files) }
}
