// The exit codes podarchive promises to scripts and cron: `RunStatus`, whose raw values and order ArchiverCore
// keeps. Documented in `--help`, the README and the man page.
import ArchiverCore

/// How a run ended, as a process exit status.
typealias ExitCode = RunStatus

extension RunStatus {
    /// The codes a run can end with, worst first, as the help says them: "5, 2, 3, 4, 1".
    static let worstFirst = failuresWorstFirst.map { String($0.rawValue) }.joined(separator: ", ")
}
