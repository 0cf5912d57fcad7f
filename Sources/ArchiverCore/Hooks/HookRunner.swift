// Runs the hook of a show's sync once its episodes are archived, its output captured (shown with its failure, or
// with `-v`): in place, recorded in the index (written whole),
// the show's lock still held. One at a time, in this order: the episodes owed a hook by an earlier run (failed, or
// archived by a run killed before their hook ran; in the index's order), then those archived by this run (in feed
// order). A hook that fails never costs its episode: it stays archived and recorded. What is owed is written
// durably before the episodes are fetched (`owe`), and settled after each run: a crash between the two runs the
// hook again on the next run (at least once); without a crash, once.
import Foundation

/// Runs a show's hooks after its sync, and keeps their state (`HookLedger`).
struct HookRunner {
    let records: ShowRecords
    /// Where an episode a hook handed off is recorded (its journal), before the hook's run is.
    var indexes: IndexStore? = nil
    /// The time a hand-off is recorded with.
    var clock: SyncClock? = nil

    /// What the hooks of a run came to: those that failed, and the episodes whose file a hook that succeeded moved
    /// or removed (handed off: see `AwayRecord.State.handedOff`), as their entries now are.
    struct Outcome {
        var problems: [HookProblem] = []
        var handedOff: [ArchiveIndex.Entry] = []
    }

    /// Records the new episodes `keys` of `show` as owed a hook, durably, before any of them is fetched: an episode
    /// renamed into place or indexed by a run killed before its hook ran is then still owed one.
    /// - Throws: `ArchiveError.storage` when the record cannot be written (the run stops before fetching).
    func owe(_ keys: [String], in show: FeedFolder) throws {
        guard !keys.isEmpty else { return }
        let record = show.state.hooks
        var ledger = record.load(records.files) ?? HookLedger()
        if ledger.owe(keys) { try record.save(ledger, records.writer) }
    }

    /// Runs `hook` for the episodes of `show` archived as `archived` (their paths) and for those owed one before;
    /// what failed, reported through `onEvent` as it happens as well.
    ///
    /// A hook that succeeded and left no file where the episode's was (`mv "$PODARCHIVE_FILE" ...`) handed the
    /// episode off: its entry is recorded so in the journal, durably, before the hook's run is recorded done, so no
    /// later sync fetches it again. Killed between the hook and that record, the episode is still owed its hook:
    /// the next sync finds its file missing, fetches it again and runs the hook again (at least once).
    func run(
        _ hook: EpisodeHook, in show: FeedFolder, archived: [URL], onEvent: @Sendable (SyncEvent) -> Void
    ) async -> Outcome {
        let record = show.state.hooks
        var ledger = record.load(records.files) ?? HookLedger()
        let byPath = Dictionary(
            show.index.episodes.map { (show.folder.appendingPathComponent($0.file, isDirectory: false).path, $0) }
        ) { first, _ in first }
        let new = archived.compactMap { byPath[$0.path] }.filter { ledger.owes($0.key) }
        let newKeys = Set(new.map(\.key))
        // One away on purpose (offloaded, handed off) has no file for a hook to be given.
        let retried = show.index.episodes.filter {
            ledger.failing[$0.key] != nil && !newKeys.contains($0.key) && $0.isHere
        }
        // An episode owed a hook that the index does not hold was not archived (its fetch failed, or a run was
        // killed first): nothing to run it for; the run that archives it owes it again.
        let known = Set(show.index.episodes.map(\.key))
        for key in ledger.failing.keys where !known.contains(key) { ledger.failing[key] = nil }
        let showName = show.index.title ?? show.folder.lastPathComponent
        // This run's episodes are owed already (see `owe`); one fetched again after its file went missing is
        // recorded here, before any hook runs.
        if ledger.owe(new.map(\.key)) { try? record.save(ledger, records.writer) }
        var outcome = Outcome()
        for entry in retried + new where ledger.owes(entry.key) {
            // Interrupted: the hooks not run stay owed; the one cut short is not counted against its episode.
            if Task.isCancelled { break }
            let ran = await hook.launcher.capturing(
                hook.command, environment: EpisodeHook.variables(for: entry, show: showName, folder: show.folder),
                timeout: hook.timeout)
            if Task.isCancelled { break }
            let exit = ran.exit
            if exit.succeeded, let gone = handedOff(entry, in: show) {
                // Recorded before the run is: unrecorded, the hook stays owed (see above).
                guard (try? indexes?.appendToJournal([gone], at: show.journalURL)) != nil else { continue }
                outcome.handedOff.append(gone)
            }
            let runs = ledger.record(entry.key, succeeded: exit.succeeded)
            // Settled after each run, durably: a run killed among its hooks leaves the ones done recorded as done
            // (killed between a hook's end and this write, that hook runs again next run).
            try? record.save(ledger, records.writer)
            guard let reason = exit.reason else {
                // What a hook that did its work printed is said only when asked (`-v`): cron stays quiet.
                if !ran.output.isEmpty {
                    onEvent(.hookSaid(episode: entry.title ?? entry.file, file: entry.file, output: ran.output))
                }
                continue
            }
            let problem = HookProblem(
                episode: entry.title ?? entry.file, file: entry.file, reason: reason, runs: runs,
                gaveUp: runs >= EpisodeHook.maximumRuns, output: ran.output)
            onEvent(.hookFailed(problem))
            outcome.problems.append(problem)
        }
        return outcome
    }

    /// `entry` as handed off, when its file is no longer in the show's folder after its hook; nil while it is.
    private func handedOff(_ entry: ArchiveIndex.Entry, in show: FeedFolder) -> ArchiveIndex.Entry? {
        guard let indexes, let clock else { return nil }
        func here(_ name: String) -> Bool {
            indexes.attributes.typeAndSize(atPath: show.folder.appendingPathComponent(name).path) != nil
        }
        guard !here(entry.file) else { return nil }
        var gone = entry
        gone.away = AwayRecord(
            state: .handedOff, since: FeedDate.iso8601(clock.now()),
            files: entry.awayFiles.filter { !here($0) })
        return gone
    }
}

extension EpisodeHook {
    /// The environment a hook gets for `entry` of the show `show` in `folder`. Values from the feed go here only,
    /// never into the command's text.
    static func variables(for entry: ArchiveIndex.Entry, show: String, folder: URL) -> [String: String] {
        [
            "PODARCHIVE_FILE": folder.appendingPathComponent(entry.file, isDirectory: false).path,
            "PODARCHIVE_TITLE": entry.title ?? "",
            "PODARCHIVE_SHOW": show,
            "PODARCHIVE_GUID": entry.guid ?? "",
            "PODARCHIVE_URL": URLSecrets.redacted(entry.url),
            "PODARCHIVE_DATE": entry.published ?? "",
            "PODARCHIVE_FOLDER": folder.path,
        ]
    }
}
