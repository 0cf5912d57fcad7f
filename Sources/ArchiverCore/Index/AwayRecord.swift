// An archived episode whose files are not in the show's folder on purpose, kept with its index entry (key `away`):
// offloaded to another folder (`offload --into`, or a saved retention), deleted by retention (`offload --delete`),
// or handed off by a hook that moved or removed the file. The entry stays in the index, so no sync fetches the
// episode again and `verify`, `list --archived`, `site` and `export` say where it went rather than call it missing.
// Each is written as an intent first (`pending`), then its effects follow, then it is settled; whichever command
// next takes the show's lock finishes one left pending (`FeedFolders.finishAway`). An index holding one is written
// as version 5, which an older podarchive refuses (exit 5) rather than fetch every offloaded episode again.
import Foundation

/// Where an archived episode's files went, when they left the show's folder on purpose.
public struct AwayRecord: Codable, Equatable, Sendable {
    /// Why the files are not in the show's folder.
    public enum State: String, Codable, Sendable, CaseIterable {
        /// Moved to another folder (`into`), which `verify` checks when it is reachable.
        case offloaded
        /// Deleted on purpose by retention (`offload --delete`).
        case deleted
        /// Moved or removed by a hook that succeeded (`--exec`): handed to a player, say.
        case handedOff
    }

    /// What is still to be done, written before it is done.
    public enum Pending: String, Codable, Sendable {
        /// Copy the files to `into`, check them, delete them from the show's folder.
        case offload
        /// Delete the files from the show's folder.
        case delete
        /// Copy the files back from `into`, check them, delete them there, and clear the record.
        case restore
    }

    /// Why the files are away.
    public var state: State
    /// When they went (RFC 3339).
    public var since: String
    /// For `offloaded`: the folder holding the show's files, an absolute path (the files keep their names in it).
    public var into: String?
    /// The files that went, relative to the show's folder (then to `into`): the episode's, its companions', its
    /// sidecar's, those that existed.
    public var files: [String]
    /// Set while the move, deletion or restore is not finished.
    public var pending: Pending?

    /// The record's keys in the index.
    enum CodingKeys: String, CodingKey, CaseIterable {
        case state, since, into, files, pending
    }

    /// A record of files that went away at `since`.
    public init(state: State, since: String, into: String? = nil, files: [String], pending: Pending? = nil) {
        self.state = state
        self.since = since
        self.into = into
        self.files = files
        self.pending = pending
    }

}

extension AwayRecord: EntryRecord {}
