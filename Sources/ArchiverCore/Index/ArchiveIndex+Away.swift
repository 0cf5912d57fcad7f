// What an index entry says of an episode whose files may be away on purpose (see `AwayRecord`).
import Foundation

extension ArchiveIndex.Entry {
    /// Whether the entry's file is meant to be in the show's folder: false when it is offloaded, deleted by
    /// retention or handed off (see `AwayRecord`), even while that is pending.
    public var isHere: Bool { away == nil }

    /// How the episode is named to the user: its title, else its file, else (one skipped before it was downloaded
    /// names no file) its URL.
    var shownName: String { title ?? (file.isEmpty ? url : file) }

    /// The files that may go with the episode: its own, its companions', its sidecar (a newer version a repair kept
    /// beside it has an entry of its own).
    var awayFiles: [String] {
        [file] + (companions ?? []).map(\.file) + [ArchiveNames.sidecarName(for: file)]
    }
}
