// `verify --json`: one JSON document with every finding of a recheck (and of a repair), for scripts and
// monitoring. The events are gathered as they come and written once the report is in.
import ArchiverCore
import Foundation

/// What `verify` found, gathered from its events for the JSON document.
final class VerifyFindings: @unchecked Sendable {
    private let lock = NSLock()
    private var repairErrors: [String: String] = [:]
    private var versions: [String: String] = [:]
    private var goneEpisodes: [(folder: URL, failure: ArchiveIndex.Failure)] = []
    private var history: [(folder: URL, file: String, reason: String)] = []
    private var journals: [JournalDamage] = []
    private var clashes: [(folder: URL, clash: ArchiveIndex.Clash)] = []

    /// Keeps what the event adds to the report (problems and repairs are in the report itself).
    func record(_ event: VerifyEvent) {
        lock.withLock {
            switch event {
            case .problem, .repaired: break
            case .repairFailed(let problem, let failure): repairErrors[Self.key(problem)] = failure.reason
            case .upstreamChanged(let problem, let version): versions[Self.key(problem)] = version
            case .gone(let folder, let failure): goneEpisodes.append((folder, failure))
            case .historyDamaged(let folder, let file, let reason): history.append((folder, file, reason))
            case .journalDamaged(let damage): journals.append(damage)
            case .clash(let folder, let clash): clashes.append((folder, clash))
            }
        }
    }

    private static func key(_ problem: VerifyProblem) -> String { problem.folder.path + "/" + problem.file }

    /// `{"feeds", "files", "remaining", "problems": [{"folder", "file", "kind", "size", "recorded", "state",
    /// "reason", "replacedBy"}], "gone": [{"folder", "title", "url", "reason", "since"}], "damagedHistory":
    /// [{"folder", "file", "reason"}], "index": ["<a damaged journal record or two entries naming one file, as
    /// the line verify prints>"]}`; folders relative to `root`.
    func json(_ report: VerifyReport, root: URL) -> String {
        lock.withLock {
            var out = JSONWriter()
            out.raw("{\"feeds\": \(report.feeds), \"files\": \(report.files), \"remaining\": \(report.remaining),")
            out.raw(" \"problems\": [")
            let repaired = Set(report.repaired.map(Self.key))
            for (position, problem) in report.problems.enumerated() {
                let key = Self.key(problem)
                out.raw(position == 0 ? "\n  {\"folder\": " : ",\n  {\"folder\": ")
                out.string(SyncFormatter.relative(problem.folder, to: root))
                out.raw(", \"file\": ")
                out.string(problem.file)
                switch problem.kind {
                case .missing: out.raw(", \"kind\": \"missing\", \"size\": null, \"recorded\": null")
                case .changed: out.raw(", \"kind\": \"changed\", \"size\": null, \"recorded\": null")
                case .resized(let actual, let recorded):
                    out.raw(", \"kind\": \"resized\", \"size\": \(actual), \"recorded\": \(recorded)")
                }
                let replacedBy = versions[key] ?? problem.replacedBy
                let state =
                    repaired.contains(key)
                    ? "repaired"
                    : replacedBy != nil ? "unrecoverable" : repairErrors[key] != nil ? "repair-failed" : "damaged"
                out.raw(", \"state\": \"\(state)\", \"reason\": ")
                out.string(repairErrors[key])
                out.raw(", \"replacedBy\": ")
                out.string(replacedBy)
                out.raw("}")
            }
            out.raw(report.problems.isEmpty ? "], \"gone\": [" : "\n], \"gone\": [")
            for (position, gone) in goneEpisodes.enumerated() {
                out.raw(position == 0 ? "\n  {\"folder\": " : ",\n  {\"folder\": ")
                out.string(SyncFormatter.relative(gone.folder, to: root))
                out.raw(", \"title\": ")
                out.string(gone.failure.title)
                out.raw(", \"url\": ")
                out.string(gone.failure.url)
                out.raw(", \"reason\": ")
                out.string(gone.failure.reason)
                out.raw(", \"since\": ")
                out.string(gone.failure.missingSince)
                out.raw("}")
            }
            out.raw(goneEpisodes.isEmpty ? "], \"damagedHistory\": [" : "\n], \"damagedHistory\": [")
            for (position, damaged) in history.enumerated() {
                out.raw(position == 0 ? "\n  {\"folder\": " : ",\n  {\"folder\": ")
                out.string(SyncFormatter.relative(damaged.folder, to: root))
                out.raw(", \"file\": ")
                out.string(damaged.file)
                out.raw(", \"reason\": ")
                out.string(damaged.reason)
                out.raw("}")
            }
            out.raw(history.isEmpty ? "], \"index\": [" : "\n], \"index\": [")
            let index =
                journals.map { IndexDamageFormatter.verifyLine($0, root: root) }
                + clashes.map { IndexDamageFormatter.clashLine($0.clash, folder: $0.folder, root: root) }
            for (position, line) in index.enumerated() {
                out.raw(position == 0 ? "\n  " : ",\n  ")
                out.string(line)
            }
            out.raw(index.isEmpty ? "]}\n" : "\n]}\n")
            return out.text
        }
    }
}
