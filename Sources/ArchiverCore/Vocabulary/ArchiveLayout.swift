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
    /// Where `sync` refreshes the library after each run (`LibrarySettings`).
    static let librarySettingsFile = "library.json"
    /// What `site --out` published into its folder (`PublishedFiles`), in the root's state folder.
    static let sitePublishedFile = "site-published.json"
    /// In the root's subscriptions folder: the record of the subscription `id`.
    static func subscriptionFile(_ id: String) -> String { id + recordSuffix }
    /// Whether `name`, in the subscriptions folder, is a subscription's record (not a temporary file).
    static func isSubscriptionFile(_ name: String) -> Bool { name.hasSuffix(recordSuffix) && !name.hasPrefix(".") }
    /// The subscription's id its record's file name says.
    static func subscriptionID(ofFile name: String) -> String { String(name.dropLast(recordSuffix.count)) }

    // MARK: - A show's state folder

    /// The show's index.
    public static let indexFile = "index.json"
    /// The index's journal, beside it: the episodes archived since the index was last written whole.
    public static let journalFile = "index.journal"
    /// The feed's validators and what the last run read of it (`FeedValidators`).
    static let validatorsFile = "feed.json"
    /// Companions that failed, and how often (`CompanionMisses`).
    static let companionMissesFile = "companions.json"
    /// What the hook did for each episode (`HookLedger`).
    static let hooksFile = "hooks.json"
    /// The episodes forgotten for good (`ForgottenEpisodes`).
    static let forgottenFile = "forgotten.json"
    /// The stable numbers `{number}` gives the show's episodes (`EpisodeNumbers`).
    static let numbersFile = "numbers.json"
    /// The renames `podarchive rename` has planned and not finished (`PendingRenames`).
    static let renamesFile = "renames.json"
    /// The mark of a `credentials --move` not finished in this show (`PendingMove`): written before the move's
    /// first effect, removed when no place in the show's folder holds a secret any more.
    static let pendingMoveFile = "credentials-move.json"
    /// The lock a sync holds on the show (and the root's state folder, on the archive, while folders move).
    static let lockFile = "lock"
    /// The feed's own history (see `FeedHistory`): each revision gzipped, and the newest as it was fetched.
    static let historyFolder = "history"
    /// The extension of a revision kept in the history.
    static let revisionSuffix = ".gz"
    /// In the history folder: the newest document, kept as `ext` (`xml` or `json`).
    static func currentDocument(_ ext: String) -> String { "current." + ext }
    /// The extensions a feed's document is kept under.
    static let documentExtensions = ["xml", "json"]
    /// What the show's pages of the site were made from (see `SiteWriter.siteStamp`).
    static let siteStampFile = "site.stamp"
    /// A download's hidden files (see `PartialFiles`): the bytes so far, and the record an earlier version kept of
    /// them in a file of its own.
    static func downloadBody(_ stem: String) -> String { downloadPrefix + stem + ".part" }
    static func downloadRecord(_ stem: String) -> String { downloadPrefix + stem + recordSuffix }
    /// The show's download records, a line each (see `DownloadLog`).
    public static let downloadLog = "downloads.log"
    /// Whether `name`, in a state folder, is the body of a download waiting to be resumed.
    static func isDownloadBody(_ name: String) -> Bool { name.hasPrefix(downloadPrefix) && name.hasSuffix(".part") }
    /// The stem of a download whose body (`isDownloadBody`) is `name`.
    static func downloadStem(ofBody name: String) -> String {
        String(name.dropFirst(downloadPrefix.count).dropLast(".part".count))
    }
    /// Whether `name`, in a state folder, holds download records: the log, or an earlier version's record file.
    static func isDownloadRecord(_ name: String) -> Bool { name == downloadLog || isDownloadRecordFile(name) }
    /// Whether `name`, in a state folder, is the record file of one download an earlier version kept.
    static func isDownloadRecordFile(_ name: String) -> Bool {
        name.hasPrefix(downloadPrefix) && name.hasSuffix(recordSuffix)
    }
    /// The stem of a download whose record file (`isDownloadRecordFile`) is `name`.
    static func downloadStem(ofRecordFile name: String) -> String {
        String(name.dropFirst(downloadPrefix.count).dropLast(recordSuffix.count))
    }
    private static let downloadPrefix = "download-"
    /// Where a repair keeps a damaged file (`stem` names it) for the instant of the rename that replaces it.
    static func setAside(_ stem: String) -> String { asidePrefix + stem }
    /// Whether `name`, in a state folder, is a damaged file set aside by a repair.
    static func isSetAside(_ name: String) -> Bool { name.hasPrefix(asidePrefix) }
    private static let asidePrefix = "damaged-"
    /// What the temporary file of an atomic write carries after the name it replaces (`.<name>.tmp-<unique>`).
    static let temporaryInfix = ".tmp-"
    /// The temporary file an atomic write of `name` goes through, made unique by `unique` (who made it, see
    /// `TemporaryFiles`). `name` is cut to `temporaryTargetBytes`: a name of 255 bytes has room for no suffix.
    static func temporary(for name: String, unique: String) -> String {
        "." + FileNamer.truncate(name, toBytes: temporaryTargetBytes) + temporaryInfix + unique
    }
    /// The most of the replaced file's name a temporary file's name carries.
    static let temporaryTargetBytes = 100
    /// The name a temporary file stands for (cut as `temporary` cuts it) and what makes it unique; nil when `name`
    /// is no temporary file.
    static func temporaryParts(of name: String) -> (target: Substring, unique: Substring)? {
        guard name.hasPrefix("."), let infix = name.range(of: temporaryInfix, options: .backwards) else { return nil }
        return (name[name.index(after: name.startIndex)..<infix.lowerBound], name[infix.upperBound...])
    }
    /// Whether `name` is the temporary file of an atomic write (see `TemporaryFiles` for whose, and whether stale).
    static func isTemporary(_ name: String) -> Bool { temporaryParts(of: name) != nil }
    /// Whether `name` is a temporary file of a write of the file called `target`.
    static func isTemporary(_ name: String, of target: String) -> Bool {
        temporaryParts(of: name)?.target == Substring(FileNamer.truncate(target, toBytes: temporaryTargetBytes))
    }
    /// The files of a show's folder and state folder that the site writes without the show's lock (its pages and
    /// their stamp): a temporary file of one of them may be a live `site`'s, whoever holds the lock.
    static func isWrittenWithoutShowLock(_ name: Substring) -> Bool {
        name == siteStampFile || siteShowNames.contains(String(name))
    }
    /// Every name podarchive gives in a state folder (the root's and the shows'), but the files of one download
    /// (`downloadBody`, `downloadRecord`), a repair's set-aside copy (`setAside`) and temporary files (`temporary`):
    /// what a file map in the documentation may name after `.podarchive/` (a test checks that it does no more).
    static let stateNames: Set<String> = [
        subscriptionsFolder, identityFile, siteSettingsFile, librarySettingsFile, sitePublishedFile, indexFile,
        journalFile,
        validatorsFile, companionMissesFile, hooksFile, forgottenFile, numbersFile, renamesFile, pendingMoveFile,
        lockFile, historyFolder, siteStampFile, downloadLog,
    ]

    /// What a record podarchive keeps as JSON ends with.
    private static let recordSuffix = ".json"

    /// What a sidecar's name ends with (`Season 1/Pilot.mp3` has `Season 1/Pilot.info.json`).
    static let sidecarSuffix = ".info.json"

    // MARK: - The configuration folder

    /// The configuration folder under `$XDG_CONFIG_HOME`, and under the home folder without it.
    static let configurationFolder = "podarchive"
    static let configurationFolderInHome = ".config/podarchive"
    /// In the configuration folder: the settings every run starts from (see `ConfigurationFile`).
    static let configurationFile = "config"
    /// In the configuration folder: the credentials of private feeds, a file each.
    static let credentialsFolder = "credentials"
    /// The credentials of the show `show` of the archive `archive`.
    static func credentialsFile(archive: String, show: String) -> String { "\(archive).\(show)" + recordSuffix }

    /// What `export --library` wrote into its folder (not the archive's: the library's own record, in the library).
    static let libraryRecord = ".podarchive-library.json"

    /// The site's page, at the root (every show) and in each show's folder (its episodes).
    public static let sitePage = "index.html"
    /// At the root: the OPML list of the shows' feeds.
    public static let siteOPML = "feeds.opml"
    /// In each show's folder: the show as a podcast feed.
    public static let siteFeed = "feed.xml"
    /// At the root: the search's index of every episode's title (loaded by the root page as a script).
    public static let siteSearchIndex = "search-index.js"
    /// In a show's folder: the words of its episodes' notes, for the search (loaded as a script when searching).
    public static let siteSearchNotes = "search-notes.js"
    /// In a show's folder: the words of its episodes' transcripts, for the search (fetched when served).
    public static let siteSearchTranscripts = "search-transcripts.json"
    /// Names the site writes at the root: no show folder takes one.
    public static let siteRootNames: Set<String> = [sitePage, siteOPML, siteSearchIndex]
    /// Names the site writes in a show's folder: no episode or companion takes one (nor `cover.<artwork ext>`,
    /// the show's artwork; see `isReservedInShow`).
    public static let siteShowNames: Set<String> = [
        sitePage, siteFeed, siteSearchNotes, siteSearchTranscripts,
    ]
    /// The extensions the show's artwork is kept under (`cover.<ext>`), in the order the site looks for them.
    static let artworkExtensions = ["jpg", "jpeg", "png", "webp", "gif"]
    /// The names the show's artwork may have, in the order the site looks for them.
    static let coverNames = artworkExtensions.map(coverName)

    /// The show's artwork kept as `ext`.
    static func coverName(_ ext: String) -> String { "cover." + ext }

    /// The state folder of the archive root or show folder `folder` (the one place it is built: `ShowState` and
    /// `ArchiveRoot`, which build every path of the state, start from it).
    public static func stateFolder(of folder: URL) -> URL {
        folder.appendingPathComponent(stateFolderName, isDirectory: true)
    }

    /// The index of the show in `folder`, for the executable's messages (the core reaches it as `ShowState.index`).
    public static func indexFile(of folder: URL) -> URL {
        stateFolder(of: folder).appendingPathComponent(indexFile, isDirectory: false)
    }

    /// Where a message shows an archive's index: `.podarchive/index.json`.
    static let indexPath = stateFolderName + "/" + indexFile

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
