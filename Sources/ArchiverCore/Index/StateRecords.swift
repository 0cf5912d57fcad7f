// The state of a download in progress, kept beside the index: its hidden files and the record of what is known
// about them, appended to the show's download log (see `DownloadLog`), only a hint. (The feed's validators:
// FeedValidators.swift; the subscriptions, in the archive root: Subscription.swift.)
import Foundation

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
    var record: URL { state.downloadRecord(stem) }
    /// The download's name in its state folder: `<hash>` of `download-<hash>.part`, and its key in the log.
    var stem: String
    var state: ShowState
    var stateFolder: URL { state.stateFolder }

    init(key: String, state: ShowState) {
        stem = StableName.of(key)
        self.state = state
        body = state.downloadBody(stem)
    }

    /// Whether `name`, in a state folder, is the body of a download waiting to be resumed.
    static func isBody(_ name: String) -> Bool { ArchiveLayout.isDownloadBody(name) }
}
