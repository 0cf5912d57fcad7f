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

    /// Settings; nil leaves one unset.
    public init(enabled: Bool? = nil, baseURL: String? = nil) {
        self.enabled = enabled
        self.baseURL = baseURL
    }
}

/// What `writeSite` did.
public struct SiteReport: Sendable, Equatable {
    /// Shows on the site.
    public var shows = 0
    /// Shows whose pages were written again.
    public var rewritten = 0
    /// Shows left out: the folder, and why.
    public var skipped: [(folder: URL, reason: String)] = []
    /// Show folders and archived files moved off names the site writes (an archive made by an earlier version),
    /// and those that could not be.
    public var moves: [SiteNameMove] = []

    public static func == (lhs: SiteReport, rhs: SiteReport) -> Bool {
        lhs.shows == rhs.shows && lhs.rewritten == rhs.rewritten
            && lhs.skipped.map(\.folder) == rhs.skipped.map(\.folder) && lhs.moves == rhs.moves
    }
}

extension Archiver {
    /// The site settings of `root` (none set when it has none).
    public func siteSettings(in root: URL) -> SiteSettings {
        (try? siteSettingsURL(in: root)).flatMap(folders.loadRecord) ?? SiteSettings()
    }

    /// Saves the site settings of `root`.
    /// - Throws: `ArchiveError.storage` when they cannot be written, or the root's state folder is a link.
    public func saveSiteSettings(_ settings: SiteSettings, in root: URL) throws {
        let url = try siteSettingsURL(in: root)
        try folders.createFolder(url.deletingLastPathComponent())
        try folders.saveRecord(settings, to: url)
    }

    private func siteSettingsURL(in root: URL) throws -> URL {
        try store.stateFolder(of: root).appendingPathComponent(ArchiveLayout.siteSettingsFile)
    }

    /// Writes `<root>/index.html`, `<root>/feeds.opml`, and each show's `index.html` and `feed.xml` (the names
    /// `ArchiveLayout` reserves). A show folder or archived file an earlier version gave one of those names is
    /// moved to a free name first (see `freeSiteNames`).
    /// - Parameter baseURL: the root's public URL; enclosures are relative without it.
    /// - Throws: `ArchiveError.noArchive` when `root` holds no show; `ArchiveError.storage` when a page cannot be
    ///   written.
    public func writeSite(root: URL, baseURL: String?) throws -> SiteReport {
        let base = baseURL.map { $0.hasSuffix("/") ? $0 : $0 + "/" }
        var report = SiteReport()
        var shows: [SiteShow] = []
        for listed in try verifier.feedFolders(in: root) {
            let indexURL = listed.appendingPathComponent(ArchiveIndex.stateFolderName)
                .appendingPathComponent(ArchiveIndex.fileName)
            let loaded: ArchiveIndex
            do {
                guard let index = try folders.loadIndex(at: indexURL) else { continue }
                loaded = index
            } catch {
                report.skipped.append((listed, error.reasonText))
                continue
            }
            guard let freed = freeSiteNames(of: listed, index: loaded, in: root, report: &report) else { continue }
            let (folder, index) = freed
            // A file that could not be moved (said in `report.moves`) leaves the show out rather than overwritten.
            if let taken = ArchiveLayout.siteShowNames.sorted().first(where: index.holds) {
                report.skipped.append((folder, "an archived file is named \(taken)"))
                continue
            }
            let stamp = siteStamp(of: folder, base: base)
            let stampURL = folder.appendingPathComponent(ArchiveIndex.stateFolderName).appendingPathComponent(
                "site.stamp")
            let present = ArchiveLayout.siteShowNames.allSatisfy {
                folders.files.fileExists(atPath: folder.appendingPathComponent($0).path)
            }
            // An unchanged show is read from its index alone, for the root page: no feed document parsed.
            let unchanged = present && folders.files.contents(atPath: stampURL.path) == Data(stamp.utf8)
            let show = SiteShow.read(folder, index: index, files: folders.files, details: !unchanged)
            shows.append(show)
            if unchanged { continue }
            let pages = [
                (ArchiveLayout.sitePage, SitePages.show(show)),
                (ArchiveLayout.siteFeed, PodcastFeed.xml(show, base: base)),
            ]
            for (name, text) in pages { try writePage(text, to: folder.appendingPathComponent(name)) }
            try writePage(stamp, to: stampURL)
            report.rewritten += 1
        }
        guard !shows.isEmpty || !report.skipped.isEmpty else { throw ArchiveError.noArchive(path: root.path) }
        report.shows = shows.count
        let ordered = shows.sorted { $0.title.localizedStandardCompare($1.title) == .orderedAscending }
        try writePage(SitePages.root(ordered), to: root.appendingPathComponent(ArchiveLayout.sitePage))
        try writePage(PodcastFeed.opml(ordered, base: base), to: root.appendingPathComponent(ArchiveLayout.siteOPML))
        return report
    }

    /// What a show's pages were made from: the site's format, the base URL, the index's digest, and the kept feed
    /// document's, journal's and cover's sizes and dates.
    private func siteStamp(of folder: URL, base: String?) -> String {
        let state = folder.appendingPathComponent(ArchiveIndex.stateFolderName)
        var hasher = SHA256()
        hasher.update(
            folders.files.contents(atPath: state.appendingPathComponent(ArchiveIndex.fileName).path) ?? Data())
        var parts = ["site 1", base ?? "", hasher.hexDigest()]
        let names =
            ["history/current.xml", "history/current.json", IndexJournal.fileName].map {
                state.appendingPathComponent($0)
            }
            + ArchiveLayout.coverNames.map { folder.appendingPathComponent($0) }
        for url in names {
            guard let attributes = try? folders.attributes.attributesOfItem(atPath: url.path) else { continue }
            let date = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            parts.append("\(url.lastPathComponent) \((attributes[.size] as? NSNumber)?.int64Value ?? 0) \(date)")
        }
        return parts.joined(separator: "\n") + "\n"
    }

    /// Replaces one page whole (written beside it, then renamed), only when its content changed.
    private func writePage(_ text: String, to url: URL) throws {
        let data = Data(text.utf8)
        if folders.files.contents(atPath: url.path) == data { return }
        do {
            try folders.writer.writeAtomically(data, to: url, durable: false)
        } catch {
            throw ArchiveError.storage(error, path: url.path)
        }
    }
}
