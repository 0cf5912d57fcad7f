// What `sync` says of a hook that failed: the episode it ran for, why, and what happens next.
import ArchiverCore

extension SyncFormatter {
    /// `hook for episode "T" (file): exited with status 3; tried again on the next run (1 of 3 runs)`.
    static func hookLine(_ problem: HookProblem) -> String {
        let next =
            problem.gaveUp
            ? "given up after \(problem.runs) runs: not run again for this episode"
            : "tried again on the next run (\(problem.runs) of \(EpisodeHook.maximumRuns) runs)"
        let timeout = problem.reason.hasSuffix("; stopped") ? " (--exec-timeout sets how long a hook may run)" : ""
        return
            "hook for episode \"\(oneLine(problem.episode))\" (\(oneLine(problem.file))): \(problem.reason)\(timeout); "
            + "the episode stays archived; \(next)"
    }
}
