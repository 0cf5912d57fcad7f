// `podarchive rename`: the files a show already holds given the names its template gives new ones. Each episode is
// named as a sync would name it now, from the feed as the last sync read it (the current document its history
// keeps: no network), else from what its index entry recorded (an episode removed upstream); its companions and
// sidecar follow it. The plan is written as an intent (`PendingRenames`) before any file moves, then carried out
// by `RenameFinisher`, which a killed rename's next command also runs.
import Foundation

/// One episode's files given a new name (or planned to be).
public struct RenamedEpisode: Equatable, Sendable {
    /// Its title (else its file's name).
    public var title: String
    /// Its file's name before, in the show's folder.
    public var from: String
    /// Its file's name after.
    public var to: String
    /// How many of its other files (companions, sidecar) move with it.
    public var others: Int
    /// Why a file of it kept its name; nil when all moved (or were only planned to).
    public var failed: String?
}

/// Plans and carries out the renames of one show, its lock held.
struct EpisodeRenamer: Sendable {
    let files: any FileStore
    let writer: any AtomicFileWriting
    let folders: FeedFolders
    /// The episode as the archive keeps it (see `SecretForms`): how the index knows the feed's episodes.
    let stored: @Sendable (Episode) -> Episode

    /// Renames (or with `dryRun`, only plans to) every file of `show` whose name is not the one `template` gives.
    /// - Throws: `ArchiveError.storage` when the intent, the numbers or the index cannot be written.
    func rename(_ show: inout FeedFolder, template given: NameTemplate, dryRun: Bool) throws -> [RenamedEpisode] {
        let listed = HistoryStore.lastListed(by: show.state, files: files)
        var template = given
        if template.usesNumbers {
            template.numbers = try folders.records.numbered(
                listed, index: show.index, of: show.state, save: !dryRun)
        }
        let plan = self.plan(show, template: template, listed: listed)
        let planned = plan.map { renamed, entry in
            RenamedEpisode(
                title: entry.shownName, from: renamed.moves[0].from, to: renamed.moves[0].to,
                others: renamed.moves.count - 1, failed: nil)
        }
        guard !dryRun, !plan.isEmpty else { return planned }
        try show.state.renames.save(PendingRenames(episodes: plan.map(\.renamed)), writer)
        let outcomes = try RenameFinisher(
            files: files, attributes: folders.attributes, mover: folders.mover, indexes: folders.indexes
        ).finish(&show)
        // The first reason a file of each episode kept its name.
        let failed = Dictionary(
            outcomes.compactMap { outcome in outcome.failed.map { (outcome.key, $0) } },
            uniquingKeysWith: { first, _ in first })
        return planned.enumerated().map { position, episode in
            var episode = episode
            episode.failed = failed[plan[position].renamed.key]
            return episode
        }
    }

    /// Each episode here whose name changes, with the moves of its files, in index order.
    private func plan(_ show: FeedFolder, template: NameTemplate, listed: [Episode])
        -> [(renamed: PendingRenames.Renamed, entry: ArchiveIndex.Entry)]
    {
        let index = show.index
        let byKey = Dictionary(
            listed.map(stored).compactMap { episode in index.entry(for: episode).map { ($0.key, episode) } },
            uniquingKeysWith: { first, _ in first })
        var taken = index.fileNames
        for entry in index.episodes { taken.formUnion(entry.awayFiles) }
        var names = NameAllocator(taken: taken, sidecars: true)
        let title = ArchiveNames.showTitle(index.title, folder: show.folder)
        var plan: [(renamed: PendingRenames.Renamed, entry: ArchiveIndex.Entry)] = []
        // Paths made as text: a URL made for each name asked about cost most of a rename of a large show.
        let folder = show.folder.path + "/"
        func exists(_ name: String) -> Bool { files.fileExists(atPath: folder + name) }
        for entry in index.episodes where entry.isHere && !entry.file.isEmpty {
            let episode = byKey[entry.key] ?? Self.episode(of: entry)
            var wanted = template.newFile(for: episode, feedTitle: title)
            wanted.ext = NewFileName(parsing: entry.file).ext
            names.release(entry.file)
            var name = names.claim(wanted)
            // A file the index does not name (the user's own) is never replaced: the next name is taken.
            for _ in 0..<1000 where name != entry.file && exists(name) { name = names.claim(wanted) }
            guard name != entry.file, !exists(name) else {
                if name != entry.file { names.release(name) }
                _ = names.claim(exactly: entry.file)
                continue
            }
            var moves = [PendingRenames.Move(from: entry.file, to: name)]
            let oldStem = Self.stem(entry.file)
            let newStem = Self.stem(name)
            for companion in entry.companions ?? [] where companion.file.hasPrefix(oldStem + ".") {
                let moved = newStem + companion.file.dropFirst(oldStem.count)
                if !exists(moved), names.claim(exactly: moved) {
                    moves.append(PendingRenames.Move(from: companion.file, to: moved))
                }
            }
            let sidecar = ArchiveNames.sidecarName(for: entry.file)
            if exists(sidecar) {
                moves.append(PendingRenames.Move(from: sidecar, to: ArchiveNames.sidecarName(for: name)))
            }
            plan.append((PendingRenames.Renamed(key: entry.key, moves: moves), entry))
        }
        return plan
    }

    /// `Season 1/Pilot.mp3` without its extension: `Season 1/Pilot`.
    private static func stem(_ file: String) -> String {
        let parsed = NewFileName(parsing: file)
        return parsed.prefix + parsed.stem
    }

    /// What the index recorded of an episode the feed no longer lists, as an episode to name.
    private static func episode(of entry: ArchiveIndex.Entry) -> Episode {
        var episode = Episode(
            title: entry.title, guid: entry.guid, url: entry.url,
            published: entry.published.flatMap(FeedDate.parseRFC3339))
        episode.storedIdentity = entry.key
        return episode
    }
}

extension Archiver {
    /// Renames the files of the show in `folder` as its template (`settings` over the show's saved ones) names new
    /// ones; only plans with `dryRun`. A template or `--ascii-names` given on the command line is saved with the
    /// show, so what it fetches next is named so too.
    /// - Throws: `ArchiveError.noArchive` for a folder with no index, `.locked` when a sync holds the show past
    ///   `lockWait`, `.storage` when a record cannot be written, `SettingsError` for a saved template that is not
    ///   valid.
    func rename(inShow folder: URL, settings: CommandSettings, dryRun: Bool, lockWait: TimeInterval) async throws
        -> [RenamedEpisode]
    {
        guard ShowState(folder: folder).isShow(parts.files) else {
            throw ArchiveError.noArchive(at: folder, attributes: parts.folders.attributes)
        }
        let root = folder.deletingLastPathComponent()
        let record = parts.store.subscription(inFolder: folder.lastPathComponent, in: root)
        let template = try settings.options(saved: record?.settings).names
        var show = try await parts.folders.openToWrite(
            folder: folder, source: .local(path: folder.path), lockWait: lockWait, wants: SyncOptions().wants)
        defer { show.lock.unlock() }
        if !dryRun, var saved = record, settings.given.name != nil || settings.given[.asciiNames] != nil {
            var kept = saved.settings ?? ShowSettings()
            kept.name = settings.given.name ?? kept.name
            kept[.asciiNames] = settings.given[.asciiNames] ?? kept[.asciiNames]
            saved.settings = kept
            try parts.store.save(saved, in: root)
        }
        let forms = (try? parts.store.identity(of: root, create: false))?.map { SecretForms(identity: $0) }
        return try EpisodeRenamer(
            files: parts.files, writer: parts.writer, folders: parts.folders,
            stored: { episode in forms.map { $0.episode(episode) } ?? episode }
        ).rename(&show, template: template, dryRun: dryRun)
    }
}
