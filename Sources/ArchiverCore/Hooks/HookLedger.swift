// What the hook did for each episode of a show: `<show>/.podarchive/hooks.json`. A file of its own, not part of the
// index: an older podarchive ignores it, and nothing about the archive depends on it. It holds episode keys only;
// what a hook is told of an episode is read from the index (whose files are checked to be inside the folder), so a
// hostile record can name no file and no command.
// A hook owed is an intent written before its effect: a run with a hook records each new episode it is about to
// fetch as owed a hook (`failing` at 0, as 0.1.0 already wrote an episode archived by a run that ended before its
// hook ran, and reads the same way) durably, before the episode can be renamed into place or indexed; the hook's run
// settles it. Killed anywhere in between, the next run with a hook runs it: at least once across a crash, exactly
// once without one.
import Foundation

/// The hook state of one show: the episodes whose hook succeeded, those it failed for (and on how many runs), and
/// those given up.
struct HookLedger: Codable, Equatable, Sendable {
    /// Episodes (by index key) whose hook succeeded: never run again.
    var done: Set<String> = []
    /// Episodes owed a hook: those whose hook failed, with on how many runs, and those archived by a run that
    /// ended before their hook ran (0): run on the next run that has a hook.
    var failing: [String: Int] = [:]
    /// Episodes whose hook failed on `EpisodeHook.maximumRuns` runs: not run again.
    var gaveUp: Set<String> = []

    /// Whether the hook still owes `key` a run: not done, not given up.
    func owes(_ key: String) -> Bool { !done.contains(key) && !gaveUp.contains(key) }

    /// Records each of `keys` the hook owes a run as owed, unless it is already (a failure keeps its count);
    /// whether anything changed.
    mutating func owe<Keys: Sequence<String>>(_ keys: Keys) -> Bool {
        var changed = false
        for key in keys where owes(key) && failing[key] == nil {
            failing[key] = 0
            changed = true
        }
        return changed
    }

    /// Records the hook's run for `key`; the runs it has failed on so far, 0 when it succeeded.
    mutating func record(_ key: String, succeeded: Bool) -> Int {
        if succeeded {
            failing[key] = nil
            done.insert(key)
            return 0
        }
        let runs = (failing[key] ?? 0) + 1
        if runs >= EpisodeHook.maximumRuns {
            failing[key] = nil
            gaveUp.insert(key)
        } else {
            failing[key] = runs
        }
        return runs
    }

    /// Drops what is recorded of `key` (an episode forgotten, or taken back).
    mutating func drop(_ key: String) {
        done.remove(key)
        failing[key] = nil
        gaveUp.remove(key)
    }

}

extension ShowState {
    /// What the hook did for each episode: an intent, written durably before the episodes it owes are fetched.
    var hooks: RecordFile<HookLedger> { record(ArchiveLayout.hooksFile, .intent) }
}
