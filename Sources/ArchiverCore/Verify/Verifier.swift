// `podarchive verify`: recheck every archived file against the size and SHA-256 its index recorded, and on request
// fetch again what is missing, resized or changed.
import Foundation

/// What is wrong with one archived file.
public struct VerifyProblem: Sendable, Equatable {
    /// How the file differs from its index entry.
    public enum Kind: Sendable, Equatable {
        /// The file is gone.
        case missing
        /// The file's size is not the one recorded.
        case resized(actual: Int64, recorded: Int64)
        /// Same size, different SHA-256.
        case changed
    }

    /// The feed folder.
    public var folder: URL
    /// The file's path inside the feed folder, as the index records it.
    public var file: String
    /// What is wrong with it.
    public var kind: Kind
    /// When the publisher's file has changed since it was archived, the newer version kept beside it: this one
    /// cannot be repaired, and `--repair` leaves it as it is.
    public var replacedBy: String?
}

/// Something `verify` found or did.
public enum VerifyEvent: Sendable, Equatable {
    /// A file is missing, resized or changed.
    case problem(VerifyProblem)
    /// `--repair` downloaded it again and it matches.
    case repaired(VerifyProblem)
    /// `--repair` could not download it; the old file, if any, was kept.
    case repairFailed(VerifyProblem, EpisodeFailure)
    /// An episode never archived is recorded as gone upstream (no problem of the archive: nothing to check).
    case gone(folder: URL, failure: ArchiveIndex.Failure)
    /// `--repair` found the publisher's file changed since it was archived: the damaged file stays (it is what was
    /// published), the new content is kept beside it as `version`, and the damaged one is unrecoverable.
    case upstreamChanged(VerifyProblem, version: String)
    /// A revision of the feed's history cannot be read back (its gzip check fails): named, and left as it is.
    case historyDamaged(folder: URL, file: String, reason: String)
    /// Records of a show's index journal are damaged (not its last, which a crash leaves torn): the intact ones
    /// are applied; a repair folds the journal, and the next sync finds the damaged ones' episodes again.
    case journalDamaged(JournalDamage)
    /// Two entries of a show's index claim one file or one key: both are named, and a repair touches neither.
    case clash(folder: URL, ArchiveIndex.Clash)
    /// A note on an intact file, no problem of the archive: it was kept although it does not match the
    /// publisher's hash (a host that inserts ads), or it carries a PGP signature that was recorded, not checked.
    case note(folder: URL, file: String, reason: String)
    /// An episode whose files left the show's folder on purpose (see `AwayRecord`): offloaded (`checked` when its
    /// folder was reachable and its files were checked there: a problem there is said as one, never repaired),
    /// deleted by retention, or handed off by a hook. None is missing, and `--repair` fetches none.
    case away(folder: URL, entry: ArchiveIndex.Entry, checked: Bool)
    /// The show in `folder` was read without its lock, which cannot be taken where the archive cannot be written
    /// (`why`, an `ArchiveError.readOnly`): a sync writing it meanwhile could make a file look damaged.
    case unlocked(folder: URL, why: ArchiveError)
}

/// The outcome of `verify`.
public struct VerifyReport: Sendable, Equatable {
    /// Feed folders checked.
    public var feeds = 0
    /// Archived files checked.
    public var files = 0
    /// Every file found missing, resized or changed.
    public var problems: [VerifyProblem] = []
    /// The problems `--repair` fixed by downloading the file again.
    public var repaired: [VerifyProblem] = []
    /// Damaged files whose publisher's file has changed: unrecoverable upstream (a newer version is kept beside).
    public var unrecoverable: [VerifyProblem] = []
    /// Episodes recorded as gone upstream: their publisher deleted them before they could be archived.
    public var gone = 0
    /// Revisions of feed histories that cannot be read back.
    public var damagedHistory = 0
    /// Damaged records of index journals (see `VerifyEvent.journalDamaged`).
    public var damagedJournalRecords = 0
    /// Pairs of index entries that claim one file or one key: their files are never repaired.
    public var clashes: [ArchiveIndex.Clash] = []
    /// Notes on intact files (see `VerifyEvent.note`); they fail no run.
    public var notes = 0
    /// Episodes whose files are away on purpose, by state (see `VerifyEvent.away`).
    public var away: [AwayRecord.State: Int] = [:]
    /// Of those offloaded, how many could not be checked because their folder was not reachable.
    public var unreachable = 0

    /// Problems still there after the run (all of them without `--repair`), but for damaged files already known
    /// to be unrecoverable upstream before this run: those are listed, and fail no later run.
    public var remaining: Int {
        problems.count - repaired.count - problems.count { $0.replacedBy != nil } + damagedHistory
            + damagedJournalRecords + clashes.count
    }
}

/// Rechecks archived files against their index, and repairs them with the sync's own fetcher and placer.
struct Verifier: Sendable {
    let folders: FeedFolders
    let indexes: IndexStore
    let records: ShowRecords
    let history: HistoryStore
    let contents: FolderContents
    let files: any FileStore
    let mover: any FileMovement
    let fetcher: EpisodeFetcher
    var placer: EpisodePlacer
    let hasher: any FileHashing

    /// Rechecks the archive at `directory`: one feed folder, or an archive root holding many.
    ///
    /// - Parameter repair: download again every missing, resized or changed file (the damaged file is kept aside
    ///   until its replacement is in place).
    /// - Throws: `ArchiveError.noArchive` when `directory` holds no index; `.locked` when a sync holds a feed.
    /// - Parameter access: the options a repair of the show in a folder downloads with (its saved credentials).
    func verify(
        _ directory: URL, repair: Bool, options given: SyncOptions, onEvent: @Sendable (VerifyEvent) -> Void,
        access: (URL, SyncOptions) throws -> SyncOptions = { $1 },
        realURLs: (URL, ArchiveIndex, SyncOptions) async -> RealURLs = { _, _, _ in RealURLs() }
    ) async throws -> VerifyReport {
        let shows = try feedFolders(in: directory)
        var report = VerifyReport()
        for folder in shows {
            let options = repair ? try access(folder, given) : given
            // A recheck changes nothing: it works where the archive cannot be written, locked there as far as it
            // can be (see `FeedFolders.openForReading`); a repair takes the lock as a sync does, or stops.
            var show: FeedFolder
            if repair {
                show = try await folders.open(
                    folder: folder, source: .local(path: folder.path), lockWait: options.lockWait,
                    wants: options.wants)
            } else {
                let opened = try await folders.openForReading(
                    folder: folder, source: .local(path: folder.path), lockWait: options.lockWait,
                    wants: options.wants)
                show = opened.show
                if let why = opened.unlocked { onEvent(.unlocked(folder: folder, why: why)) }
            }
            defer {
                records.closeDownloadLog(of: show.state)  // a repair's records, kept open while it ran
                show.lock.unlock()
            }
            report.feeds += 1
            if let damage = show.journalDamage {
                report.damagedJournalRecords += damage.records.count
                onEvent(.journalDamaged(damage))
            }
            // A repair appends to the journal: never after a torn or damaged record.
            if repair { try indexes.foldDamagedJournal(of: &show) }
            for failure in show.index.failures where failure.gone != nil {
                report.gone += 1
                onEvent(.gone(folder: folder, failure: failure))
            }
            // The feed's history: every kept revision must read back (gzip checks its own CRC and length).
            for (file, reason) in history.damagedRevisions(in: show) {
                report.damagedHistory += 1
                onEvent(.historyDamaged(folder: folder, file: file, reason: reason))
            }
            // Two entries that claim one file or one key: neither is repaired, whichever the file's bytes are.
            let clashes = show.index.clashes()
            for clash in clashes {
                report.clashes.append(clash)
                onEvent(.clash(folder: folder, clash))
            }
            let untouchable = Set(clashes.flatMap { [$0.first.position, $0.second.position] })
            // Files in the subfolders `--name` templates make are found too (one listing per subfolder).
            let present = contents.presentFiles(in: folder, index: show.index)
            var damaged: [(ArchiveIndex.Entry, VerifyProblem)] = []
            var damagedCompanions: [(ArchiveIndex.Entry, CompanionFile, VerifyProblem)] = []
            for (position, entry) in zip(1..., show.index.episodes) {
                if let away = entry.away {
                    checkAway(entry, away, folder: folder, report: &report, onEvent: onEvent)
                    continue
                }
                let repairable = !untouchable.contains(position)
                report.files += 1
                // Its transcripts, chapters and artwork too: a damaged one is fetched again by --repair.
                for companion in entry.companions ?? [] {
                    report.files += 1
                    if let problem = check(
                        file: companion.file, size: companion.size, sha256: companion.sha256, in: folder,
                        present: present)
                    {
                        report.problems.append(problem)
                        onEvent(.problem(problem))
                        if repairable { damagedCompanions.append((entry, companion, problem)) }
                    }
                }
                guard
                    var problem = check(entry, in: folder, present: present)
                        ?? checkPublisher(entry, in: folder, report: &report, onEvent: onEvent)
                else { continue }
                problem.replacedBy = entry.replacedBy
                report.problems.append(problem)
                onEvent(.problem(problem))
                if entry.replacedBy != nil {
                    report.unrecoverable.append(problem)
                } else if repairable {
                    damaged.append((entry, problem))
                }
            }
            if repair {
                // What a repair writes of the show (its entries, origins, records) is kept as its taint says.
                try await options.taint.run {
                    try await self.repair(
                        damaged, damagedCompanions, in: &show, options: options, present: present, report: &report,
                        onEvent: onEvent, realURLs: realURLs)
                }
                // As a sync does when it ends: what the repair appended is folded into `index.json`.
                try indexes.foldJournal(of: &show)
            }
        }
        return report
    }

    /// An episode away on purpose: counted by state; an offloaded one's files checked where they went when that
    /// folder is reachable (a problem there is reported, never repaired: a repair fetches nothing away).
    private func checkAway(
        _ entry: ArchiveIndex.Entry, _ away: AwayRecord, folder: URL, report: inout VerifyReport,
        onEvent: @Sendable (VerifyEvent) -> Void
    ) {
        report.away[away.state, default: 0] += 1
        guard away.state == .offloaded, let into = away.into else {
            onEvent(.away(folder: folder, entry: entry, checked: false))
            return
        }
        let there = URL(fileURLWithPath: into, isDirectory: true)
        guard folders.attributes.typeAndSize(atPath: into)?.type == .typeDirectory else {
            report.unreachable += 1
            onEvent(.away(folder: folder, entry: entry, checked: false))
            return
        }
        // Checked by path, not by a listing of the folder: thousands offloaded into one folder are each a lookup.
        let present = Set<String>()
        var checks = [(entry.file, entry.size, entry.sha256)]
        checks += (entry.companions ?? []).map { ($0.file, $0.size, Optional($0.sha256)) }
        for (file, size, sha256) in checks where away.files.contains(file) {
            report.files += 1
            if let problem = check(file: file, size: size, sha256: sha256, in: there, present: present) {
                report.problems.append(problem)
                onEvent(.problem(problem))
            }
        }
        onEvent(.away(folder: folder, entry: entry, checked: true))
    }

    private func check(_ entry: ArchiveIndex.Entry, in folder: URL, present: Set<String>) -> VerifyProblem? {
        check(file: entry.file, size: entry.size, sha256: entry.sha256, in: folder, present: present)
    }

    private func check(file: String, size: Int64, sha256: String?, in folder: URL, present: Set<String>)
        -> VerifyProblem?
    {
        let path = folder.appendingPathComponent(file).path
        guard present.contains(file) || files.fileExists(atPath: path),
            let digest = try? hasher.sha256(ofFileAtPath: path)
        else {
            return VerifyProblem(folder: folder, file: file, kind: .missing)
        }
        if digest.size != size {
            return VerifyProblem(folder: folder, file: file, kind: .resized(actual: digest.size, recorded: size))
        }
        if let sha256, sha256 != digest.digest {
            return VerifyProblem(folder: folder, file: file, kind: .changed)
        }
        return nil
    }

    /// `directory` itself when it is a feed folder, else every feed folder directly inside it.
    func feedFolders(in directory: URL) throws -> [URL] {
        func isFeedFolder(_ url: URL) -> Bool { ShowState(folder: url).isShow(files) }
        if isFeedFolder(directory) { return [directory] }
        let children = ((try? files.contentsOfDirectory(atPath: directory.path)) ?? []).sorted()
        let shows = children.filter { !$0.hasPrefix(".") }.map {
            directory.appendingPathComponent($0, isDirectory: true)
        }
        .filter(isFeedFolder)
        guard !shows.isEmpty else { throw ArchiveError.noArchive(at: directory, attributes: folders.attributes) }
        return shows
    }
}
