// `podarchive site [DIR] [--base-url URL]`: the archive's web pages and podcast feeds; `sync --site` refreshes
// them after every sync.
import ArchiverCore
import Foundation

extension CommandLineTool {
    func site(_ arguments: SiteArguments) -> ExitCode {
        guard let root = resolveRoot(arguments.directory) else { return .usage }
        let archiver = configuredArchiver()
        var settings = archiver.siteSettings(in: root)
        if let base = arguments.baseURL, base != settings.baseURL {
            settings.baseURL = base
            do {
                try archiver.saveSiteSettings(settings, in: root)
            } catch {
                return report(error)
            }
        }
        return writeSite(root, archiver: archiver, settings: settings, quiet: false)
    }

    /// Writes the site and says so (unless `quiet`); a show left out is named on standard error (exit 1).
    func writeSite(_ root: URL, archiver: Archiver, settings: SiteSettings, quiet: Bool) -> ExitCode {
        do {
            let report = try archiver.writeSite(root: root, baseURL: settings.baseURL)
            for move in report.moves {
                if move.failure != nil {
                    errors.write("podarchive: site: \(SyncFormatter.siteNameLine(move, root: root))\n")
                } else if !quiet {
                    output.write("site: \(SyncFormatter.siteNameLine(move, root: root))\n")
                }
            }
            for (folder, reason) in report.skipped {
                errors.write("podarchive: site: \(SyncFormatter.relative(folder, to: root))/ left out: \(reason)\n")
            }
            if !quiet {
                output.write(
                    "site: \(report.shows) show\(report.shows == 1 ? "" : "s") (\(report.rewritten) written again) "
                        + "in \(root.appendingPathComponent(ArchiveLayout.sitePage).path)\n")
            }
            return report.skipped.isEmpty ? .success : .episodesFailed
        } catch {
            return report(error)
        }
    }
}
