// The archiver's side of the site: its settings and `podarchive site`, written by `SiteWriter`.
import Foundation

extension Archiver {
    /// The site settings of `root` (none set when it has none).
    public func siteSettings(in root: URL) -> SiteSettings { parts.site.siteSettings(in: root) }

    /// Saves the site settings of `root`.
    /// - Throws: `ArchiveError.storage` when they cannot be written, or the root's state folder is a link.
    public func saveSiteSettings(_ settings: SiteSettings, in root: URL) throws {
        try parts.site.saveSiteSettings(settings, in: root)
    }

    /// Writes the archive's web pages and podcast feeds (see `SiteWriter.writeSite`).
    /// - Parameters:
    ///   - baseURL: the root's (or `out`'s) public URL; enclosures are relative without it.
    ///   - out: a folder of its own to publish into, made if missing.
    /// - Throws: `ArchiveError.noArchive` when `root` holds no show; `ArchiveError.storage` when a page cannot be
    ///   written.
    ///   - access: the `.netrc` file the run would read: with `out`, a private show's companion that holds one of
    ///     its secrets is left out (`SiteReport.withheld`).
    public func writeSite(root: URL, baseURL: String?, out: URL? = nil, access: SyncOptions = SyncOptions()) throws
        -> SiteReport
    {
        try parts.site.writeSite(
            root: root, baseURL: baseURL, out: out,
            privateShows: out == nil ? [] : privateShows(in: root, access: access))
    }
}
