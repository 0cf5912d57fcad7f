// Finishing a credentials move in one show, its lock held (see `PendingMove`): the index kept as `SecretForms`
// says, every other file of its state folder and of its folder redacted, and the mark settled only when no place
// holds a secret any more. `FeedFolders.read` calls it for every command that takes a show's lock; a record's own
// secrets are moved by `credentials --move` alone (`CredentialMover`), so the mark stays while the show's record
// still holds them.
import Foundation

/// Finishes a pending credentials move in a show (see the file's opening comment).
struct MoveFinisher: PendingMoveFinishing {
    /// The index kept clean, and the archive's identity (its hash key) read. Its subscription store is used for
    /// the archive's identity and records only, which do not depend on the configuration folder.
    let secrets: ArchiveSecrets
    let files: any FileStore
    let attributes: any FileAttributes
    let writer: any AtomicFileWriting

    /// What a clean-up did: files that changed or went, and files that still hold a secret.
    struct Sweep: Equatable {
        var changed = 0
        var left = 0

        /// What cleaning one file did.
        enum Outcome {
            /// It held no secret.
            case clean
            /// It held one, and was rewritten, or removed.
            case changed
            /// It held one and could not be rewritten.
            case left

            /// The outcome for a file of two parts (its contents, its origin attribute).
            func and(_ other: Outcome) -> Outcome {
                if self == .left || other == .left { return .left }
                return self == .changed || other == .changed ? .changed : .clean
            }
        }

        mutating func add(_ outcome: Outcome) {
            switch outcome {
            case .clean: break
            case .changed: changed += 1
            case .left: left += 1
            }
        }

        static func += (sum: inout Sweep, other: Sweep) {
            sum.changed += other.changed
            sum.left += other.left
        }
    }

    /// Cleans every place of `show` that may still hold a secret an earlier podarchive wrote, and settles its mark
    /// when none does and its record holds none. The show folder's parent is its archive's root (as every show
    /// folder is made, `FeedFolders.chooseFolder`).
    /// - Throws: `ArchiveError.storage` when the archive's identity cannot be read or the index cannot be saved;
    ///   the mark is then left for the next command that takes the lock.
    func finishMove(of show: inout FeedFolder) throws -> Int {
        let root = show.folder.deletingLastPathComponent()
        guard let identity = try secrets.store.identity(of: root, create: false) else {
            throw ArchiveError.storage(
                path: show.state.pendingMove.path,
                reason: "a credentials move is pending, and the archive's identity (its hash key) cannot be read "
                    + "to finish it")
        }
        try secrets.secureIndex(of: &show, forms: SecretForms(identity: identity))
        // What the index says is kept clean as it is read (`ArchiveIndex`), so its file may hold a secret the index
        // in memory does not: written again whole, the journal folded into it.
        if [show.indexURL, show.journalURL].contains(where: { redactedContents(of: $0) != nil }) {
            try secrets.indexes.save(&show)
        }
        let sweep = clean(show)
        let record = secrets.store.subscription(inFolder: show.folder.lastPathComponent, in: root)
        if sweep.left == 0, record?.holdsSecrets != true {
            try PendingMove.settle(show.state.pendingMove, files: files)
        }
        return sweep.changed
    }

    /// Rewrites, redacted, every file of the show that may still hold a URL secret written by an earlier version:
    /// sidecars, origin attributes and leftover temporary files at any depth (`sweepEpisodeFiles`), and the
    /// history, download records and other records in its state folder (the index and its journal are kept by
    /// `secureIndex`, the move's mark holds none).
    private func clean(_ show: FeedFolder) -> Sweep {
        let kept = [ArchiveLayout.indexFile, ArchiveLayout.journalFile, ArchiveLayout.pendingMoveFile]
        var sweep = sweepEpisodeFiles(under: show.folder, staging: show.stateFolder)
        for file in stateFiles(under: show.stateFolder) where !kept.contains(file.lastPathComponent) {
            // The lock file is never replaced (another process would lock the new one): its note is cleared.
            guard file.lastPathComponent == ArchiveLayout.lockFile else {
                sweep.add(redactFile(file, staging: show.stateFolder))
                continue
            }
            if let data = files.contents(atPath: file.path), TextSecrets.redactingURLs(in: data) != data {
                show.lock.keep(Data())
                sweep.add(.changed)
            }
        }
        return sweep
    }

    /// The regular files under `folder`, at any depth.
    private func stateFiles(under folder: URL) -> [URL] {
        let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.flatMap { name -> [URL] in
            let url = folder.appendingPathComponent(name)
            switch attributes.typeAndSize(atPath: url.path)?.type {
            case .typeDirectory?: return stateFiles(under: url)
            case .typeRegular?: return [url]
            default: return []
            }
        }
    }

    /// Rewrites the file at `url` with its URLs redacted (a gzip history revision decoded and encoded again). A
    /// file that cannot be read is taken for clean (a lock file another process holds open is read all the same).
    func redactFile(_ url: URL, staging: URL) -> Sweep.Outcome {
        guard let redacted = redactedContents(of: url) else { return .clean }
        let kept = url.pathExtension == "gz" ? Gzip.compress(redacted) : redacted
        let written = try? writer.writeAtomically(kept, to: url, durable: false, stagedIn: staging)
        return written != nil ? .changed : .left
    }

    /// The contents of the file at `url` with its URLs redacted (a gzip history revision decoded), when that
    /// changes them; nil when it holds no URL secret or cannot be read.
    private func redactedContents(of url: URL) -> Data? {
        guard let data = files.contents(atPath: url.path) else { return nil }
        guard let plain = url.pathExtension == "gz" ? try? Gzip.decompress(data) : data else { return nil }
        // JSON (records, the journal's lines) may escape a URL's slashes (`https:\/\/`); unescaped, the same
        // document says the same thing.
        let unescaped =
            url.pathExtension == "json" || url.lastPathComponent == ArchiveLayout.journalFile
            ? Data(
                String(decoding: plain, as: UTF8.self)
                    .replacingOccurrences(of: "\\/", with: "/").utf8) : plain
        let redacted = TextSecrets.redactingURLs(in: unescaped)
        return redacted != unescaped ? redacted : nil
    }
}
