// What an index entry says of an episode whose files may be away on purpose (see `AwayRecord`).
import Foundation

extension ArchiveIndex.Entry {
    /// Whether the entry's file is meant to be in the show's folder: false when it is offloaded, deleted by
    /// retention or handed off (see `AwayRecord`), even while that is pending.
    public var isHere: Bool { away == nil }

    /// The files that may go with the episode: its own, its companions', its sidecar (a newer version a repair kept
    /// beside it has an entry of its own).
    var awayFiles: [String] {
        [file] + (companions ?? []).map(\.file) + [ArchiveNames.sidecarName(for: file)]
    }
}
