// `podarchive site [DIR] [--base-url URL]`: the archive's web pages and podcast feeds; `sync --site` refreshes
// them after every sync.
import ArchiverCore
import Foundation

struct SiteCommand: CommandType {
    static let info = CommandInfo(
        name: "site", about: "write the archive's web pages and podcast feeds (browse, play, subscribe)",
        summary: "write the web pages and podcast feeds", operands: "[DIR]", completion: .directory,
        discussion: """
            Writes the archive's web pages and podcast feeds from what it holds (no network): <DIR>`/index.html` (every
            show, with its cover, episodes, size and newest episode), <DIR>`/feeds.opml`, and in each show's folder
            `index.html` (its episodes newest first, each with a player of the archived file, its date, duration, size,
            show notes made safe, transcripts and chapters, and a filter box) and `feed.xml` (RSS 2.0 with iTunes tags:
            one item per archived episode with its original GUID and an enclosure pointing at the archived file, so any
            podcast app can subscribe to the archive). The pages load nothing from elsewhere: open them as files, or
            serve them with any static server. Show notes go through an allow-list: no script, frame, object, style,
            event handler or `javascript:`/`data:` link survives, and remote images become links.

            To publish, prefer `--out` <DIR>: the pages go there, with every archived file they name linked in (hard
            links where the file system allows, else symbolic links, else copies; a line says how many of each), and a
            server serves <DIR> without ever seeing the archive's `.podarchive` folders, whose records a reader has no
            use for. Serving the archive root itself needs a server that refuses dot-files (not `python3 -m
            http.server`). Pages are replaced whole; a show whose index has not changed is left as it is. sync `--site`
            does this after every sync, with the saved `--base-url` and `--out`.
            """,
        exitCodes: [.success, .usage, .archiveFailed],
        exitMeanings: [.success: "the pages and feeds written"])

    static let options: [BoundOption<Arguments>] = [
        SourceOptions.archiveDirectory.at(\.directory),
        AccessOptions.baseURL.at(\.baseURL),
        AccessOptions.out.at(\.out),
        AccessOptions.noOut.at(\.noOut),
    ]

    struct Arguments: CommandArguments {
        var directory: String? = nil
        var baseURL: String? = nil
        /// `--out DIR`: publish into a folder of its own (saved).
        var out: String? = nil
        /// `--no-out`: forget the saved `--out`.
        var noOut = false
    }

    static func take(_ operands: [String], into arguments: inout Arguments) throws(UsageError) {
        if let folder = try Operands.atMostOne(operands, "folder", command: info.name) { arguments.directory = folder }
    }

    let context: CommandContext
    let arguments: Arguments

    func run() -> ExitCode {
        guard let root = context.resolveRoot(arguments.directory) else { return .usage }
        let archiver = context.configuredArchiver()
        var settings = archiver.siteSettings(in: root)
        let out = arguments.out.map { URL(fileURLWithPath: context.absolute($0)).standardizedFileURL.path }
        if let out, out == root.standardizedFileURL.path || out.hasPrefix(root.standardizedFileURL.path + "/") {
            context.errors.write(
                "podarchive: --out \(out) is inside the archive \(root.path): name a folder outside it, which a server "
                    + "can serve without the archive's own files\n")
            return .usage
        }
        // `--no-out` forgets the saved folder: the archive's own pages are written again.
        let newOut = arguments.noOut ? nil : out ?? settings.out
        let changed = settings.baseURL != (arguments.baseURL ?? settings.baseURL) || settings.out != newOut
        if changed {
            settings.baseURL = arguments.baseURL ?? settings.baseURL
            settings.out = newOut
            do {
                try archiver.saveSiteSettings(settings, in: root)
            } catch {
                return context.report(error)
            }
        }
        let saved = out == nil && settings.out != nil
        return Self.write(root, context: context, archiver: archiver, settings: settings, quiet: false, saved: saved)
    }

    /// Writes the site and says so (unless `quiet`; `saved`: into the folder a saved `--out` names, said with how
    /// to forget it); a show left out is named on standard error (exit 1).
    static func write(
        _ root: URL, context: CommandContext, archiver: Archiver, settings: SiteSettings, quiet: Bool,
        saved: Bool = false
    ) -> ExitCode {
        do {
            var access = SyncOptions()
            access.netrc = context.defaultNetrc
            let report = try archiver.writeSite(
                root: root, baseURL: settings.baseURL, out: settings.out.map { URL(fileURLWithPath: $0) },
                access: access)
            say(report, root: root, context: context, quiet: quiet, saved: saved)
            return report.status
        } catch {
            return context.report(error)
        }
    }

    /// Says what writing the site did: each name changed, each show left out (on standard error), and unless
    /// `quiet` where the site is and what it published and removed.
    static func say(_ report: SiteReport, root: URL, context: CommandContext, quiet: Bool, saved: Bool = false) {
        for move in report.moves {
            if move.failure != nil {
                context.errors.write("podarchive: site: \(SyncFormatter.siteNameLine(move, root: root))\n")
            } else if !quiet {
                context.output.write("site: \(SyncFormatter.siteNameLine(move, root: root))\n")
            }
        }
        for (folder, reason) in report.skipped {
            context.errors.write(
                "podarchive: site: \(SyncFormatter.relative(folder, to: root))/ left out: \(reason)\n")
        }
        if !quiet {
            let site = report.folder ?? root
            let written =
                report.created == 0
                ? "\(report.rewritten) written again"
                : report.rewritten == 0
                    ? "\(report.created) written" : "\(report.created) written, \(report.rewritten) written again"
            let savedNote = saved ? " (the saved --out; podarchive site --no-out writes in the archive again)" : ""
            context.output.write(
                "site: \(report.shows) show\(report.shows == 1 ? "" : "s") (\(written)) "
                    + "in \(site.appendingPathComponent(ArchiveLayout.sitePage).path)\(savedNote)\n")
            let published = [
                (report.linked, "hard link", "hard links"), (report.symlinked, "symbolic link", "symbolic links"),
                (report.copied, "copy", "copies"),
            ].filter { $0.0 > 0 }.map { "\($0.0) \($0.0 == 1 ? $0.1 : $0.2)" }
            if !published.isEmpty {
                context.output.write("site: published \(published.joined(separator: ", ")) of archived files\n")
            }
        }
        if !quiet, !report.removed.isEmpty, let folder = report.folder {
            let count = report.removed.count
            let named = report.removed.prefix(10).joined(separator: ", ")
            let more = count > 10 ? " and \(count - 10) more" : ""
            context.output.write(
                "site: removed \(count) file\(count == 1 ? "" : "s") the archive no longer holds from "
                    + "\(folder.path): \(named)\(more)\n")
        }
        if let line = WithheldFormatter.line(report.withheld, from: "site") { context.errors.write(line) }
    }
}
