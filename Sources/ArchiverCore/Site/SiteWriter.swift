// `podarchive site`: the archive's web pages and podcast feeds, written from what the archive holds (no
// network). Each page is written atomically (a browser never sees half of one), and a show whose index, kept
// feed document and cover have not changed since its pages were written is left alone.
import Foundation

/// The archive's site settings, kept in `<root>/.podarchive/site.json`.
public struct SiteSettings: Codable, Equatable, Sendable {
    /// Every `sync` refreshes the site when true.
    public var enabled: Bool?
    /// The archive root's public URL (`http://nas.local/podcasts/`), for absolute enclosure URLs.
    public var baseURL: String?
    /// A folder of its own to publish the site into (absolute path), instead of the archive root.
    public var out: String?

    /// Settings; nil leaves one unset.
    public init(enabled: Bool? = nil, baseURL: String? = nil, out: String? = nil) {
        self.enabled = enabled
        self.baseURL = baseURL
        self.out = out
    }
}

extension ArchiveRoot {
    /// The site's settings: a hint, rewritten atomically.
    var siteSettings: RecordFile<SiteSettings> { record(ArchiveLayout.siteSettingsFile, .hint) }
}

/// What `writeSite` did.
public struct SiteReport: Sendable, Equatable {
    /// Shows on the site.
    public var shows = 0
    /// Shows whose pages were written again.
    public var rewritten = 0
    /// Shows whose pages were written for the first time.
    public var created = 0
    /// Shows left out: the folder, and why.
    public var skipped: [(folder: URL, reason: String)] = []
    /// Where the site was written: the archive root, or the folder it was published into.
    public var folder: URL?
    /// Archived files published into that folder this time, by how: hard links, symbolic links, copies.
    public var linked = 0, symlinked = 0, copied = 0
    /// Files the site had published into that folder and removed, since the archive no longer holds them (paths
    /// in the folder).
    public var removed: [String] = []
    /// Files of private shows left out of `out` because they hold one of the show's secrets (`Show/file`).
    public var withheld: [String] = []
    /// Show folders and archived files moved off names the site writes (an archive made by an earlier version),
    /// and those that could not be.
    public var moves: [SiteNameMove] = []

    /// The site's front page: in `folder`, else in `root`.
    func page(root: URL) -> URL {
        let site = folder ?? root
        return site.appendingPathComponent(ArchiveLayout.sitePage)
    }

    public static func == (lhs: SiteReport, rhs: SiteReport) -> Bool {
        lhs.shows == rhs.shows && lhs.rewritten == rhs.rewritten
            && lhs.skipped.map(\.folder) == rhs.skipped.map(\.folder) && lhs.moves == rhs.moves
    }
}

/// Writes the archive's site, and keeps its names free: show folders and files an earlier version gave one of them.
struct SiteWriter: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let mover: any FileMovement
    let writer: any AtomicFileWriting
    let indexes: IndexStore
    let records: ShowRecords
    let locks: ShowLocks
    /// Moves a show's files off the site's names (`EpisodePlacer.freeSiteNames`).
    let placer: EpisodePlacer
    /// Finds the show folders of a root.
    let verifier: Verifier
    /// The subscriptions, whose folders follow a show renamed.
    let store: SubscriptionStore

    /// The site settings of `root` (none set when it has none).
    func siteSettings(in root: URL) -> SiteSettings {
        (try? store.archive(root).siteSettings.load(records.files)) ?? SiteSettings()
    }

    /// Saves the site settings of `root`.
    /// - Throws: `ArchiveError.storage` when they cannot be written, or the root's state folder is a link.
    func saveSiteSettings(_ settings: SiteSettings, in root: URL) throws {
        let archive = try store.archive(root)
        try FolderContents.createFolder(archive.stateFolder, with: files)
        // What a killed process left of an earlier save (see `TemporaryFiles`).
        sweepTemporaries(in: archive.stateFolder) { $0 == ArchiveLayout.siteSettingsFile }
        try archive.siteSettings.save(settings, records.writer)
    }

    /// Writes `<root>/index.html`, `<root>/feeds.opml`, and each show's `index.html` and `feed.xml` (the names
    /// `ArchiveLayout` reserves); with `out`, writes them into that folder instead (`<out>/<show>/index.html`...)
    /// and publishes there every archived file the pages name, so a server can serve `out` and never see the
    /// archive's own files; `out` is the site's (see `SitePublication`): no link in it is written through, and
    /// what it published there earlier that the archive no longer holds is removed (`SiteReport.removed`). A show
    /// folder or archived file an earlier version gave one of the site's names is moved to a free name first (see
    /// `freeSiteNames`).
    /// - Parameters:
    ///   - baseURL: the root's (or `out`'s) public URL; enclosures are relative without it.
    ///   - out: a folder of its own to publish into, made if missing.
    /// - Throws: `ArchiveError.noArchive` when `root` holds no show; `ArchiveError.storage` when a page cannot be
    ///   written; `ArchiveError.linkInSite` for a folder in `out` that is a link.
    func writeSite(root: URL, baseURL: String?, out: URL? = nil, privateShows: Set<String> = []) throws -> SiteReport {
        let base = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        var report = SiteReport()
        let site = out ?? root
        report.folder = site
        if let out { try FolderContents.createFolder(out, with: files) }
        let publication = try out.map {
            SitePublication(
                out: $0, record: try store.archive(root).sitePublished, files: files,
                attributes: attributes, mover: mover, records: records)
        }
        let recorded = publication?.recorded() ?? []
        // A private show's companion that holds one of its secrets is never published (see `SecretHolders`).
        let holders = out.map { _ in SecretHolders(privateShows: privateShows, files: files) }
        // What the site holds in `out` after this run: its pages, the files it published now, and those it
        // published before that the archive still holds (or of a show left out this time).
        var holds = Set<String>()
        var shows: [SiteShow] = []
        for listed in try verifier.feedFolders(in: root) {
            let indexURL = ShowState(folder: listed).index
            let loaded: ArchiveIndex
            do {
                guard let index = try indexes.loadIndex(at: indexURL) else { continue }
                loaded = index
            } catch {
                report.skipped.append((listed, error.reasonText))
                holds.formUnion(recorded.filter { $0.hasPrefix(listed.lastPathComponent + "/") })
                continue
            }
            guard let freed = freeSiteNames(of: listed, index: loaded, in: root, report: &report) else {
                holds.formUnion(recorded.filter { $0.hasPrefix(listed.lastPathComponent + "/") })
                continue
            }
            let (folder, index) = freed
            // A file that could not be moved (said in `report.moves`) leaves the show out rather than overwritten.
            if let taken = ArchiveLayout.siteShowNames.sorted().first(where: index.holds) {
                report.skipped.append((folder, "an archived file is named \(taken)"))
                holds.formUnion(recorded.filter { $0.hasPrefix(folder.lastPathComponent + "/") })
                continue
            }
            let target = out.map { $0.appendingPathComponent(folder.lastPathComponent, isDirectory: true) } ?? folder
            // Never through a link in `out`: refused, named, before anything of the show is read or written there.
            if let publication { _ = try publication.folder(target.lastPathComponent) }
            let stamp = siteStamp(of: folder, base: base, out: out)
            let stampURL = ShowState(folder: folder).siteStamp
            let present = ArchiveLayout.siteShowNames.allSatisfy {
                files.fileExists(atPath: target.appendingPathComponent($0).path)
            }
            // An unchanged show is read from its index alone, for the root page: no feed document parsed.
            let unchanged = present && files.contents(atPath: stampURL.path) == Data(stamp.utf8)
            var show = SiteShow.read(folder, index: index, files: files, details: !unchanged)
            if let holders { report.withheld += show.withholding(holders, in: folder) }
            shows.append(show)
            if let publication {
                let name = folder.lastPathComponent
                holds.formUnion(ArchiveLayout.siteShowNames.map { name + "/" + $0 })
                holds.formUnion(
                    SitePublication.archivedNames(of: show).map { name + "/" + $0 }.filter {
                        recorded.contains($0) && publication.holds($0)
                    })
            }
            if unchanged { continue }
            // What a killed site left where it writes this show's pages (see `TemporaryFiles`): its pages are
            // written through the show's state folder, or beside them in `out`.
            let state = ShowState(folder: folder).stateFolder
            sweepTemporaries(in: state) { ArchiveLayout.isWrittenWithoutShowLock($0) }
            if let publication {
                sweepTemporaries(in: target) { _ in true }
                holds.formUnion(try publication.publishFiles(of: show, into: target, report: &report))
            }
            let pages = [
                (ArchiveLayout.sitePage, SitePages.show(show)),
                (ArchiveLayout.siteFeed, PodcastFeed.xml(show, base: base)),
                (ArchiveLayout.siteSearchNotes, SiteSearch.notes(show)),
                (ArchiveLayout.siteSearchTranscripts, SiteSearch.transcripts(show, in: folder, files: files)),
            ]
            for (name, text) in pages {
                try writePage(text, to: target.appendingPathComponent(name), staging: out == nil ? state : nil)
            }
            try writePage(stamp, to: stampURL)
            if present { report.rewritten += 1 } else { report.created += 1 }
        }
        guard !shows.isEmpty || !report.skipped.isEmpty else {
            throw ArchiveError.noArchive(at: root, attributes: attributes)
        }
        report.shows = shows.count
        sweepTemporaries(in: site) { ArchiveLayout.siteRootNames.contains(String($0)) }
        let ordered = shows.sorted { $0.title.localizedStandardCompare($1.title) == .orderedAscending }
        try writePage(SitePages.root(ordered), to: site.appendingPathComponent(ArchiveLayout.sitePage))
        try writePage(SiteSearch.index(ordered), to: site.appendingPathComponent(ArchiveLayout.siteSearchIndex))
        try writePage(PodcastFeed.opml(ordered, base: base), to: site.appendingPathComponent(ArchiveLayout.siteOPML))
        report.removed = try publication?.removeStale(recorded: recorded, holds: holds) ?? []
        return report
    }

    /// What a show's pages were made from: the site's format, the base URL, the index's digest, and the kept feed
    /// document's, journal's and cover's sizes and dates.
    private func siteStamp(of folder: URL, base: String?, out: URL?) -> String {
        let state = ShowState(folder: folder)
        var hasher = SHA256()
        hasher.update(files.contents(atPath: state.index.path) ?? Data())
        var parts = ["site 2", base ?? "", out?.path ?? "", hasher.hexDigest()]
        let names =
            state.currentDocuments + [state.journal]
            + ArchiveLayout.coverNames.map { folder.appendingPathComponent($0) }
        for url in names {
            guard let found = try? attributes.attributesOfItem(atPath: url.path) else { continue }
            let date = (found[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            parts.append("\(url.lastPathComponent) \((found[.size] as? NSNumber)?.int64Value ?? 0) \(date)")
        }
        return parts.joined(separator: "\n") + "\n"
    }

    /// Removes from `folder` what a killed process left of the site's writes (see `TemporaryFiles`): temporary
    /// files of the names `written` says the site writes there, and only those.
    private func sweepTemporaries(in folder: URL, written: (Substring) -> Bool) {
        let names = ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            ArchiveLayout.temporaryParts(of: $0).map { written($0.target) } == true
        }
        TemporaryFiles.sweep(names, in: folder, files: files)
    }

    /// Replaces one page whole (written beside it, or in `staging`, then renamed), only when its content changed.
    private func writePage(_ text: String, to url: URL, staging: URL? = nil) throws {
        let data = Data(text.utf8)
        if files.contents(atPath: url.path) == data { return }
        do {
            try writer.writeAtomically(data, to: url, durable: false, stagedIn: staging)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }
}
