// Every name podarchive gives on disk, said once: the state folders, the records in them, and the names the site
// writes (which episodes and show folders never take).
import Foundation

/// The names and paths of the archive tree.
public enum ArchiveLayout {
    /// The folder podarchive keeps its own files in, at the root and in each show's folder.
    public static let stateFolderName = ".podarchive"
    /// In the root's state folder: the subscription records.
    static let subscriptionsFolder = "feeds"
    /// In the root's state folder: the archive's identity (see `ArchiveIdentity`).
    static let identityFile = "archive.json"
    /// In the root's state folder: the site's settings.
    static let siteSettingsFile = "site.json"

    /// Names the site writes at the root: no show folder takes one.
    public static let siteRootNames: Set<String> = ["index.html", "feeds.opml"]
    /// Names the site writes in a show's folder: no episode or companion takes one (nor `cover.<artwork ext>`,
    /// the show's artwork; see `isReservedInShow`).
    public static let siteShowNames: Set<String> = ["index.html", "feed.xml"]

    /// The state folder of the archive root or show folder `folder`.
    public static func stateFolder(of folder: URL) -> URL {
        folder.appendingPathComponent(stateFolderName, isDirectory: true)
    }

    /// Whether a show folder may not be called `name` (compared without case: macOS's file systems ignore it).
    public static func isReservedAtRoot(_ name: String) -> Bool {
        siteRootNames.contains(name.lowercased())
    }

    /// Whether an episode or companion file may not be called `name` (a path inside the show's folder).
    public static func isReservedInShow(_ name: String) -> Bool {
        let lowered = name.lowercased()
        return siteShowNames.contains(lowered) || ArchiveNames.isArtwork(lowered)
    }
}
