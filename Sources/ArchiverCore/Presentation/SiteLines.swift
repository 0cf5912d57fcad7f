// What `site` (and `sync --site`) says of the site it wrote.
import Foundation

extension SiteReport {
    /// What writing the site did, as the command line says it: each name changed, each show left out (on standard
    /// error), and unless `quiet` where the site is and what it published and removed; `saved`: it was written to
    /// the saved `--out`; `sayUnchanged` false (`sync --site` without `-v`): nothing on standard output when
    /// nothing was written, published or removed. Each line ends with a newline.
    public func lines(root: URL, quiet: Bool, saved: Bool = false, sayUnchanged: Bool = true)
        -> (output: String, errors: String)
    {
        let report = self
        let unchanged =
            report.created == 0 && report.rewritten == 0 && report.removed.isEmpty && report.moves.isEmpty
            && report.linked + report.symlinked + report.copied == 0
        let quiet = quiet || (unchanged && !sayUnchanged)
        var lines: (output: String, errors: String) = ("", "")
        for move in report.moves {
            if move.failure != nil {
                lines.errors += "podarchive: site: \(SyncFormatter.siteNameLine(move, root: root))\n"
            } else if !quiet {
                lines.output += "site: \(SyncFormatter.siteNameLine(move, root: root))\n"
            }
        }
        for (folder, reason) in report.skipped {
            lines.errors += ("podarchive: site: \(SyncFormatter.relative(folder, to: root))/ left out: \(reason)\n")
        }
        if !quiet {
            let written =
                report.created == 0
                ? "\(report.rewritten) written again"
                : report.rewritten == 0
                    ? "\(report.created) written" : "\(report.created) written, \(report.rewritten) written again"
            let savedNote = saved ? " (the saved --out; podarchive site --no-out writes in the archive again)" : ""
            lines.output +=
                ("site: \(report.shows) show\(report.shows == 1 ? "" : "s") (\(written)) "
                    + "in \(report.page(root: root).path)\(savedNote)\n")
            let published = [
                (report.linked, "hard link", "hard links"), (report.symlinked, "symbolic link", "symbolic links"),
                (report.copied, "copy", "copies"),
            ].filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
            if !published.isEmpty {
                lines.output += ("site: published \(published.joined(separator: ", ")) of archived files\n")
            }
        }
        if !quiet, !report.removed.isEmpty, let folder = report.folder {
            let count = report.removed.count
            let named = report.removed.prefix(10).joined(separator: ", ")
            let more = count > 10 ? " and \(count - 10) more" : ""
            lines.output +=
                ("site: removed \(count) file\(count == 1 ? "" : "s") the archive no longer holds from "
                    + "\(folder.path): \(named)\(more)\n")
        }
        if let line = WithheldFormatter.line(report.withheld, from: "site") { lines.errors += line }
        return lines
    }
}
