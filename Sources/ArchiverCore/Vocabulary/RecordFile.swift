// One saved record as a value: where it is and how it is written. Only the layout types (`ShowState`, `ArchiveRoot`)
// make one, so a record's path is built in one place; each record's own file names its property on them, with its
// durability (see `RecordFile+Store.swift` in Seams for the one way a record is read and written).
import Foundation

/// How a record's rewrite survives a power cut.
enum RecordDurability: Sendable, Equatable {
    /// Rewritten atomically, not fsynced: a hint checked again when read (validators, what failed, the site's
    /// settings), so losing one costs a download or a question, never a file.
    case hint
    /// Rewritten atomically and fsynced (file and folder) before the act it announces (a hook owed, a forget, a
    /// move's mark).
    case intent
}

/// A record file of type `Record`: its path, how it is written, and whether only its owner may read it.
struct RecordFile<Record>: Sendable, Equatable {
    /// Where the record is kept.
    let url: URL
    /// How a rewrite survives a power cut.
    let durability: RecordDurability
    /// Whether the file is 0600 from its first byte (it holds what only its owner may read).
    let ownerOnly: Bool

    /// Made only by the layout types: `folder` is a state folder they built.
    init(_ name: String, in folder: URL, _ durability: RecordDurability, ownerOnly: Bool = false) {
        // `isDirectory: false`: without it, URL asks the file system whether the name is a folder.
        url = folder.appendingPathComponent(name, isDirectory: false)
        self.durability = durability
        self.ownerOnly = ownerOnly
    }

    /// The path, for messages and for the file system's calls.
    var path: String { url.path }
}
