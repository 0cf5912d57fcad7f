// Every name podarchive gives on disk, said once: the state folders, the records in them, and the names the site
// writes (which episodes, companions and show folders never take).
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

    /// The site's page, at the root (every show) and in each show's folder (its episodes).
    public static let sitePage = "index.html"
    /// At the root: the OPML list of the shows' feeds.
    public static let siteOPML = "feeds.opml"
    /// In each show's folder: the show as a podcast feed.
    public static let siteFeed = "feed.xml"
    /// Names the site writes at the root: no show folder takes one.
    public static let siteRootNames: Set<String> = [sitePage, siteOPML]
    /// Names the site writes in a show's folder: no episode or companion takes one (nor `cover.<artwork ext>`,
    /// the show's artwork; see `isReservedInShow`).
    public static let siteShowNames: Set<String> = [sitePage, siteFeed]
    /// The extensions the show's artwork is kept under (`cover.<ext>`), in the order the site looks for them.
    static let artworkExtensions = ["jpg", "jpeg", "png", "webp", "gif"]
    /// The names the show's artwork may have, in the order the site looks for them.
    static let coverNames = artworkExtensions.map(coverName)

    /// The show's artwork kept as `ext`.
    static func coverName(_ ext: String) -> String { "cover." + ext }

    /// The state folder of the archive root or show folder `folder`.
    public static func stateFolder(of folder: URL) -> URL {
        folder.appendingPathComponent(stateFolderName, isDirectory: true)
    }

    /// Whether a show folder may not be called `name` (compared without case: macOS's file systems ignore it).
    public static func isReservedAtRoot(_ name: String) -> Bool {
        name.utf8.count <= longestReserved && siteRootNames.contains(name.lowercased())
    }

    /// Whether an episode or companion file may not be called `name`, a path inside the show's folder: its first
    /// component is what the site writes there (`feed.xml`, `Feed.XML`, `cover.png`, or a folder `index.html/`).
    public static func isReservedInShow(_ name: String) -> Bool {
        // Most names are longer than any reserved one: a few bytes read and no lowercasing for them (a sync checks
        // every name its index holds).
        var length = 0
        for byte in name.utf8 {
            if byte == UInt8(ascii: "/") { break }
            length += 1
            if length > longestReserved { return false }
        }
        let first = name.utf8.count == length ? name : String(decoding: name.utf8.prefix(length), as: UTF8.self)
        let lowered = first.lowercased()
        return siteShowNames.contains(lowered) || isCover(lowered)
    }

    /// Whether `name` (in a show's folder) is a name the show's artwork is kept under.
    static func isCover(_ name: String) -> Bool {
        guard name.utf8.count <= longestReserved else { return false }
        return coverNames.contains(name.lowercased())
    }

    /// The length in bytes of the longest reserved name.
    private static let longestReserved = siteRootNames.union(siteShowNames).union(coverNames).map(\.utf8.count).max()!
}
