// Forgetting an episode for good, and taking it back. Forgetting takes the show's lock as a sync does, and writes
// its intent first: the episode's entry goes into `ForgottenEpisodes` with the files still to delete (durably),
// then the entry leaves the index (and any failure of it), then the files go, then the record is settled
// (`FeedFolders.finishForgetting`). Killed at any point after the record, whichever command next takes the show's
// lock finishes it; no later sync fetches a forgotten episode again. An episode named again once forgotten is
// said to be forgotten already, not unknown.
import Foundation

/// What was forgotten of one episode.
public struct ForgottenEpisode: Equatable, Sendable {
    /// Its title (else its file's name).
    public var title: String
    /// Its file, inside the show's folder.
    public var file: String
    /// The files deleted: the episode's, its companions', its sidecar's (none when they were kept).
    public var deleted: [String]
    /// True when it had been forgotten before (by a forget this one finished, or long ago): nothing else changed.
    public var already = false
    /// True when it was listed by the feed and never downloaded: skipped before download (`file` is empty).
    public var skipped = false
    /// The folder its offloaded copies stay in, when it had been offloaded (`offload --into`): forget deletes only
    /// what is in the archive.
    public var offloadedTo: String?

    /// What was forgotten of the episode `title`, kept as `file`.
    public init(title: String, file: String, deleted: [String], already: Bool = false, skipped: Bool = false) {
        self.title = title
        self.file = file
        self.deleted = deleted
        self.already = already
        self.skipped = skipped
    }
}

/// An episode taken back (`forget --undo`).
public struct TakenBackEpisode: Equatable, Sendable {
    /// Its title (else its file's name).
    public var title: String
    /// Its file, inside the show's folder.
    public var file: String
    /// True when its file was kept and is in the index again now; false when the next sync fetches it.
    public var inIndexAgain: Bool

    /// What was taken back of the episode `title`, kept as `file`.
    public init(title: String, file: String, inIndexAgain: Bool) {
        self.title = title
        self.file = file
        self.inIndexAgain = inIndexAgain
    }
}

/// Forgets a show's episodes for good, and takes them back (`Archiver.forget`, `Archiver.takeBack`).
struct EpisodeForgetter: Sendable {
    private let files: any FileStore
    private let writer: any AtomicFileWriting
    private let folders: FeedFolders
    private let clock: SyncClock
    private let hasher: any FileHashing

    /// A forgetter opening shows through `folders` (an archiver's: its index store says what it folded), checking
    /// a kept file it takes back with `hasher`.
    init(folders: FeedFolders, clock: SyncClock, hasher: any FileHashing) {
        files = folders.files
        writer = folders.records.writer
        self.folders = folders
        self.clock = clock
        self.hasher = hasher
    }

    /// Forgets the episodes `names` (each a title, GUID or file name) of the show in `folder`: out of the index,
    /// recorded as unwanted, their files deleted unless `keepFiles`. Every name is resolved before anything changes;
    /// a name of an episode forgotten already is answered as such.
    /// - Throws: `ForgetError` for a name that names no episode or several; `ArchiveError.noArchive` for a folder
    ///   with no index, `.locked` when a sync holds the show past `lockWait`; `.storage` when it cannot be written.
    func forget(_ names: [String], inShow folder: URL, keepFiles: Bool, lockWait: TimeInterval = 0)
        async throws -> [ForgottenEpisode]
    {
        var show = try await open(folder, lockWait: lockWait)
        defer { show.lock.unlock() }
        let showName = ArchiveNames.showTitle(show.index.title, folder: folder)
        var record = ForgottenEpisodes.load(show.state.forgotten, files: files)
        var chosen: [ArchiveIndex.Entry] = []
        var already: [ArchiveIndex.Entry] = []
        var listed: [ArchiveIndex.Entry]?
        for name in names {
            let entry: ArchiveIndex.Entry
            do {
                entry = try Self.one(name, among: show.index.episodes, show: showName, forgotten: false)
            } catch ForgetError.unknownEpisode {
                // Forgotten already (a forget killed before it said so, finished when this one took the lock).
                if let earlier = try? Self.one(
                    name, among: record.episodes.map(\.entry), show: showName, forgotten: true)
                {
                    if !already.contains(where: { $0.key == earlier.key }) { already.append(earlier) }
                    continue
                }
                // Listed by the feed as last read, not archived: skipped before it is downloaded.
                listed = listed ?? listedNotArchived(in: show)
                entry = try Self.one(name, among: listed ?? [], show: showName, forgotten: false)
            }
            if !chosen.contains(where: { $0.key == entry.key }) { chosen.append(entry) }
        }
        let now = FeedDate.iso8601(clock.now())
        for entry in chosen {
            record.episodes.removeAll { $0.entry.key == entry.key }
            record.takenBack?.removeAll { $0.key == entry.key }
            // One never downloaded has no file to delete (its entry names none).
            let files = keepFiles || entry.file.isEmpty ? [] : ForgottenEpisodes.files(of: entry)
            record.episodes.append(.init(entry: entry, forgotten: now, pending: files))
        }
        var deleted: [String: [String]] = [:]
        if !chosen.isEmpty {
            // The intent, durably, before the index changes; then the effects, and the record settled.
            try show.state.forgotten.save(record, writer)
            deleted = try folders.finishForgetting(&show)
        }
        return chosen.map { entry in
            var forgotten = ForgottenEpisode(
                title: entry.shownName, file: entry.file,
                deleted: deleted[entry.key] ?? [],
                skipped: entry.file.isEmpty)
            if entry.away?.state == .offloaded { forgotten.offloadedTo = entry.away?.into }
            return forgotten
        }
            + already.map {
                ForgottenEpisode(
                    title: $0.shownName, file: $0.file, deleted: [], already: true,
                    skipped: $0.file.isEmpty)
            }
    }

    /// The episodes the show's feed listed when a sync last read it (the current document its history keeps) that
    /// the index does not hold, as entries naming no file: what `forget` skips before they are downloaded. None
    /// when no document is kept or it cannot be read.
    private func listedNotArchived(in show: FeedFolder) -> [ArchiveIndex.Entry] {
        HistoryStore.lastListed(by: show.state, files: files).filter { show.index.entry(for: $0) == nil }.map {
            episode in
            ArchiveIndex.Entry(
                key: episode.identity, guid: episode.guid, title: episode.title, url: episode.url, file: "",
                size: 0, published: episode.published.map(FeedDate.iso8601), archived: "")
        }
    }

    /// Takes back the forgotten episodes `names` of the show in `folder`: no longer unwanted. One whose file was
    /// kept, as it was recorded (its size and SHA-256), is in the index again at once; the others are fetched by
    /// the next sync, whatever its filter leaves out (`ForgottenEpisodes.takenBack`).
    /// - Throws: as `forget`.
    func takeBack(_ names: [String], inShow folder: URL, lockWait: TimeInterval = 0) async throws
        -> [TakenBackEpisode]
    {
        var show = try await open(folder, lockWait: lockWait)
        defer { show.lock.unlock() }
        let showName = ArchiveNames.showTitle(show.index.title, folder: folder)
        var record = ForgottenEpisodes.load(show.state.forgotten, files: files)
        var chosen: [ArchiveIndex.Entry] = []
        var returning: [ArchiveIndex.Entry] = []
        // Deleted by retention or handed off by a hook (see `AwayRecord`): taken back as a forgotten one is.
        let gone = show.index.episodes.filter { $0.away.map { $0.state != .offloaded } ?? false }
        for name in names {
            let entry: ArchiveIndex.Entry
            do {
                entry = try Self.one(name, among: record.episodes.map(\.entry), show: showName, forgotten: true)
            } catch let unknown as ForgetError where !gone.isEmpty {
                guard case .unknownEpisode = unknown,
                    let away = try? Self.one(name, among: gone, show: showName, forgotten: true)
                else { throw unknown }
                if !returning.contains(where: { $0.key == away.key }) { returning.append(away) }
                continue
            }
            if !chosen.contains(where: { $0.key == entry.key }) { chosen.append(entry) }
        }
        let back = try takeBackAway(returning, in: &show)
        record.episodes.removeAll { forgotten in chosen.contains { $0.key == forgotten.entry.key } }
        // A kept file, whole as recorded, goes back into the index now: no sync is needed, and none could take it
        // back under another name or outside its filter.
        let kept = chosen.filter(keptWhole(in: show))
        if !kept.isEmpty {
            for entry in kept { show.index.record(entry) }
            try folders.indexes.save(&show)
        }
        let keptKeys = Set(kept.map(\.key))
        let fetched = chosen.filter { !keptKeys.contains($0.key) }
        var wished = (record.takenBack ?? []).filter { entry in !show.index.episodes.contains { $0.key == entry.key } }
        wished.removeAll { entry in fetched.contains { $0.key == entry.key } }
        wished += fetched
        record.takenBack = wished.isEmpty ? nil : wished
        // The next sync must read the feed in full to find them (a 304 would hide them): marked before the record
        // changes, so a crash between the two leaves them forgotten, read in full once for nothing.
        if !fetched.isEmpty { try folders.records.readFeedInFullNextTime(of: show.state) }
        try show.state.forgotten.save(record, writer)
        return chosen.map {
            TakenBackEpisode(
                title: $0.shownName, file: $0.file,
                inIndexAgain: keptKeys.contains($0.key))
        } + back
    }

    /// Takes back episodes deleted by retention or handed off by a hook: their records cleared, so the next sync
    /// finds their files missing and fetches them again (read in full: a 304 would hide them).
    private func takeBackAway(_ entries: [ArchiveIndex.Entry], in show: inout FeedFolder) throws -> [TakenBackEpisode] {
        guard !entries.isEmpty else { return [] }
        for entry in entries { show.index.setAway(nil, forKey: entry.key) }
        try folders.records.readFeedInFullNextTime(of: show.state)
        try folders.indexes.save(&show)
        return entries.map { TakenBackEpisode(title: $0.shownName, file: $0.file, inIndexAgain: false) }
    }

    /// Whether the file `entry` names is in the show's folder as it was recorded (size and SHA-256), and no entry of
    /// the index claims that name now.
    private func keptWhole(in show: FeedFolder) -> (ArchiveIndex.Entry) -> Bool {
        let claimed = show.index.fileNames
        return { entry in
            guard let recorded = entry.sha256, !recorded.isEmpty, !claimed.contains(entry.file),
                IndexFormat.isInside(entry.file),
                let digest = try? hasher.sha256(ofFileAtPath: show.folder.appendingPathComponent(entry.file).path)
            else { return false }
            return digest.size == entry.size && digest.digest == recorded
        }
    }

    /// The show's folder, locked, its index read with its journal, a damaged journal folded as every command that
    /// writes folds one (see `IndexStore.save`); refused when it holds no index.
    private func open(_ folder: URL, lockWait: TimeInterval) async throws -> FeedFolder {
        guard ShowState(folder: folder).isShow(files) else {
            throw ArchiveError.noArchive(at: folder, attributes: folders.attributes)
        }
        return try await folders.openToWrite(
            folder: folder, source: .local(path: folder.path), lockWait: lockWait, wants: SyncOptions().wants)
    }

    /// The one entry `name` names: an entry's file (its path in the show's folder) names it outright; otherwise
    /// every entry whose file's last part, GUID, key or title is `name` answers, and more than one is ambiguous,
    /// whatever each answered by (a title of one and a GUID of another are two episodes, not a choice to make).
    static func one(_ name: String, among entries: [ArchiveIndex.Entry], show: String, forgotten: Bool) throws
        -> ArchiveIndex.Entry
    {
        if let byPath = entries.first(where: { $0.file == name }) { return byPath }
        var found: [(entry: ArchiveIndex.Entry, by: String)] = []
        for entry in entries {
            let by: String? =
                if (entry.file as NSString).lastPathComponent == name {
                    "file name"
                } else if entry.guid == name || entry.key == name { "GUID" } else if entry.title == name {
                    "title"
                } else { nil }
            if let by { found.append((entry, by)) }
        }
        if found.count == 1 { return found[0].entry }
        if found.count > 1 {
            throw ForgetError.ambiguous(name, candidates: found.map { .init(file: $0.entry.file, by: $0.by) })
        }
        throw ForgetError.unknownEpisode(name, show: show, forgotten: forgotten)
    }
}
