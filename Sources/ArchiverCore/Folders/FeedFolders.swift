// Show folders: the one a new feed gets, and opening one (its lock taken, what a killed run left cleared, its
// index and records read). The index, records, history and locks are stores of their own (IndexStore,
// ShowRecords, HistoryStore, ShowLocks).
import Foundation

/// Finds show folders, and opens one: locked, cleared of what a killed run left, its index and records read.
struct FeedFolders: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let mover: any FileMovement
    let locks: ShowLocks
    let indexes: IndexStore
    let records: ShowRecords
    /// What finishes a `credentials --move` a killed run left pending in a show (see `PendingMove`); nil where
    /// nothing can (a test's folders).
    var moves: (any PendingMoveFinishing)? = nil
    /// What finishes an offload, a deletion or a restore a killed run left pending (see `AwayRecord`); nil where
    /// nothing can (a test's folders).
    var away: AwayFinisher? = nil

    /// Opens the show's folder: refuses a state folder that is a link, takes the lock (waiting up to `lockWait`),
    /// clears what a killed run left (temporary files, a damaged file set aside, records of archived episodes),
    /// reads the index and finishes a forget or a credentials move a killed run left pending (see
    /// `finishForgetting`, `PendingMove`).
    func open(folder: URL, source: FeedSource, lockWait: TimeInterval, wants: FeedWants) async throws -> FeedFolder {
        try read(await lock(folder: folder, lockWait: lockWait), source: source, wants: wants)
    }

    /// `open` for a command that writes to the show: a journal read with a torn or damaged record is folded at once
    /// (through `IndexStore.save`, which says so and marks the feed to be read in full), before anything is written
    /// after it. The lock is let go if that fails.
    func openToWrite(folder: URL, source: FeedSource, lockWait: TimeInterval, wants: FeedWants) async throws
        -> FeedFolder
    {
        var show = try await open(folder: folder, source: source, lockWait: lockWait, wants: wants)
        do {
            try indexes.foldDamagedJournal(of: &show)
        } catch {
            show.lock.unlock()
            throw error
        }
        return show
    }

    /// The first half of `open`: the state folder made (never a link), the lock taken, the feed's validators read,
    /// so that a sync can ask for the feed while `read` reads the rest.
    func lock(folder: URL, lockWait: TimeInterval) async throws -> LockedFolder {
        let state = ShowState(folder: folder)
        // A show folder may be a link (to another disk, on purpose); its state folder never is: the index, the
        // lock and the partial downloads are written only where the show folder says.
        if attributes.isSymbolicLink(atPath: state.stateFolder.path) {
            throw ArchiveError.storage(
                path: state.stateFolder.path, reason: ArchiveError.linkRefusal)
        }
        try FolderContents.createFolder(state.stateFolder, with: files)
        let lock = try await locks.acquire(folder: folder, wait: lockWait)
        return LockedFolder(state: state, lock: lock, saved: state.validators.load(files))
    }

    /// Opens the show's folder for a reader that changes nothing (`verify`): locked as a sync locks it where it
    /// can be, else on its lock file as it is, else not at all (see `ShowLocks.acquireForReading`); its index read.
    /// What a killed run left is cleared only where the archive can be written; a forget left pending is left to the
    /// next command that writes (it writes the index).
    /// - Returns: the folder (its `lock` a stand-in when none could be taken), and then why none could be.
    func openForReading(folder: URL, source: FeedSource, lockWait: TimeInterval, wants: FeedWants) async throws
        -> (show: FeedFolder, unlocked: ArchiveError?)
    {
        let state = ShowState(folder: folder)
        if attributes.isSymbolicLink(atPath: state.stateFolder.path) {
            throw ArchiveError.storage(path: state.stateFolder.path, reason: ArchiveError.linkRefusal)
        }
        let lock: any HeldLock
        var unlocked: ArchiveError?
        switch try await locks.acquireForReading(folder: folder, wait: lockWait) {
        case .held(let held, writable: true):
            let locked = LockedFolder(state: state, lock: held, saved: state.validators.load(files), finishes: false)
            return (try read(locked, source: source, wants: wants), nil)
        case .held(let held, writable: false): lock = held
        case .unheld(let why):
            lock = UnheldLock()
            unlocked = why
        }
        let locked = LockedFolder(
            state: state, lock: lock, saved: state.validators.load(files), clears: false, finishes: false)
        return (try read(locked, source: source, wants: wants), unlocked)
    }

    /// The second half of `open`: what a killed run left cleared (unless `locked` says not to), the index read;
    /// the lock let go if it cannot be.
    func read(_ locked: LockedFolder, source: FeedSource, wants: FeedWants) throws -> FeedFolder {
        let (stateFolder, lock, validators) = (locked.stateFolder, locked.lock, locked.saved)
        // One listing of the state folder serves every clean-up.
        let leftovers = locked.clears ? (try? files.contentsOfDirectory(atPath: stateFolder.path)) ?? [] : []
        removeLeftoverTemporaries(leftovers, in: stateFolder)
        records.openDownloadLog(of: locked.state, listed: leftovers)
        records.removeUnneededBodies(of: locked.state, listed: leftovers)
        do {
            let read = try indexes.readIndex(at: locked.state.index)
            let index = read?.index
            if let index, locked.clears {
                restoreSetAside(leftovers, of: locked.state, index: index)
                removeSettledRecords(leftovers, of: locked.state, index: index)
            }
            var show = FeedFolder(
                state: locked.state, read: read ?? .none(feed: source.displayName),
                // A 304 must not hide work the last run left undone (see `FeedValidators.incomplete`), nor a
                // failure whose URL's secret only the feed holds (see `SecretForms`), nor an episode a damaged
                // journal record held (found again from the feed).
                validators: index != nil && locked.conditional(for: wants) != nil
                    && index?.failures.contains(where: { URLSecrets.carriesRedaction($0.url) }) != true
                    && read?.journal?.damaged.isEmpty != false
                    ? validators : nil,
                lock: lock)
            show.rederive = index != nil && validators?.rederive == true
            show.artworkFailures = index != nil ? validators?.artworkFailures ?? 0 : 0
            show.archives = Set(index != nil ? validators?.archives ?? [] : [])
            show.archiveLinks = index != nil ? validators?.archiveLinks ?? [:] : [:]
            (show.refusedPage, show.lastFetched, show.lastRevision) =
                (validators?.refusedPage, validators?.fetched, validators?.revision)
            // A forget killed before it was done is finished by whichever command takes the lock next.
            if index != nil, locked.finishes, leftovers.contains(ArchiveLayout.forgottenFile) {
                try finishForgetting(&show)
            }
            // So is an offload, a deletion by retention or a restore (see `AwayRecord`).
            if let index, locked.finishes, let away, index.episodes.contains(where: { $0.away?.pending != nil }) {
                try away.finish(&show)
            }
            // So is a rename (see `PendingRenames`).
            if index != nil, locked.finishes, leftovers.contains(ArchiveLayout.renamesFile) {
                try RenameFinisher(files: files, attributes: attributes, mover: mover, indexes: indexes).finish(&show)
            }
            // So is a credentials move: every command that takes the lock cleans the show before it works on it.
            if locked.finishes, leftovers.contains(ArchiveLayout.pendingMoveFile), let moves {
                show.movedFiles = try moves.finishMove(of: &show)
            }
            return show
        } catch {
            lock.unlock()
            throw error
        }
    }

    /// Temporary files of atomic writes a killed process never renamed: every file of the show's tree is written
    /// through its state folder (`AtomicFileWriting`'s `stagedIn`), and with the lock held none of them belongs to
    /// a live process, but for the site's pages, written without the lock (see `TemporaryFiles.isStale`).
    func removeLeftoverTemporaries(_ names: [String], in stateFolder: URL) {
        TemporaryFiles.sweep(names, in: stateFolder, files: files) { !ArchiveLayout.isWrittenWithoutShowLock($0) }
    }

    /// Download records a killed run left for episodes the index holds, with no body beside them: their episodes
    /// are archived, so no run reads them again. (A record with no body whose episode is not in the index is what
    /// adopts a file renamed into place just before a crash: it stays.) The log is then compacted.
    func removeSettledRecords(_ listed: [String], of show: ShowState, index: ArchiveIndex) {
        guard listed.contains(where: ArchiveNames.isDownloadRecord) else { return }
        records.forgetSettledDownloads(of: show, keys: index.episodes.lazy.map(\.key), listed: Set(listed))
    }

    /// A repair killed between setting a damaged file aside and renaming its replacement into place: the file goes
    /// back when its place is empty, and the copy goes when the replacement is there. No copy outlives a run.
    func restoreSetAside(_ listed: [String], of state: ShowState, index: ArchiveIndex) {
        let names = listed.filter(ArchiveLayout.isSetAside)
        guard !names.isEmpty else { return }
        let byAside = Dictionary(
            index.episodes.map { (ArchiveNames.aside(for: $0.file), $0.file) }, uniquingKeysWith: { a, _ in a })
        for name in names {
            let aside = state.listed(name)
            guard let file = byAside[name] else { continue }
            let original = state.folder.appendingPathComponent(file)
            if files.fileExists(atPath: original.path) {
                try? files.removeItem(at: aside)
            } else {
                try? mover.moveItem(at: aside, to: original)
            }
        }
    }

    /// The folder for a feed seen for the first time: `stem` (its title made safe, or as `--folder-name` says). A folder of that name that holds a
    /// different feed is left alone ("Title (2)" instead), unless it shares episodes with this one (the same show
    /// at a new URL) and `use` says its show may be continued so (`FolderUse.join`), which then continues there.
    /// A name the site writes at the root is never taken either (a show titled "index.html" is kept in
    /// "index.html (2)").
    func chooseFolder(
        for feed: Feed, source: FeedSource, in root: URL, named stem: String, use: (String) -> FolderUse
    ) throws -> URL {
        for counter in 1...1000 {
            let name = FileNamer.fileName(stem: stem, extension: nil, counter: counter)
            if ArchiveLayout.isReservedAtRoot(name) { continue }
            let use = use(name)
            if use == .never { continue }
            let folder = root.appendingPathComponent(name, isDirectory: true)
            guard let existing = try? indexes.loadIndex(at: ShowState(folder: folder).index) else { return folder }
            if FeedFolders.belongs(feed, source: source, to: existing, use: use) { return folder }
        }
        throw ArchiveError.cannotCreateFolder(
            path: root.appendingPathComponent(stem).path, reason: "too many feeds share this title")
    }

    /// A folder's index is this show's when `use` allows it any and it names this feed (a new folder's index
    /// does), or, when `use` allows joining the show another feed began, shares episodes with it (the same show
    /// at a new URL).
    static func belongs(_ feed: Feed, source: FeedSource, to index: ArchiveIndex, use: FolderUse) -> Bool {
        use != .never
            && (index.feed == URLSecrets.redacted(source.displayName)
                || (use == .join && feed.episodes.contains(where: { index.entry(for: $0) != nil })))
    }
}

/// What a feed seen for the first time may do with an existing folder of its title (see `chooseFolder`).
enum FolderUse: Sendable {
    /// Continue the show there when the folder's index shares episodes with the feed (the same show at a new URL).
    case join
    /// Take it only when its index names this very feed (a show kept apart: `Subscription.separate`).
    case own
    /// Never take it (another subscription's, for a feed kept apart).
    case never
}

/// A show's folder locked and its feed's validators read: the first half of `FeedFolders.open`.
struct LockedFolder {
    /// The paths of the show's folder and its state.
    let state: ShowState
    var folder: URL { state.folder }
    var stateFolder: URL { state.stateFolder }
    let lock: any HeldLock
    /// The validators the last run saved, as saved.
    let saved: FeedValidators?
    /// Whether opening it clears what a killed run left (false for a reader where the archive cannot be written).
    var clears = true
    /// Whether opening it finishes a forget or a credentials move a killed run left pending (see
    /// `finishForgetting`, `PendingMove`), which write the index: false for a reader (`verify`), which changes no
    /// record.
    var finishes = true

    /// The saved validators, when a conditional fetch with them hides nothing the folder's own records say the
    /// last run left undone or did not want (`FeedValidators.covers`); the index may still say otherwise (see
    /// `FeedFolders.read`).
    func conditional(for wants: FeedWants) -> FeedValidators? {
        saved?.covers(wants) == true ? saved : nil
    }
}

/// Stands for the lock of a show opened for reading where no lock could be taken (see
/// `FeedFolders.openForReading`): there is nothing to let go or to note.
private final class UnheldLock: HeldLock {
    func unlock() {}
    func keep(_ note: Data) {}
}
