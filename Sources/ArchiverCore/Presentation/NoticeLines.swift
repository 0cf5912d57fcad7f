// What `sync` says of telling a run's end (`--notify`, `--exec-after-run`): only what failed, or with `-v` what
// the command printed.

extension SyncRunReport.Notices {
    /// What telling a run's end came to, for standard error: a line for each notification that failed, and the
    /// command run after the run when it failed (with what it printed), or with `verbose` what it printed.
    public func lines(verbose: Bool) -> String {
        var lines = problems.map {
            "podarchive: could not notify \($0.url): \($0.reason)"
                + ($0.timedOut ? " (--notify-timeout sets how long it may take)" : "") + "\n"
        }
        if let failure = commandFailure {
            lines.append(
                "podarchive: --exec-after-run \(failure); the run's exit status is unchanged"
                    + SyncFormatter.hookOutput(commandOutput) + "\n")
        } else if verbose, !commandOutput.isEmpty {
            lines.append("--exec-after-run printed:" + SyncFormatter.hookOutput(commandOutput) + "\n")
        }
        return lines.joined()
    }
}
