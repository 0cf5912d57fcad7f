// `sync --library DIR`: the library refreshed after each sync, as `sync --site` refreshes the site. Kept for the
// archive in `<root>/.podarchive/library.json` (a hint, as the site's settings: lost, the next `sync --library DIR`
// says it again), so the nightly `sync` from cron keeps the players' folder current.
import Foundation

/// The library `sync` refreshes, kept for the archive.
public struct LibrarySettings: Codable, Equatable, Sendable {
    /// The library folder (absolute); nil: `sync` writes no library.
    public var folder: String?

    /// Settings; nil: none.
    public init(folder: String? = nil) { self.folder = folder }
}

extension ArchiveRoot {
    /// The library's settings: a hint, rewritten atomically.
    var librarySettings: RecordFile<LibrarySettings> { record(ArchiveLayout.librarySettingsFile, .hint) }
}

/// Reads and saves the library settings of an archive root.
struct LibrarySettingsStore: Sendable {
    let store: SubscriptionStore
    let files: any FileStore
    let writer: any AtomicFileWriting

    /// The library settings of `root` (none when there are none, or they cannot be read).
    func load(in root: URL) -> LibrarySettings {
        (try? store.archive(root).librarySettings.load(files)) ?? LibrarySettings()
    }

    /// Saves the library settings of `root`.
    /// - Throws: `ArchiveError.storage` when they cannot be written, or the root's state folder is a link.
    func save(_ settings: LibrarySettings, in root: URL) throws {
        let archive = try store.archive(root)
        try FolderContents.createFolder(archive.stateFolder, with: files)
        try archive.librarySettings.save(settings, writer)
    }
}
