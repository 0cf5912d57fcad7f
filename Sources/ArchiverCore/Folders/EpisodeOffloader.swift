// Retention without loss: `offload` (and a show's saved retention, after each sync) moves a show's older episodes (with their companions and sidecars) to another
// folder, or deletes them when asked in so many words, and `offload --restore` brings them back. The index keeps
// each entry with an `AwayRecord`, so no sync fetches the episode again and every command says where it went.
// Intent first: the records are saved pending, then `AwayFinisher` does the copies (each checked against the
// index's SHA-256) and only then the deletions, then settles them; killed anywhere, the next command that takes the
// show's lock finishes or undoes it.
import Foundation

/// Offloads and restores a show's episodes (`Archiver.offload`, `Archiver.restore`).
struct EpisodeOffloader: Sendable {
    let folders: FeedFolders
    let clock: SyncClock

    /// The episodes of `entries` that `retention` lets go, in index order: of those in the show's folder (not away
    /// already, not skipped before download), the ones past the newest `keepLast` by date, or published before the
    /// date; an episode with no date counts as published when it was archived.
    static func leaving(_ entries: [ArchiveIndex.Entry], retention: Retention, now: Date) -> [ArchiveIndex.Entry] {
        let here = entries.enumerated().filter { $0.element.isHere && !$0.element.file.isEmpty }
        func date(_ entry: ArchiveIndex.Entry) -> Date {
            if let published = entry.published, let date = FeedDate.parseRFC3339(published) { return date }
            return FeedDate.parseRFC3339(entry.archived) ?? .distantPast
        }
        let going: Set<Int>
        switch retention {
        case .keepLast(let count):
            // Newest first; of one date, the later archived is the newer.
            let newestFirst = here.sorted { a, b in
                let (da, db) = (date(a.element), date(b.element))
                return da != db ? da > db : a.offset > b.offset
            }
            going = Set(newestFirst.dropFirst(max(0, count)).map(\.offset))
        case .before(let moment):
            going = Set(here.filter { date($0.element) < moment }.map(\.offset))
        case .keepDays(let days):
            let moment = now.addingTimeInterval(-Double(days) * 86_400)
            going = Set(here.filter { date($0.element) < moment }.map(\.offset))
        }
        return here.filter { going.contains($0.offset) }.map(\.element)
    }

    /// Offloads (or deletes) the episodes of the open `show` that `retention` lets go: their records saved pending,
    /// then the files moved and the records settled (`AwayFinisher`). With `dryRun`, only says which would go.
    /// - Throws: `ArchiveError.storage` when the index cannot be written.
    func apply(
        _ retention: Retention, target: RetentionTarget, to show: inout FeedFolder, dryRun: Bool
    ) throws -> [OffloadedEpisode] {
        let now = clock.now()
        if dryRun {
            return Self.planned(show.index.episodes, retention: retention, target: target, show: show.folder, now: now)
        }
        let leaving = Self.leaving(show.index.episodes, retention: retention, now: now)
        let into = Self.intoFolder(target, show: show.folder)
        let state: AwayRecord.State = into == nil ? .deleted : .offloaded
        func answer(_ entry: ArchiveIndex.Entry, bytes: Int64 = 0, failed: String? = nil) -> OffloadedEpisode {
            Self.said(entry, into: into, bytes: bytes, failed: failed)
        }
        guard !leaving.isEmpty, let finisher = folders.away else { return [] }
        // Checked again under the lock (a saved retention's folder was checked when it was saved, a disk may have
        // gone since): nothing moves into a folder that is not there, which would fill the archive's own disk.
        if case .into(let target) = target {
            do {
                try check(target, root: show.folder.deletingLastPathComponent())
            } catch {
                return leaving.map { answer($0, failed: error.reasonText) }
            }
        }
        let since = FeedDate.iso8601(now)
        for entry in leaving {
            let present = entry.awayFiles.filter {
                IndexFormat.isInside($0)
                    && folders.attributes.typeAndSize(atPath: show.folder.appendingPathComponent($0).path) != nil
            }
            show.index.setAway(
                AwayRecord(
                    state: state, since: since, into: into, files: present, pending: into == nil ? .delete : .offload),
                forKey: entry.key)
        }
        // The intent, durably, before any file moves.
        try folders.indexes.save(&show)
        let results = Dictionary(try finisher.finish(&show), uniquingKeysWith: { a, _ in a })
        return leaving.map { entry in
            switch results[entry.key] {
            case .done(let moved)?: answer(entry, bytes: moved)
            case .failed(let why)?: answer(entry, failed: why)
            case nil: answer(entry)
            }
        }
    }

    /// Refuses a folder to offload into that is not a folder (a disk not mounted), or is inside the archive `root`
    /// (links followed).
    /// - Throws: `OffloadError`.
    func check(_ target: URL, root: URL) throws {
        let path = target.standardizedFileURL.resolvingSymlinksInPath().path
        guard reachable(path) else { throw OffloadError.noFolder(target.path) }
        let archive = root.standardizedFileURL.resolvingSymlinksInPath().path
        if path == archive || path.hasPrefix(archive.hasSuffix("/") ? archive : archive + "/") {
            throw OffloadError.insideArchive(target.path, root: root.path)
        }
    }

    /// What `retention` would let go of `entries` (a show's index, or the index as a sync would leave it) and where,
    /// said before anything moves: `offload --dry-run`, and `sync -n` (see `SyncPlanner`).
    static func planned(
        _ entries: [ArchiveIndex.Entry], retention: Retention, target: RetentionTarget, show folder: URL, now: Date
    ) -> [OffloadedEpisode] {
        let into = intoFolder(target, show: folder)
        return leaving(entries, retention: retention, now: now).map { said($0, into: into) }
    }

    /// How `entry` is said once it went `into` that folder (nil: deleted), or did not.
    private static func said(
        _ entry: ArchiveIndex.Entry, into: String?, bytes: Int64 = 0, failed: String? = nil
    ) -> OffloadedEpisode {
        OffloadedEpisode(
            title: entry.shownName, file: entry.file, deleted: into == nil, into: into, bytes: bytes, failed: failed)
    }

    /// The folder a show's files are offloaded into: a folder of the show's folder's name inside the target.
    private static func intoFolder(_ target: RetentionTarget, show folder: URL) -> String? {
        guard case .into(let root) = target else { return nil }
        return root.standardizedFileURL.appendingPathComponent(folder.lastPathComponent, isDirectory: true).path
    }

    /// Whether the folder `path` is there to read.
    func reachable(_ path: String) -> Bool {
        folders.attributes.typeAndSize(atPath: path)?.type == .typeDirectory
    }
}
