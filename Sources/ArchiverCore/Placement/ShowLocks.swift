// The locks a sync holds: one per show folder (`.podarchive/lock`), so two syncs never write one show at once,
// and the root's while show folders move. A lock held elsewhere is waited for, a poll at a time, up to a limit.
import Foundation

/// Takes the lock files of show folders and archive roots.
struct ShowLocks: Sendable {
    let locker: any FileLocking
    let clock: SyncClock

    /// Takes the lock at `url`, which guards `folder`, waiting up to `wait` seconds for another holder to let go.
    /// - Throws: `ArchiveError.locked` (naming the holder) when it is still held then; `.storage` when the lock
    ///   file cannot be made.
    func acquire(_ url: URL, folder: URL, wait: TimeInterval) async throws -> any HeldLock {
        let poll: TimeInterval = 0.1
        var waited: TimeInterval = 0
        while true {
            let held: (any HeldLock)?
            do {
                held = try locker.tryLock(url)
            } catch {
                throw ArchiveError.storage(path: url.path, reason: ArchiveError.describe(error))
            }
            if let held { return held }
            guard waited < wait else { throw ArchiveError.locked(folder: folder.path, holder: locker.lockHolder(url)) }
            try await clock.sleep(poll)
            waited += poll
        }
    }

    /// The lock of the show (or root) in `folder`, taken at once; nil when another process holds it.
    func tryAcquire(folder: URL) -> (any HeldLock)? {
        try? locker.tryLock(ArchiveLayout.stateFile(ArchiveLayout.lockFile, of: folder))
    }

    /// How the last sync of the show in `folder` ended: the newer of what its subscription `recorded` and the
    /// note a sync that changed nothing else kept in the show's lock file (see `HeldLock.keep`).
    func lastSync(recorded: LastSync?, folder: URL) -> LastSync? {
        LastSync.latest(
            recorded: recorded, note: locker.note(in: ArchiveLayout.stateFile(ArchiveLayout.lockFile, of: folder)))
    }

    /// The lock of the show (or root) in `folder`, waited for up to `wait` seconds (see `acquire`).
    func acquire(folder: URL, wait: TimeInterval) async throws -> any HeldLock {
        try await acquire(ArchiveLayout.stateFile(ArchiveLayout.lockFile, of: folder), folder: folder, wait: wait)
    }
}
