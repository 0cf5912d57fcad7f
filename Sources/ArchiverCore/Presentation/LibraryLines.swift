// What `export --library` says: what the copies will take before it writes, and what it wrote.
import Foundation

extension LibraryPlan {
    /// `library: writing 42 files (1.2 GB; 80.3 GB free)`.
    public var line: String {
        let free = available.map { "; \(SyncFormatter.size($0)) free" } ?? ""
        return "library: writing \(files) \(files == 1 ? "file" : "files") (\(SyncFormatter.size(bytes))\(free))"
    }
}

extension LibraryReport {
    /// `library DIR: 2 shows, 40 episodes tagged, 3 copied untagged (m4a: 3), 2 show art files, 0 unchanged,
    /// 1 removed (1.2 GB written); record: DIR/.podarchive-library.json`.
    public var summary: String {
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        let types = untaggedTypes.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
        var parts = [
            count(shows, "show", "shows"), count(tagged, "episode tagged", "episodes tagged"),
            "\(copied) copied untagged"
                + (types.isEmpty
                    ? ""
                    : " (no tag writer for " + types.joined(separator: ", ")
                        + ")"),
        ]
        if art > 0 { parts.append(count(art, "show art file", "show art files")) }
        parts.append("\(unchanged) unchanged")
        if removed > 0 { parts.append("\(removed) removed") }
        let away = AwayRecord.State.allCases.compactMap { state in
            self.away[state].map { "\($0) \($0 == 1 ? "episode" : "episodes") \(ListFormatter.awayWords(state))" }
        }
        return "library \(folder.path): " + parts.joined(separator: ", ") + " (\(SyncFormatter.size(bytes)) written)"
            + (away.isEmpty ? "" : "; left out: " + away.joined(separator: ", ")) + "; record: \(record.path)"
    }

    /// What `sync` says of the library it refreshed: the summary when it wrote or removed a file (or `verbose`),
    /// nothing when nothing changed (a nightly run from cron stays quiet); the notes on standard error.
    public func syncLines(verbose: Bool) -> (output: String, errors: String) {
        let changed = tagged + copied + art + removed > 0
        let errors = noteLines.map { $0 + "\n" }.joined()
        return (changed || verbose ? summary + "\n" : "", errors)
    }

    /// What standard error gets: what tags left out (chapters clamped or refused, art of another type), one line
    /// each, at most 20 and a count of the rest.
    public var noteLines: [String] {
        let shown = notes.prefix(20).map { "library: \($0)" }
        return notes.count > 20 ? shown + ["library: \(notes.count - 20) more notes like these"] : shown
    }
}
