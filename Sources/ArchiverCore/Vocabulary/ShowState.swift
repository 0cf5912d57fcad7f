// A show's folder and its `.podarchive/` state folder as a value: the one place the paths of a show's state are
// built from the names in `ArchiveLayout`. The records kept there are typed properties declared beside each record's
// type (`ShowState.validators` in FeedValidators.swift, ...), through `record(_:_:)`.
import Foundation

/// The paths of one show's state: its folder, its state folder, and the files podarchive keeps there.
struct ShowState: Sendable, Hashable {
    /// The show's folder.
    let folder: URL
    /// Its state folder (`<show>/.podarchive`): the index, the lock, records, partial downloads.
    let stateFolder: URL

    /// The state of the show in `folder`.
    init(folder: URL) {
        self.folder = folder
        stateFolder = ArchiveLayout.stateFolder(of: folder)
    }

    /// The state of the show whose state folder is `stateFolder` (for a part handed only that folder).
    init(stateFolder: URL) {
        folder = stateFolder.deletingLastPathComponent()
        self.stateFolder = stateFolder
    }

    /// The state of the show whose index is `index` (for a part handed only that file).
    init(index: URL) { self.init(stateFolder: index.deletingLastPathComponent()) }

    /// A file of the state folder.
    private func file(_ name: String) -> URL { stateFolder.appendingPathComponent(name, isDirectory: false) }

    /// The record `name` of the state folder, written as `durability` says. Called by the record's own file, which
    /// declares it as a property of `ShowState`.
    func record<Record>(_ name: String, _ durability: RecordDurability) -> RecordFile<Record> {
        RecordFile(name, in: stateFolder, durability)
    }

    /// The show's index (see `IndexStore`, the one way it is read and written).
    var index: URL { file(ArchiveLayout.indexFile) }
    /// The index's journal, beside it.
    var journal: URL { file(ArchiveLayout.journalFile) }
    /// The show's download log (see `DownloadLog`).
    var downloadLog: URL { file(ArchiveLayout.downloadLog) }
    /// The lock a sync holds on the show.
    var lock: URL { file(ArchiveLayout.lockFile) }
    /// What the show's pages of the site were made from.
    var siteStamp: URL { file(ArchiveLayout.siteStampFile) }
    /// The feed's history (see `FeedHistory`).
    var history: URL { stateFolder.appendingPathComponent(ArchiveLayout.historyFolder, isDirectory: true) }
    /// The newest document of the feed, kept as `ext` (`xml` or `json`), in the history.
    func currentDocument(_ ext: String) -> URL {
        history.appendingPathComponent(ArchiveLayout.currentDocument(ext), isDirectory: false)
    }
    /// The newest document of the feed under each extension it may be kept as.
    var currentDocuments: [URL] { ArchiveLayout.documentExtensions.map(currentDocument) }
    /// The bytes so far of the download `stem` (see `PartialFiles`).
    func downloadBody(_ stem: String) -> URL { file(ArchiveLayout.downloadBody(stem)) }
    /// The record file an earlier version kept of the download `stem` (see `DownloadLog`).
    func downloadRecord(_ stem: String) -> URL { file(ArchiveLayout.downloadRecord(stem)) }
    /// The file `name` listed in the state folder (a name `ArchiveLayout` says is the state folder's: a temporary
    /// file, a set-aside one, an earlier version's record).
    func listed(_ name: String) -> URL { file(name) }
}
