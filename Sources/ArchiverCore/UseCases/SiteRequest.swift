// `podarchive site` as one call: the site's settings given (`--base-url`, `--out`, or forgetting the saved folder)
// saved for the archive, the folder to publish into checked (never the archive itself), and the site written.
import Foundation

/// Writing the archive's site.
public struct SiteRequest: Sendable {
    /// The archive.
    public var root: URL
    /// The address the site will be served at; nil keeps the saved one.
    public var baseURL: String?
    /// The folder to publish into, absolute; nil keeps the saved one.
    public var out: String?
    /// Forget the saved folder: the archive's own pages are written again.
    public var forgetOut = false
    /// The access settings (the `.netrc` file read, for what a private show holds).
    public var settings: CommandSettings

    /// Writing the site of `root`.
    public init(root: URL, settings: CommandSettings) {
        self.root = root
        self.settings = settings
    }
}

/// What writing the site did, with the settings it was written with.
public struct SiteWritten: Sendable {
    /// What was written, published and removed.
    public var report: SiteReport
    /// The settings it was written with, as saved.
    public var settings: SiteSettings
    /// It went to the folder a saved `--out` names (none was given this time).
    public var intoSavedOut: Bool
}

extension ArchiveCommands {
    /// `podarchive site`: saves the settings given, then writes the site; `episodesFailed` when a show was left
    /// out of it, `usage` for a folder inside the archive (nothing is saved or written then).
    public func site(_ request: SiteRequest) async -> CommandOutcome<SiteWritten> {
        await .of({ try archiver.writingSite(request) }, status: \.report.status)
    }
}

extension SyncEngine {
    /// Saves the site settings `request` gives, then writes the site.
    fileprivate func writingSite(_ request: SiteRequest) throws -> SiteWritten {
        let root = request.root.standardizedFileURL.path
        if let out = request.out, out == root || out.hasPrefix(root + "/") {
            throw SiteOutInsideArchive(out: out, root: request.root.path)
        }
        var settings = siteSettings(in: request.root)
        let out = request.forgetOut ? nil : request.out ?? settings.out
        if settings.baseURL != (request.baseURL ?? settings.baseURL) || settings.out != out {
            settings.baseURL = request.baseURL ?? settings.baseURL
            settings.out = out
            try saveSiteSettings(settings, in: request.root)
        }
        let access = request.settings.archiveAccess
        let report = try writeSite(
            root: request.root, baseURL: settings.baseURL, out: settings.out.map { URL(fileURLWithPath: $0) },
            access: access)
        return SiteWritten(
            report: report, settings: settings, intoSavedOut: request.out == nil && settings.out != nil)
    }
}
