// Forgetting an episode for good, and taking it back. Forgetting takes the show's lock as a sync does, takes the
// episode's entry out of the index (and any failure of it), keeps the entry in `ForgottenEpisodes`, and deletes
// its file, companions and sidecar unless asked to keep them. The record is written before the index and the
// files go last: killed at any point, no later sync fetches a forgotten episode again, and no index names a file
// already deleted for long (a sync skips a forgotten entry's missing file).
import Foundation

/// What was forgotten of one episode.
public struct ForgottenEpisode: Equatable, Sendable {
    /// Its title (else its file's name).
    public var title: String
    /// Its file, inside the show's folder.
    public var file: String
    /// The files deleted: the episode's, its companions', its sidecar's (none when they were kept).
    public var deleted: [String]

    /// What was forgotten of the episode `title`, kept as `file`.
    public init(title: String, file: String, deleted: [String]) {
        self.title = title
        self.file = file
        self.deleted = deleted
    }
}

/// Forgets a show's episodes for good, and takes them back.
public struct EpisodeForgetter: Sendable {
    private let files: any FileStore
    private let writer: any AtomicFileWriting
    private let folders: FeedFolders
    private let indexes: IndexStore
    private let records: ShowRecords
    private let clock: SyncClock

    /// A forgetter working through `fileSystem`, dating what it records with `clock`.
    public init(fileSystem: FileSystemSeams, clock: SyncClock) {
        files = fileSystem.files
        writer = fileSystem.writer
        self.clock = clock
        let records = ShowRecords(files: fileSystem.files, writer: fileSystem.writer)
        self.records = records
        indexes = IndexStore(
            files: fileSystem.files, attributes: fileSystem.attributes, writer: fileSystem.writer, records: records)
        folders = FeedFolders(
            files: fileSystem.files, attributes: fileSystem.attributes, mover: fileSystem.mover,
            locks: ShowLocks(locker: fileSystem.locker, clock: clock), indexes: indexes, records: records)
    }

    /// Forgets the episodes `names` (each a title, GUID or file name) of the show in `folder`: out of the index,
    /// recorded as unwanted, their files deleted unless `keepFiles`. Every name is resolved before anything changes.
    /// - Throws: `ForgetError` for a name that names no episode or several; `ArchiveError.noArchive` for a folder
    ///   with no index, `.locked` when a sync holds the show past `lockWait`; `.storage` when it cannot be written.
    public func forget(_ names: [String], inShow folder: URL, keepFiles: Bool, lockWait: TimeInterval = 0)
        async throws -> [ForgottenEpisode]
    {
        var show = try await open(folder, lockWait: lockWait)
        defer { show.lock.unlock() }
        let showName = ArchiveNames.showTitle(show.index.title, folder: folder)
        var chosen: [ArchiveIndex.Entry] = []
        for name in names {
            let entry = try Self.one(name, among: show.index.episodes, show: showName, forgotten: false)
            if !chosen.contains(where: { $0.key == entry.key }) { chosen.append(entry) }
        }
        var record = ForgottenEpisodes.load(in: show.stateFolder, files: files)
        let now = FeedDate.iso8601(clock.now())
        for entry in chosen {
            record.episodes.removeAll { $0.entry.key == entry.key }
            record.episodes.append(.init(entry: entry, forgotten: now))
        }
        // The index without them (and without any failure of them), built anew rather than grown a method of its
        // own: `ArchiveIndex` is held to its size.
        let keys = Set(chosen.map(\.key))
        var index = ArchiveIndex(
            feed: show.index.feed, title: show.index.title,
            episodes: show.index.episodes.filter { !keys.contains($0.key) },
            failures: show.index.failures.filter { !keys.contains($0.key) })
        index.version = show.index.version
        show.index = index
        try save(record, in: show.stateFolder)
        try indexes.save(show.index, to: show.indexURL)
        return chosen.map { entry in
            let deleted = keepFiles ? [] : delete(entry, in: folder)
            return ForgottenEpisode(title: entry.title ?? entry.file, file: entry.file, deleted: deleted)
        }
    }

    /// Takes back the forgotten episodes `names` of the show in `folder`: no longer unwanted, so the next sync
    /// fetches them (or adopts their files, when they were kept). Returns their titles.
    /// - Throws: as `forget`.
    public func takeBack(_ names: [String], inShow folder: URL, lockWait: TimeInterval = 0) async throws -> [String] {
        let show = try await open(folder, lockWait: lockWait)
        defer { show.lock.unlock() }
        let showName = ArchiveNames.showTitle(show.index.title, folder: folder)
        var record = ForgottenEpisodes.load(in: show.stateFolder, files: files)
        var chosen: [ArchiveIndex.Entry] = []
        for name in names {
            let entry = try Self.one(name, among: record.episodes.map(\.entry), show: showName, forgotten: true)
            if !chosen.contains(where: { $0.key == entry.key }) { chosen.append(entry) }
        }
        record.episodes.removeAll { forgotten in chosen.contains { $0.key == forgotten.entry.key } }
        // The mark first: the next sync reads the feed in full (a 304 would say nothing of the episodes taken back).
        // Killed between the two, that sync reads the feed once more than it needed to.
        try records.markIncomplete(in: show.stateFolder)
        try save(record, in: show.stateFolder)
        return chosen.map { $0.title ?? $0.file }
    }

    /// The show's folder, locked, its index read with its journal; refused when it holds no index.
    private func open(_ folder: URL, lockWait: TimeInterval) async throws -> FeedFolder {
        guard files.fileExists(atPath: ArchiveLayout.indexFile(of: folder).path) else {
            throw ArchiveError.noArchive(path: folder.path)
        }
        return try await folders.open(
            folder: folder, source: .local(path: folder.path), lockWait: lockWait, wants: SyncOptions().wants)
    }

    /// The one entry `name` names: by file name (or the file's last part), else GUID or key, else title.
    static func one(_ name: String, among entries: [ArchiveIndex.Entry], show: String, forgotten: Bool) throws
        -> ArchiveIndex.Entry
    {
        let tiers: [(ArchiveIndex.Entry) -> Bool] = [
            { $0.file == name || ($0.file as NSString).lastPathComponent == name },
            { $0.guid == name || $0.key == name },
            { $0.title == name },
        ]
        for matches in tiers {
            let found = entries.filter(matches)
            if found.count == 1 { return found[0] }
            if found.count > 1 { throw ForgetError.ambiguous(name, files: found.map(\.file)) }
        }
        throw ForgetError.unknownEpisode(name, show: show, forgotten: forgotten)
    }

    /// The record is what keeps a forgotten episode from coming back: written durably.
    private func save(_ record: ForgottenEpisodes, in stateFolder: URL) throws {
        let url = ForgottenEpisodes.url(in: stateFolder)
        do {
            try writer.writeAtomically(try JSONEncoder.records.encode(record), to: url, durable: true, ownerOnly: false)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }

    /// Deletes the entry's file, companions and sidecar; the names of those that were there.
    private func delete(_ entry: ArchiveIndex.Entry, in folder: URL) -> [String] {
        let names = [entry.file] + (entry.companions ?? []).map(\.file) + [ArchiveNames.sidecarName(for: entry.file)]
        return names.filter { name in
            let url = folder.appendingPathComponent(name, isDirectory: false)
            guard files.fileExists(atPath: url.path) else { return false }
            return (try? files.removeItem(at: url)) != nil
        }
    }
}
