// The episodes of a show forgotten for good: `<show>/.podarchive/forgotten.json`. Their entries leave the index
// (so `verify`, the site and the archived list no longer see them) and are kept here, so that a sync knows them
// when the feed still lists them and does not fetch them again. A file of its own, not a change of the index
// format: an older podarchive reads the archive as before (and, not knowing this file, fetches them again).
import Foundation

/// The episodes of one show forgotten for good, as their index entries were.
struct ForgottenEpisodes: Codable, Equatable, Sendable {
    /// One forgotten episode: its index entry, and when it was forgotten.
    struct Forgotten: Codable, Equatable, Sendable {
        var entry: ArchiveIndex.Entry
        /// RFC 3339.
        var forgotten: String
    }

    /// In the order they were forgotten.
    var episodes: [Forgotten] = []

    /// Their entries as an index, to match a feed's episodes the way the index does (GUID, URL, loose URL).
    var matcher: ArchiveIndex { ArchiveIndex(feed: "", title: nil, episodes: episodes.map(\.entry)) }

    static func url(in stateFolder: URL) -> URL {
        stateFolder.appendingPathComponent(ArchiveLayout.forgottenFile, isDirectory: false)
    }

    /// The record of the show whose state folder is `stateFolder`; empty when there is none (or it is damaged:
    /// the episodes are then fetched again, never lost).
    static func load(in stateFolder: URL, files: any FileStore) -> ForgottenEpisodes {
        files.contents(atPath: url(in: stateFolder).path).flatMap {
            try? JSONDecoder().decode(ForgottenEpisodes.self, from: $0)
        } ?? ForgottenEpisodes()
    }
}
