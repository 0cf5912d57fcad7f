// A `credentials --move` recorded before its first effect: the mark it leaves in each show's state folder says that
// the show's folder may still hold a secret an earlier podarchive wrote (index, journal, history, sidecars at any
// depth, download records, origin attributes, leftover temporary files). Whichever command next takes the show's
// lock (`FeedFolders.read`) cleans every one of them and removes the mark, so a move killed at any point is
// finished by the next `--move` or the next sync, forget or repair of the show. The mark holds no secret.
import Foundation

/// The mark of a move not finished in one show (see the file's opening comment). An older podarchive lists it as
/// a file it does not know and leaves it alone.
struct PendingMove: Codable, Equatable, Sendable {
    /// The mark's format, so that a later version can tell its own from this one's.
    var version = 1

    /// Writes the mark durably, before the move changes anything of the show (the show's lock held).
    /// - Throws: `ArchiveError.storage` when it cannot be written: the move then changes nothing of the show.
    static func mark(_ file: RecordFile<PendingMove>, writer: any AtomicFileWriting) throws {
        try file.save(PendingMove(), writer)
    }

    /// Whether the show whose mark is `file` has a move to finish.
    static func isPending(_ file: RecordFile<PendingMove>, files: any FileStore) -> Bool { file.exists(files) }

    /// Removes the mark, once no place of the show holds a secret (the show's lock held).
    /// - Throws: `ArchiveError.storage` when it cannot be removed (the next command that takes the lock cleans the
    ///   show again, which changes nothing, and tries again).
    static func settle(_ file: RecordFile<PendingMove>, files: any FileStore) throws {
        // Gone already (another command finished it first): settled all the same.
        try file.remove(files)
    }
}

extension ShowState {
    /// The mark of a `credentials --move` not finished in the show: written durably before the move's first effect.
    var pendingMove: RecordFile<PendingMove> { record(ArchiveLayout.pendingMoveFile, .intent) }
}

/// What finishes a pending move in a show (see `PendingMove`), given to `FeedFolders`, which calls it whenever it
/// opens a show whose state folder holds the mark: one place for every command that takes a show's lock.
protocol PendingMoveFinishing: Sendable {
    /// Cleans every place in `show` (its lock held) that may still hold a secret, and settles the mark when none
    /// does any more. Returns how many files changed or went.
    /// - Throws: `ArchiveError` when the index cannot be kept clean (the lock is then given back by the caller).
    func finishMove(of show: inout FeedFolder) throws -> Int
}
