// One show's folder as a sync holds it: locked, its index (as the run changes it) and the records read beside it.
import Foundation

/// One show's folder, opened and locked by `FeedFolders.open`: what its index and records say. Changed in
/// memory by the sync and saved through `IndexStore` and `ShowRecords`.
struct FeedFolder {
    /// The paths of the show's folder and its state (see `ShowState`).
    let state: ShowState
    /// The show's folder.
    var folder: URL { state.folder }
    /// Its `.podarchive` folder: the index, the lock, records, partial downloads.
    var stateFolder: URL { state.stateFolder }
    var index: ArchiveIndex
    /// What reading the index's journal found when the folder was opened (nil without a journal, and once folded).
    var journal: IndexJournal.Reading?
    /// The feed's validators, only when a conditional fetch would hide nothing the last run left undone.
    var validators: FeedValidators?
    var lock: any HeldLock
    /// Runs in a row that could not fetch the show's cover (see `FeedValidators.artworkFailures`).
    var artworkFailures = 0
    /// Archive documents of the feed already read in full (see `FeedValidators.archives`), and their links.
    var archives: Set<String> = []
    var archiveLinks: [String: String] = [:]
    /// The page link refused last run (see `FeedValidators.refusedPage`).
    var refusedPage: String?
    /// When the feed was last fetched in full (see `FeedValidators.fetched`).
    var lastFetched: String?
    /// Whether a journal folded since the last full read held a record this sync must take back from the folder,
    /// whatever its filter (see `FeedValidators.rederive`).
    var rederive = false
    /// The digest of the feed's last revision in the history (see `FeedValidators.revision`).
    var lastRevision: String?
    /// The files a pending credentials move cleaned when the folder was opened (see `PendingMove`).
    var movedFiles = 0

    /// Episodes recorded in `index` since it was last saved or journaled, and the download records to drop once
    /// they are (see `SyncRun.commit`, `IndexStore.commitJournal`).
    var unjournaled: [(entry: ArchiveIndex.Entry, partial: PartialFiles)] = []

    /// The show in `folder`, locked by `lock`, as `read` found its index and journal (`IndexStore.readIndex`): a
    /// folder is made only from a reading, so that saving its index knows what the journal held.
    init(state: ShowState, read: IndexReading, validators: FeedValidators?, lock: any HeldLock) {
        self.state = state
        index = read.index
        journal = read.journal
        self.validators = validators
        self.lock = lock
    }

    var indexURL: URL { state.index }
    var journalURL: URL { state.journal }
    /// The show's title, for output and for names (`{feed}`): the feed's, else the folder's name.
    var title: String { ArchiveNames.showTitle(index.title, folder: folder) }

    /// The hidden files of `key`'s download.
    func partial(_ key: String) -> PartialFiles { PartialFiles(key: key, state: state) }
}

extension FeedFolder {
    /// The damaged records of the show's journal before its last one, as read when the folder was opened; nil
    /// when there are none (see `IndexJournal.Reading.damagedBeforeLast`).
    var journalDamage: JournalDamage? {
        guard let damaged = journal?.damagedBeforeLast, !damaged.isEmpty, let total = journal?.records else {
            return nil
        }
        return JournalDamage(journal: journalURL, records: damaged, total: total)
    }
}
