// The locks a sync holds: one per show folder (`.podarchive/lock`), so two syncs never write one show at once,
// and the root's while show folders move. A lock held elsewhere is waited for, a poll at a time, up to a limit.
import Foundation

/// Takes the lock files of show folders and archive roots.
struct ShowLocks: Sendable {
    let locker: any FileLocking
    let clock: SyncClock

    /// Takes the lock at `url`, which guards `folder`, waiting up to `wait` seconds for another holder to let go.
    /// - Throws: `ArchiveError.locked` (naming the holder) when it is still held then; `.readOnly` when the lock
    ///   file cannot be written because the archive cannot be (a read-only mount, files this user may not write);
    ///   `.storage` when it cannot be made for another reason.
    func acquire(_ url: URL, folder: URL, wait: TimeInterval) async throws -> any HeldLock {
        do {
            return try await poll(url, folder: folder, wait: wait) { try locker.tryLock(url) }
        } catch let refused as LockFileRefused {
            throw refused.error
        }
    }

    /// The lock of the show in `folder` for a reader that changes nothing (`verify`): taken as `acquire` takes it
    /// wherever it can be; where the archive cannot be written, taken on the lock file as it is (flock(2) needs no
    /// write), so a sync still waits for the reader and the reader for it. Nil when not even that can be (no lock
    /// file, a file system that cannot lock a file opened for reading), with the reason the lock file cannot be
    /// written: the caller reads without the lock.
    /// - Returns: the lock, and whether the archive can be written (false: taken on the lock file as it is).
    func acquireForReading(folder: URL, wait: TimeInterval) async throws -> ReadingLock {
        let url = ShowState(folder: folder).lock
        do {
            return .held(try await poll(url, folder: folder, wait: wait) { try locker.tryLock(url) }, writable: true)
        } catch let refused as LockFileRefused {
            guard case .readOnly = refused.error else { throw refused.error }
            do {
                let lock = try await poll(url, folder: folder, wait: wait) { try locker.tryLockForReading(url) }
                return .held(lock, writable: false)
            } catch is LockFileRefused {
                return .unheld(refused.error)
            }
        }
    }

    /// Asks `take` for the lock every 0.1 s until it gives it or `wait` seconds have passed.
    /// - Throws: `ArchiveError.locked` then; `LockFileRefused` when `take` throws.
    private func poll(
        _ url: URL, folder: URL, wait: TimeInterval, take: () throws -> (any HeldLock)?
    ) async throws -> any HeldLock {
        let poll: TimeInterval = 0.1
        var waited: TimeInterval = 0
        while true {
            let held: (any HeldLock)?
            do {
                held = try take()
            } catch {
                throw LockFileRefused(url: url, underlying: error)
            }
            if let held { return held }
            guard waited < wait else { throw ArchiveError.locked(folder: folder.path, holder: locker.lockHolder(url)) }
            try await clock.sleep(poll)
            waited += poll
        }
    }

    /// The lock of the show (or root) in `folder`, taken at once; nil when another process holds it.
    func tryAcquire(folder: URL) -> (any HeldLock)? {
        try? locker.tryLock(ShowState(folder: folder).lock)
    }

    /// How the last sync of the show in `folder` ended: the newer of what its subscription `recorded` and the
    /// note a sync that changed nothing else kept in the show's lock file (see `HeldLock.keep`).
    func lastSync(recorded: LastSync?, folder: URL) -> LastSync? {
        LastSync.latest(
            recorded: recorded, note: locker.note(in: ShowState(folder: folder).lock))
    }

    /// The lock of the show (or root) in `folder`, waited for up to `wait` seconds (see `acquire`).
    func acquire(folder: URL, wait: TimeInterval) async throws -> any HeldLock {
        try await acquire(ShowState(folder: folder).lock, folder: folder, wait: wait)
    }
}

/// How a reader holds a show's lock (see `ShowLocks.acquireForReading`).
enum ReadingLock {
    /// Held; `writable` false when taken on the lock file as it is, the archive not writable.
    case held(any HeldLock, writable: Bool)
    /// Not held: why the lock file cannot be written (an `ArchiveError`, `.readOnly`).
    case unheld(ArchiveError)
}

/// The lock file at `url` could not be opened or locked: `underlying` says why.
private struct LockFileRefused: Error {
    let url: URL
    let underlying: Error

    /// What a command says of it: the archive cannot be written here (see `ArchiveError.meansReadOnly`), or
    /// another failure.
    var error: ArchiveError {
        let reason = ArchiveError.describe(underlying)
        return ArchiveError.meansReadOnly(underlying)
            ? .readOnly(path: url.path, reason: reason) : .storage(path: url.path, reason: reason)
    }
}
