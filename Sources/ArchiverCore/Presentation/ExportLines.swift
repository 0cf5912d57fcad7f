// What `export` says: its progress on a terminal, and what it wrote.
import Foundation

extension ExportProgress {
    /// `exporting: 12 of 40 records, 1.2 GB of 3.4 GB (35%)`.
    public var line: String {
        let progress = self
        let percent = progress.totalBytes > 0 ? " (\(progress.bytes * 100 / progress.totalBytes)%)" : ""
        return "exporting: \(progress.records) of \(progress.totalRecords) records, "
            + "\(SyncFormatter.size(progress.bytes)) of \(SyncFormatter.size(progress.totalBytes))\(percent)"
    }
}

extension ExportReport {
    /// `exported 2 shows to FILE (1.2 GB): 40 episodes, 3 transcripts and chapters, ... in 91 records`.
    public func summary(file: URL) -> String {
        let report = self
        func count(_ number: Int, _ one: String, _ many: String) -> String { "\(number) \(number == 1 ? one : many)" }
        let parts = [
            count(report.episodes, "episode", "episodes"),
            count(report.companions, "transcript or chapters file", "transcripts and chapters files"),
            count(report.artwork, "artwork file", "artwork files"),
            count(report.feedRevisions, "feed revision", "feed revisions"),
            count(report.metadata, "sidecar", "sidecars"),
        ]
        return
            "exported \(count(report.shows, "show", "shows")) to \(file.path) (\(SyncFormatter.size(report.bytes))): "
            + parts.joined(separator: ", ") + " in \(count(report.records, "WARC record", "WARC records"))"
            + awayNote
    }

    /// What standard error gets: the files of private shows left out (see `WithheldFormatter`), or nil.
    public var withheldLine: String? { WithheldFormatter.line(withheld, from: "export") }

    /// `; left out: 3 episodes offloaded, 1 deleted by retention`, or nothing.
    private var awayNote: String {
        let parts = AwayRecord.State.allCases.compactMap { state in
            away[state].map { "\($0) \($0 == 1 ? "episode" : "episodes") \(ListFormatter.awayWords(state))" }
        }
        return parts.isEmpty ? "" : "; left out: " + parts.joined(separator: ", ")
    }
}
