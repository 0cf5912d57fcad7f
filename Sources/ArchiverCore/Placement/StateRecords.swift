// Small JSON records podarchive keeps beside the index: the feed's validators, and the state of a download in
// progress. The validators are rewritten atomically; a download record, only a hint, is appended to the show's
// download log. (The
// subscriptions, in the archive root, are in Subscriptions.swift.)
import Foundation

/// `<feed folder>/.podarchive/feed.json`: the feed's ETag and Last-Modified, sent back as
/// `If-None-Match` / `If-Modified-Since` on the next sync.
public struct FeedValidators: Codable, Equatable, Sendable {
    /// The feed's last `ETag`, sent back as `If-None-Match`.
    public var etag: String?
    /// The feed's last `Last-Modified`, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// True when the run that saved these left some of what the feed lists undone (episodes outside its filter,
    /// artwork that failed, a failure whose URL's secret only the feed holds), or when something since changed what
    /// the show wants (`forget --undo`, see `ShowRecords.markIncomplete`): the next run then fetches the feed in
    /// full, since a `304` would hide that work.
    public var incomplete: Bool?
    /// True when all the run left undone is what its filter left out (`incomplete` is then set for earlier
    /// versions, which fetch in full as before): a run that wants the same (`wants`) trusts a `304`, since an
    /// unchanged document leaves the same episodes out.
    public var leftOutOnly: Bool?
    /// The fingerprint of what the run that saved these wanted (its filter and companions, see `FeedWants`): a run
    /// that wants something else fetches the feed in full once. Absent in records of earlier versions: the first
    /// run of this one fetches in full.
    public var wants: String?
    /// How many episodes the feed listed when it was last read in full: what an unchanged feed still lists.
    public var listed: Int?
    /// True when that run also wrote sidecars (`--metadata`): a run that wants them and finds this unset
    /// fetches the feed in full, to describe what is already archived.
    public var sidecars: Bool?
    /// Archive documents (RFC 5005) of this feed already read in full: never fetched again.
    public var archives: [String]?
    /// Where each of those links to (its `prev-archive`; "" at the end of the chain), so a walk goes past them
    /// without fetching them. Absent for archives recorded by an earlier version: a walk then ends at them.
    public var archiveLinks: [String: String]?
    /// A page link that was refused (not http(s)) on the last run, so the warning is given once.
    public var refusedPage: String?
    /// When the feed was last fetched in full (RFC 3339): the last time its episodes were seen.
    public var fetched: String?
    /// The digest of what the feed last said of its episodes (see `FeedRevision`): a document that says the
    /// same is no new revision of the history.
    public var revision: String?

    /// Validators as the server sent them.
    public init(etag: String?, lastModified: String?) {
        self.etag = etag
        self.lastModified = lastModified
    }

    /// Whether a conditional fetch with these is safe for a run that wants `wants`: the run that saved them
    /// wanted the same (its filter, its companions, sidecars if these are wanted) and left nothing else undone.
    func covers(_ wants: FeedWants) -> Bool {
        (incomplete != true || leftOutOnly == true) && self.wants == wants.fingerprint
            && (!wants.metadata || sidecars == true)
    }

}

/// A download in progress, so a later run can resume it with `Range`/`If-Range`, or, if it finished and was being
/// moved into place when the process died, adopt it. Kept as a line of the show's download log
/// (`<feed folder>/.podarchive/downloads.log`, see `DownloadLog`), the last line of a download that decodes
/// counting, so a line torn by a crash leaves the record as it was before that write. (Versions before 2026-11-27
/// kept each in a file of its own, `download-<hash>.json`, a log of its own lines: still read, see `DownloadLog`.)
struct PartialRecord: Codable, Equatable {
    /// The enclosure URL the bytes came from.
    var url: String
    /// The strong ETag, else the Last-Modified date, of the response the bytes came from.
    var validator: String?
    /// The whole file's size as the server announced it.
    var expectedSize: Int64?
    /// Set once the download passed its checks: the file's size, hash and the name it is being moved to.
    var completeSize: Int64?
    var sha256: String?
    var target: String?
    /// In the log only: which download the line is of (its `PartialFiles.stem`); nil in a record as read.
    var download: String?

    /// The keys of Codable and of the log's hand writer (`logLine`).
    enum CodingKeys: String, CodingKey {
        case url, validator, expectedSize, completeSize, sha256, target, download
    }
}

/// The hidden files of one download in a show's state folder: the bytes so far (`download-<hash>.part`), and where
/// what is known about them is kept (its `stem`'s lines in the show's download log; an earlier version's record
/// file, `download-<hash>.json`).
struct PartialFiles {
    var body: URL
    /// The record file an earlier version kept for this download (see `DownloadLog`).
    var record: URL { stateFolder.appendingPathComponent(ArchiveLayout.downloadRecord(stem), isDirectory: false) }
    /// The download's name in its state folder: `<hash>` of `download-<hash>.part`, and its key in the log.
    var stem: String
    var stateFolder: URL

    init(key: String, stateFolder: URL) {
        stem = StableName.of(key)
        self.stateFolder = stateFolder
        body = stateFolder.appendingPathComponent(ArchiveLayout.downloadBody(stem), isDirectory: false)
    }

    /// Whether `name`, in a state folder, is the body of a download waiting to be resumed.
    static func isBody(_ name: String) -> Bool { ArchiveLayout.isDownloadBody(name) }
}

extension JSONEncoder {
    /// Records are small and read by podarchive: compact, keys sorted.
    static let records: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}
