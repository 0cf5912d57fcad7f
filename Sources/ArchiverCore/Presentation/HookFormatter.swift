// What `sync` says of a hook that failed: the episode it ran for, why, and what happens next.

extension SyncFormatter {
    /// `, "hooks": [{"title", "file", "reason", "runs", "gaveUp"}]` in a feed's `sync --json` entry: the hooks
    /// that failed on this run.
    public static func hooksJSON(_ out: inout JSONWriter, _ problems: [HookProblem]) {
        out.raw(", \"hooks\": [")
        for (position, problem) in problems.enumerated() {
            out.raw(position == 0 ? "{\"title\": " : ", {\"title\": ")
            out.string(problem.episode)
            out.raw(", \"file\": ")
            out.string(problem.file)
            out.raw(", \"reason\": ")
            out.string(problem.reason)
            out.raw(", \"runs\": \(problem.runs), \"gaveUp\": \(problem.gaveUp)}")
        }
        out.raw("]")
    }

    /// `hook for episode "T" (file): exited with status 3; tried again on the next run (1 of 3 runs)`.
    public static func hookLine(_ problem: HookProblem) -> String {
        let next =
            problem.gaveUp
            ? "given up after \(problem.runs) runs: not run again for this episode"
            : "tried again on the next run (\(problem.runs) of \(EpisodeHook.maximumRuns) runs)"
        let timeout = problem.reason.hasSuffix("; stopped") ? " (--exec-timeout sets how long a hook may run)" : ""
        return
            "hook for episode \"\(oneLine(problem.episode))\" (\(oneLine(problem.file))): \(problem.reason)\(timeout); "
            + "the episode stays archived; \(next)" + hookOutput(problem.output)
    }

    /// `hook for episode "T" (file) printed:` and its output (`-v`, the hook having succeeded).
    public static func hookSaidLine(episode: String, file: String, output: String) -> String {
        "hook for episode \"\(oneLine(episode))\" (\(oneLine(file))) printed:" + hookOutput(output)
    }

    /// What a hook printed, below the line that names its episode: each line indented by `  | `; nothing when it
    /// printed nothing.
    static func hookOutput(_ output: String) -> String {
        var lines = output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return lines.map { "\n  | " + $0 }.joined()
    }
}
