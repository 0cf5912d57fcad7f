// `podarchive credentials --move`: an archive an earlier podarchive wrote keeps its shows' logins, headers and
// feed tokens in its subscription records, and the URLs with their tokens in its history documents, sidecars and
// download records. Moving them is deliberate, never a side effect of a sync: a machine whose configuration folder
// is not the one the archive's other users share must not strip a shared archive of its secrets. Intent first:
// each show's folder is marked (`PendingMove`) before anything changes; then the secrets are written to the
// configuration folder and each record rewritten without them; then each show is opened, which cleans its files
// and settles its mark (`FeedFolders.read`, through `MoveFinisher`), as the next command to take its lock would
// had the move been killed.
import Foundation

/// What `credentials --move` did.
public struct CredentialMove: Sendable, Equatable {
    /// The shows whose secrets left their records (their folder names).
    public var moved: [String] = []
    /// Files under the shows' folders rewritten with their URLs redacted (sidecars, history, download records).
    public var redactedFiles = 0
}

/// `credentials --move`, and where a show's secrets are kept.
struct CredentialMover: Sendable {
    /// The subscription records, and the configuration folder's secrets.
    let store: SubscriptionStore
    /// Show folders locked to mark them, and opened (which finishes the move in each, see `PendingMove`).
    let folders: FeedFolders
    /// The archive's identity, made before anything is marked.
    let secrets: ArchiveSecrets
    /// The files of show folders.
    let files: any FileStore
    let writer: any AtomicFileWriting

    /// Moves every secret the archive at `root` keeps in its records into the configuration folder, then cleans
    /// what each show's files still say of them. Safe to run again, and killed at any point, finished by the next
    /// run or, for a show's files, by the next command that takes the show's lock.
    /// - Throws: `CredentialError` when the configuration folder cannot take them (nothing in the archive is
    ///   changed for that show then); `ArchiveError` when a record or a show folder cannot be written, or a file
    ///   in a show folder still holds a secret after the move.
    func moveCredentials(in root: URL, lockWait: TimeInterval = 0) async throws -> CredentialMove {
        var result = CredentialMove()
        // The identity keys the hashes a cleaned index keeps: made now, so that whoever finishes the move reads it.
        _ = try secrets.secretForms(of: root)
        let shows = store.all(in: root).shows
        let marked = shows.compactMap { record -> URL? in
            let folder = ArchiveRoot(root).showFolder(record.folder)
            let made = files.fileExists(atPath: ShowState(folder: folder).stateFolder.path)
            return made || record.holdsSecrets ? folder : nil
        }
        for folder in marked {
            try await mark(folder, lockWait: lockWait)
        }
        for record in shows where record.holdsSecrets {
            try store.moveSecrets(of: record, in: root)
            result.moved.append(record.folder)
        }
        for folder in marked {
            let show = try await folders.openToWrite(
                folder: folder, source: .local(path: folder.path), lockWait: lockWait, wants: SyncOptions().wants)
            defer { show.lock.unlock() }
            result.redactedFiles += show.movedFiles
            // Never said done while a secret remains: the mark stays, and says what is left to the next command.
            if PendingMove.isPending(show.state.pendingMove, files: files) {
                throw ArchiveError.storage(
                    path: folder.path, reason: "a file in it still holds a secret and cannot be rewritten")
            }
        }
        return result
    }

    /// Marks `folder` as having a move to finish (`PendingMove`), its lock held for the write.
    private func mark(_ folder: URL, lockWait: TimeInterval) async throws {
        let locked = try await folders.lock(folder: folder, lockWait: lockWait)
        defer { locked.lock.unlock() }
        try PendingMove.mark(locked.state.pendingMove, writer: writer)
    }

    /// The folder names of the shows of `root` whose move is not finished (see `PendingMove`).
    func pendingMoves(in root: URL) -> [String] {
        store.all(in: root).shows.map(\.folder).filter {
            let folder = ArchiveRoot(root).showFolder($0)
            return PendingMove.isPending(ShowState(folder: folder).pendingMove, files: files)
        }
    }

    /// Where the secrets of `show` are kept.
    func secretsPlace(of show: Subscription, in root: URL) -> SecretsPlace {
        if show.holdsSecrets { return .insideArchive }
        do {
            _ = try store.resolve(show, in: root)
            let identity = try store.identity(of: root, create: false)
            return .file(try store.secretsFile(archive: identity?.id ?? "?", show: show.id).path)
        } catch {
            return .missing((error as? LocalizedError)?.errorDescription ?? "\(error)")
        }
    }
}

/// Where a show's secrets are kept.
public enum SecretsPlace: Sendable, Equatable {
    /// In its subscription record, inside the archive, as an earlier podarchive kept them.
    case insideArchive
    /// In this file of the configuration folder.
    case file(String)
    /// Nowhere podarchive can read: the record says the configuration folder keeps them, and it does not.
    case missing(String)
}
