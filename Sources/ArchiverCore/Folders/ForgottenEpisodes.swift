// The episodes of a show forgotten for good: `<show>/.podarchive/forgotten.json`. Their entries leave the index
// (so `verify`, the site and the archived list no longer see them) and are kept here, so that a sync knows them
// when the feed still lists them and does not fetch them again. A file of its own, not a change of the index
// format: an older podarchive reads the archive as before (and, not knowing this file, fetches them again).
// Forgetting is an intent written before its effects: an episode is recorded here with what is still to be done
// (`pending`: its entry out of the index, its files deleted) before the index changes, and settled once both are
// done; whichever command next takes the show's lock finishes it (`FeedFolders.finishForgetting`).
import Foundation

/// The episodes of one show forgotten for good, as their index entries were.
struct ForgottenEpisodes: Codable, Equatable, Sendable {
    /// One forgotten episode: its index entry, and when it was forgotten.
    struct Forgotten: Codable, Equatable, Sendable {
        var entry: ArchiveIndex.Entry
        /// RFC 3339.
        var forgotten: String
        /// While forgetting it is not finished: the files still to delete (the episode's, its companions', its
        /// sidecar; none when they are kept), its entry still to leave the index. Nil once done, and in records of
        /// 0.1.0 (which wrote the record last): an older podarchive ignores the key, and leaves those files.
        var pending: [String]? = nil
    }

    /// In the order they were forgotten.
    var episodes: [Forgotten] = []
    /// Episodes taken back (`forget --undo`) and not archived again yet, as their index entries were: the next
    /// sync fetches them whatever its filter leaves out, the user's wish being explicit. An entry goes once the
    /// index holds the episode again. Absent in records of 0.1.0, which ignores the key (and fetches them only
    /// within its filter).
    var takenBack: [ArchiveIndex.Entry]? = nil

    /// The taken-back episodes as an index, to match a feed's episodes the way the index does.
    var takenBackMatcher: ArchiveIndex? {
        takenBack.flatMap { $0.isEmpty ? nil : ArchiveIndex(feed: "", title: nil, episodes: $0) }
    }

    /// Their entries as an index, to match a feed's episodes the way the index does (GUID, URL, loose URL).
    var matcher: ArchiveIndex { ArchiveIndex(feed: "", title: nil, episodes: episodes.map(\.entry)) }

    /// The episodes whose forgetting is not finished.
    var pending: [Forgotten] { episodes.filter { $0.pending != nil } }

    /// The files of `entry` that forgetting it deletes: its own, its companions', its sidecar.
    static func files(of entry: ArchiveIndex.Entry) -> [String] {
        [entry.file] + (entry.companions ?? []).map(\.file) + [ArchiveNames.sidecarName(for: entry.file)]
    }

    /// The record kept in `file`; empty when there is none (or it is damaged: the episodes are then fetched again,
    /// never lost).
    static func load(_ file: RecordFile<ForgottenEpisodes>, files: any FileStore) -> ForgottenEpisodes {
        file.load(files) ?? ForgottenEpisodes()
    }
}

extension ShowState {
    /// The episodes forgotten for good: written durably, the intent a forget's effects follow, and what keeps a
    /// forgotten episode from coming back.
    var forgotten: RecordFile<ForgottenEpisodes> { record(ArchiveLayout.forgottenFile, .intent) }
}
