// Runs the hook of a show's sync once its episodes are archived: in place, recorded in the index (written whole),
// the show's lock still held, so two syncs never run one episode's hook twice. One at a time, in this order: the
// episodes whose hook failed on an earlier run (in the index's order), then those archived by this run (in feed
// order). A hook that fails never costs its episode: it stays archived and recorded.
import Foundation

/// Runs a show's hooks after its sync, and keeps their state (`HookLedger`).
struct HookRunner {
    let records: ShowRecords

    /// Runs `hook` for the episodes of `show` archived as `archived` (their paths) and for those whose hook failed
    /// before; what failed, reported through `onEvent` as it happens as well.
    func run(
        _ hook: EpisodeHook, in show: FeedFolder, archived: [URL], onEvent: @Sendable (SyncEvent) -> Void
    ) async -> [HookProblem] {
        let url = HookLedger.url(in: show.stateFolder)
        var ledger: HookLedger = records.load(url) ?? HookLedger()
        let byPath = Dictionary(
            show.index.episodes.map { (show.folder.appendingPathComponent($0.file, isDirectory: false).path, $0) }
        ) { first, _ in first }
        let retried = show.index.episodes.filter { ledger.failing[$0.key] != nil }
        let new = archived.compactMap { byPath[$0.path] }.filter { ledger.failing[$0.key] == nil }
        // A failing record for an episode the index no longer holds is dropped: there is nothing to run it for.
        let known = Set(show.index.episodes.map(\.key))
        for key in ledger.failing.keys where !known.contains(key) { ledger.failing[key] = nil }
        let showName = show.index.title ?? show.folder.lastPathComponent
        // This run's episodes are recorded as owed a hook before any runs: a run killed or interrupted among its
        // hooks leaves the rest to the next run.
        let owed = new.filter { ledger.owes($0.key) }
        for entry in owed { ledger.failing[entry.key] = 0 }
        if !owed.isEmpty { try? records.save(ledger, to: url) }
        var problems: [HookProblem] = []
        for entry in retried + owed where ledger.owes(entry.key) {
            // Interrupted: the hooks not run stay owed; the one cut short is not counted against its episode.
            if Task.isCancelled { break }
            let exit = await hook.launcher.run(
                hook.command, environment: EpisodeHook.variables(for: entry, show: showName, folder: show.folder),
                timeout: hook.timeout)
            if Task.isCancelled { break }
            let runs = ledger.record(entry.key, succeeded: exit.succeeded)
            // Saved after each run: a run killed while hooks run leaves the ones done recorded as done.
            try? records.save(ledger, to: url)
            guard let reason = exit.reason else { continue }
            let problem = HookProblem(
                episode: entry.title ?? entry.file, file: entry.file, reason: reason, runs: runs,
                gaveUp: runs >= EpisodeHook.maximumRuns)
            onEvent(.hookFailed(problem))
            problems.append(problem)
        }
        return problems
    }
}
