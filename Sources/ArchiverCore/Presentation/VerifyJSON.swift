// `verify --json`: one JSON document with every finding of a recheck (and of a repair), for scripts and
// monitoring. The events are gathered as they come and written once the report is in.
import Foundation

/// What `verify` found, gathered from its events for the JSON document.
public final class VerifyFindings: Sendable {
    /// Nothing found yet.
    public init() {}

    private let state = Locked(Found())

    private struct Found {
        var repairErrors: [String: String] = [:]
        var versions: [String: String] = [:]
        var goneEpisodes: [(folder: URL, failure: ArchiveIndex.Failure)] = []
        var history: [(folder: URL, file: String, reason: String)] = []
        var journals: [JournalDamage] = []
        var clashes: [(folder: URL, clash: ArchiveIndex.Clash)] = []
        var notes: [(folder: URL, file: String, reason: String)] = []
        var away: [(folder: URL, entry: ArchiveIndex.Entry, checked: Bool)] = []
    }

    /// Keeps what the event adds to the report (problems and repairs are in the report itself).
    public func record(_ event: VerifyEvent) {
        state.withLock { found in
            switch event {
            case .problem, .repaired, .unlocked: break
            case .repairFailed(let problem, let failure): found.repairErrors[Self.key(problem)] = failure.reason
            case .upstreamChanged(let problem, let version): found.versions[Self.key(problem)] = version
            case .gone(let folder, let failure): found.goneEpisodes.append((folder, failure))
            case .historyDamaged(let folder, let file, let reason): found.history.append((folder, file, reason))
            case .journalDamaged(let damage): found.journals.append(damage)
            case .clash(let folder, let clash): found.clashes.append((folder, clash))
            case .note(let folder, let file, let reason): found.notes.append((folder, file, reason))
            case .away(let folder, let entry, let checked): found.away.append((folder, entry, checked))
            }
        }
    }

    private static func key(_ problem: VerifyProblem) -> String { problem.folder.path + "/" + problem.file }

    /// `{"feeds", "files", "remaining", "problems": [{"folder", "file", "kind", "size", "recorded", "state",
    /// "reason", "replacedBy"}], "gone": [{"folder", "title", "url", "reason", "since"}], "damagedHistory":
    /// [{"folder", "file", "reason"}], "index": ["<a damaged journal record or two entries naming one file, as
    /// the line verify prints>"], "notes": [{"folder", "file", "reason"}], "away": [{"folder", "file", "state",
    /// "since", "into", "checked"}]}`; folders relative to `root`.
    public func json(_ report: VerifyReport, root: URL) -> String {
        state.withLock { found in
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
                let replacedBy = found.versions[key] ?? problem.replacedBy
                let state =
                    repaired.contains(key)
                    ? "repaired"
                    : replacedBy != nil ? "unrecoverable" : found.repairErrors[key] != nil ? "repair-failed" : "damaged"
                out.raw(", \"state\": \"\(state)\", \"reason\": ")
                out.string(found.repairErrors[key])
                out.raw(", \"replacedBy\": ")
                out.string(replacedBy)
                out.raw("}")
            }
            out.raw(report.problems.isEmpty ? "], \"gone\": [" : "\n], \"gone\": [")
            for (position, gone) in found.goneEpisodes.enumerated() {
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
            out.raw(found.goneEpisodes.isEmpty ? "], \"damagedHistory\": [" : "\n], \"damagedHistory\": [")
            for (position, damaged) in found.history.enumerated() {
                out.raw(position == 0 ? "\n  {\"folder\": " : ",\n  {\"folder\": ")
                out.string(SyncFormatter.relative(damaged.folder, to: root))
                out.raw(", \"file\": ")
                out.string(damaged.file)
                out.raw(", \"reason\": ")
                out.string(damaged.reason)
                out.raw("}")
            }
            out.raw(found.history.isEmpty ? "], \"index\": [" : "\n], \"index\": [")
            let index =
                found.journals.map { IndexDamageFormatter.verifyLine($0, root: root) }
                + found.clashes.map { IndexDamageFormatter.clashLine($0.clash, folder: $0.folder, root: root) }
            for (position, line) in index.enumerated() {
                out.raw(position == 0 ? "\n  " : ",\n  ")
                out.string(line)
            }
            out.raw(index.isEmpty ? "], \"notes\": [" : "\n], \"notes\": [")
            for (position, note) in found.notes.enumerated() {
                out.raw(position == 0 ? "\n  {\"folder\": " : ",\n  {\"folder\": ")
                out.string(SyncFormatter.relative(note.folder, to: root))
                out.raw(", \"file\": ")
                out.string(note.file)
                out.raw(", \"reason\": ")
                out.string(note.reason)
                out.raw("}")
            }
            out.raw(found.notes.isEmpty ? "], \"away\": [" : "\n], \"away\": [")
            for (position, away) in found.away.enumerated() {
                out.raw(position == 0 ? "\n  {\"folder\": " : ",\n  {\"folder\": ")
                out.string(SyncFormatter.relative(away.folder, to: root))
                out.raw(", \"file\": ")
                out.string(away.entry.file)
                out.raw(", \"state\": ")
                out.string(away.entry.away?.state.rawValue)
                out.raw(", \"since\": ")
                out.string(away.entry.away?.since)
                out.raw(", \"into\": ")
                out.string(away.entry.away?.into)
                out.raw(", \"checked\": \(away.checked)}")
            }
            out.raw(found.away.isEmpty ? "]}\n" : "\n]}\n")
            return out.text
        }
    }
}
