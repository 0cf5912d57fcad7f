// How command results read: sync's lines.
import Foundation

/// What `sync` says: a show's summary, its failures, its JSON entry and dry run, and the lines shared by every
/// command (sizes, show names, paths relative to the archive, one-line text).
public enum SyncFormatter {
    /// A show's one-line summary: what was archived, failed, gone upstream or already there.
    public static func summary(_ report: SyncReport) -> String {
        var parts = ["\(report.archived.count) archived"]
        if !report.failed.isEmpty { parts.append("\(report.failed.count) failed") }
        if !report.gone.isEmpty { parts.append("\(report.gone.count) gone upstream") }
        if !report.hookProblems.isEmpty {
            let count = report.hookProblems.count
            parts.append(count == 1 ? "1 hook failed" : "\(count) hooks failed")
        }
        parts.append("\(report.alreadyArchived) already archived")
        if !report.retained.isEmpty {
            let done = report.retained.filter { $0.failed == nil }
            let verb = report.retained[0].deleted ? "deleted by retention" : "offloaded"
            if !done.isEmpty { parts.append("\(done.count) \(verb)") }
            if let failed = report.retained.first(where: { $0.failed != nil })?.failed {
                let count = report.retained.count - done.count
                parts.append(
                    "\(count) kept (could not be \(report.retained[0].deleted ? "deleted" : "offloaded"): \(failed))")
            }
        }
        if report.itemsWithoutMedia > 0 {
            let count = report.itemsWithoutMedia
            parts.append("\(count) item\(count == 1 ? "" : "s") with nothing to download")
        }
        let unchanged = report.feedUnchanged ? " (feed unchanged)" : ""
        let pages = report.pages > 1 ? " (\(report.pages) pages)" : ""
        return "\(showName(report.feedTitle, folder: report.folder)): " + parts.joined(separator: ", ")
            + SkippedItemsFormatter.summaryPart(report.skippedItems) + pages + unchanged
    }

    /// What the summary adds when a filter left episodes out: how many, which filter, and, when it is the one
    /// saved with the show, how to clear it.
    /// `options` says settings as the options that set them (the executable's declarations know how).
    public static func leftOut(
        _ count: Int, settings layers: SettingsLayers, feed: FeedSource,
        options: (ShowSettings, [ShowSettings.Key]) -> String
    ) -> String {
        guard count > 0 else { return "" }
        let fromCommandLine = layers.filterLayer?.source == .given
        let settings = layers.filterLayer?.settings ?? ShowSettings()
        let filter = options(settings.withoutClearedFilters, ShowSettings.Key.filters)
        let listed = "; \(count) more listed, left out by "
        guard !fromCommandLine else { return listed + filter }
        return listed
            + "the saved filter (\(filter)): 'podarchive sync \(feed.shownName) --all' "
            + "clears it"
    }

    /// The line that says a `.netrc` `default` login is not sent to `host` (`SyncEvent.defaultLoginStays`).
    public static func defaultLoginStays(home: String, host: String) -> String {
        "the .netrc default login stays with \(home), where the show was first subscribed: add a line 'machine "
            + "\(host) login ... password ...' to send one to \(host)"
    }

    /// The line that says a show's subscription now uses another URL (`SyncEvent.readdressed`): the old one is no
    /// longer fetched, and how to keep both (see `keepBoth`). A secret rotated in one URL (the two read alike,
    /// redacted) says only the first part.
    public static func readdressed(from: String, to: String) -> String {
        let line = "the same show as <\(from)>: its subscription now uses <\(to)>"
        guard from != to else { return line }
        return line + ", and <\(from)> is no longer fetched (\(keepBoth(to)))"
    }

    /// How to keep both URLs of a subscription `taker` took over, each in a folder of its own: `add` it kept apart
    /// (the URL it took over, given so, does the same). As printed, a redacted URL included, it works: the secrets
    /// of both are kept until then.
    public static func keepBoth(_ taker: String) -> String {
        "to keep both, each in a folder of its own: podarchive add \(taker) --separate"
    }

    /// The line that says both feeds of a subscription another URL took over are kept (`SyncEvent.keptBoth`).
    public static func keptBoth(feed: String, folder: String, apart: String, apartFolder: String) -> String {
        "both kept, each in a folder of its own: <\(feed)> in \(folder)/, where its files are, and <\(apart)> in "
            + "\(apartFolder)/, kept apart (its next sync fetches its episodes there)"
    }

    /// The summary `sync --json` prints: one object per feed, under "feeds".
    public static func json(entries: [String]) -> String {
        "{\"feeds\": [\n" + entries.joined(separator: ",\n") + "\n]}\n"
    }

    /// One feed's object in the `sync --json` summary.
    public static func jsonEntry(
        feed: String, report: SyncReport?, root: URL, code: RunStatus, seconds: TimeInterval, error: String? = nil
    ) -> String {
        var out = JSONWriter()
        out.raw("  {\"feed\": ")
        out.string(feed)
        out.raw(", \"title\": ")
        out.string(report?.feedTitle)
        out.raw(", \"folder\": ")
        out.string(report?.folder.path)
        out.raw(", \"status\": ")
        out.string(status(code))
        out.raw(", \"exit\": \(code.rawValue), \"error\": ")
        out.string(error)
        out.raw(", \"feedUnchanged\": \(report?.feedUnchanged ?? false)")
        out.raw(",\n   \"archived\": [")
        for (position, file) in (report?.archived ?? []).enumerated() {
            out.raw(position == 0 ? "" : ", ")
            out.string(relative(file, to: root))
        }
        out.raw(
            "], \"skipped\": \(report?.alreadyArchived ?? 0), \"leftOut\": \(report?.leftOut ?? 0), "
                + "\"bytes\": \(report?.bytes ?? 0),")
        out.raw(" \"seconds\": \(String(format: "%.3f", seconds)),\n   \"failed\": [")
        for (position, failed) in (report?.failed ?? []).enumerated() {
            episodeObject(&out, first: position == 0, failed.episode, failed.failure)
        }
        out.raw("],\n   \"gone\": [")
        for (position, gone) in (report?.gone ?? []).enumerated() {
            episodeObject(&out, first: position == 0, gone.episode, gone.failure, since: gone.since)
        }
        out.raw("],\n   \"artwork\": ")
        out.string(report?.artwork.map { relative($0, to: root) })
        out.raw(", \"artworkError\": ")
        out.string(report?.artworkFailure)
        out.raw(", \"pages\": \(report?.pages ?? 0), \"pageError\": ")
        out.string(report?.pageProblem.map { "\($0.url): \($0.reason)" })
        out.raw(", \"movedTo\": ")
        out.string(report?.movedTo)
        SkippedItemsFormatter.json(&out, report?.skippedItems ?? [])
        hooksJSON(&out, report?.hookProblems ?? [])
        out.raw("}")
        return out.text
    }

    /// `{"title", "url", "reason"}` of an episode that did not make it, with `"since"` for one gone upstream.
    private static func episodeObject(
        _ out: inout JSONWriter, first: Bool, _ episode: Episode, _ failure: EpisodeFailure, since: String? = nil
    ) {
        out.raw(first ? "{\"title\": " : ", {\"title\": ")
        out.string(episode.title)
        out.raw(", \"url\": ")
        out.string(episode.url)
        out.raw(", \"reason\": ")
        out.string(failure.reason)
        if let since {
            out.raw(", \"since\": ")
            out.string(since)
        }
        out.raw("}")
    }

    private static func status(_ code: RunStatus) -> String {
        switch code {
        case .success: return "ok"
        case .episodesFailed: return "episodes-failed"
        case .usage: return "usage"
        case .feedFailed: return "feed-failed"
        case .locked: return "locked"
        case .archiveFailed: return "archive-failed"
        case .interrupted, .terminated: return "interrupted"
        }
    }

    /// What `sync --dry-run` prints: each download it would make, then a summary.
    public static func dryRun(_ plan: SyncPlan) -> String {
        var text = ""
        for download in plan.downloads {
            if let file = download.missingFile {
                text += "would fetch again \(file) (missing) <\(download.episode.url)>\n"
            } else {
                text +=
                    "would fetch \(oneLine(download.episode.title ?? "(untitled)")) <\(download.episode.url)>"
                    + " as \(oneLine(download.file))\(download.preferred.map(PreferenceWords(size: size).note) ?? "")\n"
            }
        }
        // What the show's retention would let go after the downloads, in `offload --dry-run`'s words.
        if !plan.retained.isEmpty {
            let show = OffloadReport.Show(folder: plan.folder.lastPathComponent, episodes: plan.retained)
            text += OffloadReport(shows: [show], dryRun: true).lines.joined()
        }
        let count = plan.downloads.count
        return text
            + "\(showName(plan.feedTitle, folder: plan.folder)): \(count) to fetch, \(plan.alreadyArchived) already "
            + "archived (dry run)\n"
    }

    /// One feed's object in `sync --dry-run --json`: {"feed", "title", "folder", "alreadyArchived",
    /// "downloads": [{"title", "url", "file", "missing"}], "retention": [{"title", "file", "action" ("offload" or
    /// "delete"), "into" (null for delete)}]}.
    public static func dryRunJSON(_ plan: SyncPlan, feed: String) -> String {
        var out = JSONWriter()
        out.raw("  {\"feed\": ")
        out.string(feed)
        out.raw(", \"title\": ")
        out.string(plan.feedTitle)
        out.raw(", \"folder\": ")
        out.string(plan.folder.path)
        out.raw(", \"alreadyArchived\": \(plan.alreadyArchived),\n   \"downloads\": [")
        for (position, download) in plan.downloads.enumerated() {
            out.raw(position == 0 ? "{\"title\": " : ", {\"title\": ")
            out.string(download.episode.title)
            out.raw(", \"url\": ")
            out.string(download.episode.url)
            out.raw(", \"file\": ")
            out.string(download.file)
            out.raw(", \"missing\": \(download.missingFile != nil)}")
        }
        out.raw("],\n   \"retention\": [")
        for (position, episode) in plan.retained.enumerated() {
            out.raw(position == 0 ? "{\"title\": " : ", {\"title\": ")
            out.string(episode.title)
            out.raw(", \"file\": ")
            out.string(episode.file)
            out.raw(", \"action\": \(episode.deleted ? "\"delete\"" : "\"offload\""), \"into\": ")
            out.string(episode.into)
            out.raw("}")
        }
        out.raw("]}")
        return out.text
    }

    /// An episode that failed this run, with the option that helps where there is one.
    public static func failureLine(_ episode: Episode, _ failure: EpisodeFailure) -> String {
        "episode \"\(oneLine(episode.title ?? "(untitled)"))\" <\(episode.url)>: \(failure.reason)\(hint(for: failure))"
    }

    /// The option a reader can reach for: the core speaks in its own terms, the command line names its flags.
    public static func hint(for failure: EpisodeFailure) -> String {
        switch failure {
        case .timedOut, .waitRefused: return " (--timeout sets how long an episode may take)"
        case .notMedia: return " (--retry-gone tries it again)"
        case .httpStatus(401): return ": the episode needs credentials \(credentialsHint)"
        case .credentialsRefused: return " (a wrong login or token? give new ones: \(credentialsHint))"
        case .httpStatus(403): return ": access denied; it may need credentials \(credentialsHint) or \(clientHint)"
        default: return ""
        }
    }

    /// Where credentials can come from.
    public static let credentialsHint = "(user:password@ in the URL, ~/.netrc, or --header)"
    /// What to try when a host refuses this client.
    public static let clientHint = "another client (--user-agent)"

    /// An error's one line, with the option that helps where there is one. A `SettingsError` names its option,
    /// which the executable's declarations spell: it says those itself.
    public static func errorLine(_ error: Error) -> String {
        let line = oneLine(error.localizedDescription)
        switch error {
        case ArchiveError.locked: return line + " or pass --wait SECONDS"
        case ArchiveError.readOnly:
            return line + " (verify without --repair, list --archived, feeds and export read it as it is)"
        case FeedError.httpStatus(_, 401): return line + " " + credentialsHint
        case FeedError.waitRefused: return line + " (--timeout sets how long a feed may take)"
        case FeedError.refusedCredentials:
            return line
                + "; give the right ones with 'podarchive add <feed>' (user:password@ in the URL, or --header: they "
                + "replace those saved) or in ~/.netrc"
        case FeedError.httpStatus(_, 403): return line + "; it may need credentials \(credentialsHint) or \(clientHint)"
        case CredentialError.missing: return line + " ('podarchive add URL', with --header for headers)"
        case CredentialError.earlierMissing: return line + " ('podarchive add URL --separate')"
        case is SiteOutInsideArchive: return "--out " + line
        default: return line
        }
    }

    /// Said once a sync when `count` shows' secrets are kept inside the archive `root`, as an earlier version kept
    /// them.
    public static func secretsInsideLine(_ count: Int, root: URL) -> String {
        let shows = count == 1 ? "1 show's credentials are" : "\(count) shows' credentials are"
        return "\(shows) kept inside the archive, in \(ArchiveRoot(root).subscriptionsFolder.path), where anyone the "
            + "archive is served or copied to can read them; move them to the configuration folder with "
            + "'podarchive credentials --move'"
    }

    /// Said once, in the run that stops retrying an episode its publisher deleted.
    public static func goneLine(_ episode: Episode, _ failure: EpisodeFailure, since: String) -> String {
        "episode \"\(oneLine(episode.title ?? "(untitled)"))\" <\(episode.url)>: \(failure.reason) on every run since "
            + "\(since.prefix(10)); recorded as gone upstream and no longer retried (sync --retry-gone tries again)"
    }

    /// A file or show folder moved off a name the site writes, or why it could not be.
    public static func siteNameLine(_ move: SiteNameMove, root: URL) -> String {
        let from = relative(move.from, to: root)
        let to = relative(move.to, to: root)
        let why =
            move.isLiveContent
            ? "a web server would run it as a page" : "the site needs the name \(move.from.lastPathComponent)"
        guard let failure = move.failure else { return "moved \(from) to \(to): \(why)" }
        return "\(from) could not be moved to \(to) (\(why)): \(oneLine(failure)); it stays as it was"
    }

    /// `file`'s path from `root` when it is inside it, else the whole path.
    public static func relative(_ file: URL, to root: URL) -> String {
        let rootPath = root.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        return path.hasPrefix(rootPath + "/") ? String(path.dropFirst(rootPath.count + 1)) : path
    }

    /// Sizes as people read them: 980 B, 12.3 MB, 1.2 GB (powers of 1000, one decimal, rounded down).
    public static func size(_ bytes: Int64) -> String { ByteCount.text(bytes) }

    /// A show as output names it: its title, on one line, and its folder too when the folder is not named after
    /// that title alone (a later show of the same title, kept in "Title (2)"; a show whose title changed since its
    /// folder was made), so that no two shows of an archive read alike in a summary or in `feeds`.
    public static func showName(_ title: String, folder: URL) -> String {
        let name = folder.lastPathComponent
        guard FileNamer.sanitize(title) != name else { return oneLine(title) }
        return "\(oneLine(title)) (in \(name)/)"
    }

    /// Keeps messages to one line whatever a feed put in a title: control characters become spaces.
    public static func oneLine(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F || $0 == 0xC2 }) else { return text }
        return String(
            String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
    }
}

/// What `verify` says: each problem's line and the summary.
public enum VerifyFormatter {
    /// Said once when `verify` reads shows without their lock, which `why` says cannot be taken (the archive cannot
    /// be written here).
    public static func unlockedLine(_ why: ArchiveError) -> String {
        let cause: String
        if case .readOnly(let path, let reason) = why {
            cause = "cannot write \(path): \(reason)"
        } else {
            cause = SyncFormatter.errorLine(why)
        }
        return "checked without the sync lock (\(cause)): a sync writing the archive meanwhile could make a file "
            + "look damaged"
    }

    /// The file of `problem`, from the archive's root.
    public static func path(_ problem: VerifyProblem, root: URL) -> String {
        SyncFormatter.relative(problem.folder.appendingPathComponent(problem.file), to: root)
    }

    /// `missing  Show/a.mp3`, `resized ...`, `changed ...`: one problem's line.
    public static func line(_ problem: VerifyProblem, root: URL) -> String {
        let name = path(problem, root: root)
        let unrecoverable = problem.replacedBy.map {
            "; unrecoverable upstream (the publisher's file changed; the newer one is \($0))"
        }
        switch problem.kind {
        case .missing: return "missing  \(name)" + (unrecoverable.map { ":" + $0.dropFirst() } ?? "")
        case .resized(let actual, let recorded):
            return "resized  \(name): \(actual) bytes, the index says \(recorded)" + (unrecoverable ?? "")
        case .changed: return "changed  \(name): SHA-256 differs from the index" + (unrecoverable ?? "")
        }
    }

    /// An episode its publisher deleted before it was archived: listed, not counted as a problem.
    public static func goneLine(_ failure: ArchiveIndex.Failure, folder: URL, root: URL) -> String {
        let show = SyncFormatter.relative(folder, to: root)
        let since = failure.missingSince.map { " since \($0.prefix(10))" } ?? ""
        return "gone     \(show == folder.path ? folder.lastPathComponent : show): "
            + "\"\(SyncFormatter.oneLine(failure.title ?? "(untitled)"))\" <\(failure.url)>: \(failure.reason)\(since), "
            + "never archived (sync --retry-gone tries again)"
    }

    /// `; 2 offloaded (1 not reachable, not checked), 1 deleted by retention, 1 handed off by a hook`, or nothing.
    static func awaySummary(_ report: VerifyReport) -> String {
        var parts: [String] = []
        if let count = report.away[.offloaded] {
            let unchecked = report.unreachable > 0 ? " (\(report.unreachable) not reachable, not checked)" : ""
            parts.append("\(count) offloaded\(unchecked)")
        }
        if let count = report.away[.deleted] { parts.append("\(count) deleted by retention") }
        if let count = report.away[.handedOff] { parts.append("\(count) handed off by a hook") }
        return parts.isEmpty ? "" : "; " + parts.joined(separator: ", ")
    }

    /// An episode away on purpose, as `verify` says it: only an offloaded one that could not be checked (its
    /// folder not reachable) is said line by line; the others are counted in the summary.
    public static func awayLine(_ entry: ArchiveIndex.Entry, folder: URL, checked: Bool, root: URL) -> String? {
        guard let away = entry.away, away.state == .offloaded, !checked else { return nil }
        let path = SyncFormatter.relative(folder.appendingPathComponent(entry.file), to: root)
        return "offloaded \(path): in \(away.into ?? "?"), not reachable now, so not checked"
    }

    /// A damaged revision of the feed history of the show in `folder`.
    public static func historyLine(folder: URL, file: String, reason: String, root: URL) -> String {
        let path = SyncFormatter.relative(ShowState(folder: folder).history.appendingPathComponent(file), to: root)
        return "damaged  \(path): \(reason) (a revision of the feed's history; kept as it is)"
    }

    /// `verified 12 files in 2 feeds: all intact`, with what was repaired, gone and damaged.
    public static func summary(_ report: VerifyReport) -> String {
        let feeds = report.feeds == 1 ? "1 feed" : "\(report.feeds) feeds"
        var text = "verified \(report.files) file\(report.files == 1 ? "" : "s") in \(feeds): "
        text +=
            report.problems.isEmpty
            ? "all intact" : "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")"
        if !report.repaired.isEmpty { text += ", \(report.repaired.count) repaired" }
        if !report.unrecoverable.isEmpty { text += ", \(report.unrecoverable.count) unrecoverable upstream" }
        if report.gone > 0 { text += "; \(report.gone) episode\(report.gone == 1 ? "" : "s") gone upstream" }
        if report.notes > 0 { text += "; \(report.notes) note\(report.notes == 1 ? "" : "s")" }
        text += awaySummary(report)
        if report.damagedJournalRecords > 0 {
            let count = report.damagedJournalRecords
            text += "; \(count) damaged record\(count == 1 ? "" : "s") of an index's journal"
        }
        if !report.clashes.isEmpty {
            let count = report.clashes.count
            text += "; \(count) pair\(count == 1 ? "" : "s") of index entries claiming one file or episode"
        }
        if report.damagedHistory > 0 {
            text +=
                "; \(report.damagedHistory) damaged revision\(report.damagedHistory == 1 ? "" : "s") of feed history"
        }
        return text
    }
}
