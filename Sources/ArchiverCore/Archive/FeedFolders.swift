// A show's folder and what podarchive keeps in it: the registry that finds it, the lock that guards it, the index
// and the small records beside it. Everything here is read and written under the folder's lock.
import Foundation

/// One show's folder, opened and locked by `FeedFolders.open`: what its index and records say. Changed in
/// memory by the sync and saved through `FeedFolders`.
struct FeedFolder {
    /// The show's folder.
    var folder: URL
    /// Its `.podarchive` folder: the index, the lock, records, partial downloads.
    var stateFolder: URL
    var index: ArchiveIndex
    /// What reading the index's journal found when the folder was opened (nil without a journal, and once folded).
    var journal: IndexJournal.Reading?
    /// The feed's validators, only when a conditional fetch would hide nothing the last run left undone.
    var validators: FeedValidators?
    var lock: any HeldLock
    /// Archive documents of the feed already read in full (see `FeedValidators.archives`), and their links.
    var archives: Set<String> = []
    var archiveLinks: [String: String] = [:]
    /// The page link refused last run (see `FeedValidators.refusedPage`).
    var refusedPage: String?
    /// When the feed was last fetched in full (see `FeedValidators.fetched`).
    var lastFetched: String?
    /// The digest of the feed's last revision in the history (see `FeedValidators.revision`).
    var lastRevision: String?

    /// Episodes recorded in `index` since it was last saved or journaled, and the download records to drop once
    /// they are (see `SyncRun.commit`, `FeedFolders.commitJournal`).
    var unjournaled: [(entry: ArchiveIndex.Entry, partial: PartialFiles)] = []

    // `isDirectory: false`: without it, URL asks the file system whether each name is a folder.
    var indexURL: URL { stateFolder.appendingPathComponent(ArchiveLayout.indexFile, isDirectory: false) }
    var journalURL: URL { stateFolder.appendingPathComponent(ArchiveLayout.journalFile, isDirectory: false) }
    var validatorsURL: URL { stateFolder.appendingPathComponent(ArchiveLayout.validatorsFile, isDirectory: false) }
    var paths: FolderPaths { FolderPaths(folder: folder, stateFolder: stateFolder) }
    /// The show's title, for output and for names (`{feed}`): the feed's, else the folder's name.
    var title: String { ArchiveNames.showTitle(index.title, folder: folder) }

    /// The hidden files of `key`'s download.
    func partial(_ key: String) -> PartialFiles { PartialFiles(key: key, stateFolder: stateFolder) }
}

/// The two folders one episode's download works in; what a child task of the sync takes along.
struct FolderPaths: Sendable {
    var folder: URL
    var stateFolder: URL
}

/// Finds, locks and reads feed folders, and writes their index and records.
struct FeedFolders: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let mover: any FileMovement
    let writer: any AtomicFileWriting
    let locker: any FileLocking
    let clock: SyncClock

    /// Opens the show's folder: refuses a state folder that is a link, takes the lock (waiting up to `lockWait`),
    /// clears what a killed run left (temporary files, a damaged file set aside, records of archived episodes) and
    /// reads the index.
    func open(folder: URL, source: FeedSource, lockWait: TimeInterval, metadata: Bool) async throws -> FeedFolder {
        let stateFolder = ArchiveLayout.stateFolder(of: folder)
        // A show folder may be a link (to another disk, on purpose); its state folder never is: the index, the
        // lock and the partial downloads are written only where the show folder says.
        if (try? attributes.attributesOfItem(atPath: stateFolder.path))?[.type] as? FileAttributeType
            == .typeSymbolicLink
        {
            throw ArchiveError.storage(
                path: stateFolder.path, reason: ArchiveError.linkRefusal)
        }
        try createFolder(stateFolder)
        let lock = try await acquireLock(
            stateFolder.appendingPathComponent(ArchiveLayout.lockFile), folder: folder, wait: lockWait)
        // One listing of the state folder serves both clean-ups.
        let leftovers = (try? files.contentsOfDirectory(atPath: stateFolder.path)) ?? []
        removeLeftoverTemporaries(leftovers, in: stateFolder)
        do {
            let read = try readIndex(at: stateFolder.appendingPathComponent(ArchiveLayout.indexFile))
            let index = read?.index
            if let index {
                restoreSetAside(leftovers, in: stateFolder, folder: folder, index: index)
                removeSettledRecords(leftovers, in: stateFolder, index: index)
            }
            let validators: FeedValidators? = loadRecord(
                stateFolder.appendingPathComponent(ArchiveLayout.validatorsFile))
            return FeedFolder(
                folder: folder, stateFolder: stateFolder,
                index: index ?? ArchiveIndex(feed: source.displayName, title: nil), journal: read?.journal,
                // A 304 must not hide work the last run left undone (see `FeedValidators.incomplete`), nor a
                // failure whose URL's secret only the feed holds (see `SecretForms`), nor an episode a damaged
                // journal record held (found again from the feed).
                validators: index != nil && validators?.coverEverything(forMetadata: metadata) == true
                    && index?.failures.contains(where: { URLSecrets.carriesRedaction($0.url) }) != true
                    && read?.journal?.damaged.isEmpty != false
                    ? validators : nil,
                lock: lock, archives: Set(index != nil ? validators?.archives ?? [] : []),
                archiveLinks: index != nil ? validators?.archiveLinks ?? [:] : [:],
                refusedPage: validators?.refusedPage,
                lastFetched: validators?.fetched, lastRevision: validators?.revision)
        } catch {
            lock.unlock()
            throw error
        }
    }

    /// Temporary files of atomic writes a killed process never renamed. Only the lock holder writes in this
    /// folder, so with the lock held none of them belongs to a live process.
    func removeLeftoverTemporaries(_ names: [String], in stateFolder: URL) {
        for name in names where ArchiveLayout.isTemporary(name) {
            try? files.removeItem(at: stateFolder.appendingPathComponent(name))
        }
    }

    /// Download records a killed run left for episodes the index holds, with no body beside them: their episodes
    /// are archived, so no run reads them again. (A record with no body whose episode is not in the index is what
    /// adopts a file renamed into place just before a crash: it stays.)
    func removeSettledRecords(_ listed: [String], in stateFolder: URL, index: ArchiveIndex) {
        let names = Set(listed)
        guard names.contains(where: ArchiveNames.isDownloadRecord) else { return }
        for entry in index.episodes {
            let partial = PartialFiles(key: entry.key, stateFolder: stateFolder)
            if names.contains(partial.record.lastPathComponent), !names.contains(partial.body.lastPathComponent) {
                forget(partial)
            }
        }
    }

    /// A repair killed between setting a damaged file aside and renaming its replacement into place: the file goes
    /// back when its place is empty, and the copy goes when the replacement is there. No copy outlives a run.
    func restoreSetAside(_ listed: [String], in stateFolder: URL, folder: URL, index: ArchiveIndex) {
        let names = listed.filter(ArchiveLayout.isSetAside)
        guard !names.isEmpty else { return }
        let byAside = Dictionary(
            index.episodes.map { (ArchiveNames.aside(for: $0.file), $0.file) }, uniquingKeysWith: { a, _ in a })
        for name in names {
            let aside = stateFolder.appendingPathComponent(name)
            guard let file = byAside[name] else { continue }
            let original = folder.appendingPathComponent(file)
            if files.fileExists(atPath: original.path) {
                try? files.removeItem(at: aside)
            } else {
                try? mover.moveItem(at: aside, to: original)
            }
        }
    }

    func acquireLock(_ url: URL, folder: URL, wait: TimeInterval) async throws -> any HeldLock {
        let poll: TimeInterval = 0.1
        var waited: TimeInterval = 0
        while true {
            let held: (any HeldLock)?
            do {
                held = try locker.tryLock(url)
            } catch {
                throw ArchiveError.storage(path: url.path, reason: ArchiveError.describe(error))
            }
            if let held { return held }
            guard waited < wait else { throw ArchiveError.locked(folder: folder.path, holder: locker.lockHolder(url)) }
            try await clock.sleep(poll)
            waited += poll
        }
    }

    /// The folder for a feed seen for the first time: its title, made safe. A folder of that name that holds a
    /// different feed is left alone ("Title (2)" instead), unless it shares episodes with this one (the same show
    /// at a new URL), which then continues there. A name the site writes at the root is never taken either
    /// (a show titled "index.html" is kept in "index.html (2)").
    func chooseFolder(for feed: Feed, source: FeedSource, in root: URL) throws -> URL {
        let title = feed.title.map { FileNamer.sanitize($0) }.flatMap { $0.isEmpty ? nil : $0 }
        let stem = title ?? FileNamer.sanitize(ArchiveNames.fallbackTitle(for: source))
        for counter in 1...1000 {
            let name = FileNamer.fileName(stem: stem, extension: nil, counter: counter)
            if ArchiveLayout.isReservedAtRoot(name) { continue }
            let folder = root.appendingPathComponent(name, isDirectory: true)
            let indexURL = ArchiveLayout.indexFile(of: folder)
            guard let existing = try? loadIndex(at: indexURL) else { return folder }
            if FeedFolders.belongs(feed, source: source, to: existing) { return folder }
        }
        throw ArchiveError.cannotCreateFolder(
            path: root.appendingPathComponent(stem).path, reason: "too many feeds share this title")
    }

    /// A folder's index is this show's when it names this feed (a new folder's index does), or shares episodes
    /// with it (the same show at a new URL).
    static func belongs(_ feed: Feed, source: FeedSource, to index: ArchiveIndex) -> Bool {
        index.feed == URLSecrets.redacted(source.displayName)
            || feed.episodes.contains(where: { index.entry(for: $0) != nil })
    }

    func createFolder(_ url: URL) throws {
        do {
            try files.createDirectory(at: url, withIntermediateDirectories: true, attributes: nil)
        } catch {
            throw ArchiveError.cannotCreateFolder(path: url.path, reason: ArchiveError.describe(error))
        }
    }

    func loadRecord<Record: Decodable>(_ url: URL) -> Record? {
        files.contents(atPath: url.path).flatMap { try? JSONDecoder().decode(Record.self, from: $0) }
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

    /// Records (the registry, validators) are rewritten atomically but not fsynced: each is a
    /// hint that is checked again when read, so losing one to a power cut costs a download, never a file.
    func saveRecord<Record: Encodable>(_ record: Record, to url: URL, ownerOnly: Bool = false) throws {
        do {
            try writer.writeAtomically(
                try JSONEncoder.records.encode(record), to: url, durable: false, ownerOnly: ownerOnly)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }
}
