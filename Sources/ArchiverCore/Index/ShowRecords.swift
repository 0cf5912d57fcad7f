// The small records beside a show's index: the feed's validators, companions that failed, and the record of each
// download in progress. Each is a hint checked again when read: losing one costs a download, never a file.
import Foundation

/// Reads and writes a show's small records, and drops a download's hidden files.
struct ShowRecords: Sendable {
    let files: any FileStore
    let writer: any AtomicFileWriting
    /// The download logs of the shows open now, shared by every copy of these records (see `DownloadLog`).
    let logs = DownloadLogs()

    /// Makes the next sync of the show whose state folder is `stateFolder` read its feed in full, never
    /// conditionally (see `FeedValidators.readInFullNextTime`): what must be derived from the feed again (a
    /// damaged journal record's episode, a changed wish) is then derived. Durable before it returns.
    func readFeedInFullNextTime(of show: ShowState) throws {
        try FeedValidators.readInFullNextTime(show.validators, files: files, writer: writer)
    }
}
