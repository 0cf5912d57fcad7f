// `podarchive credentials --move`: an archive an earlier podarchive wrote keeps its shows' logins, headers and
// feed tokens in its subscription records, and the URLs with their tokens in its history documents, sidecars and
// download records. Moving them is deliberate, never a side effect of a sync: a machine whose configuration folder
// is not the one the archive's other users share must not strip a shared archive of its secrets. The secrets are
// written to the configuration folder first; only then is each record rewritten without them, and the show's
// other files redacted.
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
    /// Show folders opened (and locked) to redact their files.
    let folders: FeedFolders
    /// Each index kept as `SecretForms` says.
    let secrets: ArchiveSecrets
    /// The files of show folders.
    let files: any FileStore
    let attributes: any FileAttributes
    let writer: any AtomicFileWriting

    /// Moves every secret the archive at `root` keeps in its records into the configuration folder, then redacts
    /// what each show's files still say of them. Safe to run again: what was moved is left alone.
    /// - Throws: `CredentialError` when the configuration folder cannot take them (nothing in the archive is
    ///   changed for that show then); `ArchiveError` when a record or a show folder cannot be written.
    func moveCredentials(in root: URL, lockWait: TimeInterval = 0) async throws -> CredentialMove {
        var result = CredentialMove()
        let forms = try secrets.secretForms(of: root)
        for record in store.all(in: root).shows {
            if record.holdsSecrets {
                try store.moveSecrets(of: record, in: root)
                result.moved.append(record.folder)
            }
            let folder = root.appendingPathComponent(FileNamer.sanitize(record.folder), isDirectory: true)
            guard files.fileExists(atPath: ArchiveLayout.stateFolder(of: folder).path) else { continue }
            var show = try await folders.openToWrite(
                folder: folder, source: .local(path: folder.path), lockWait: lockWait, wants: SyncOptions().wants)
            defer { show.lock.unlock() }
            try secrets.secureIndex(of: &show, forms: forms)
            result.redactedFiles += redactFiles(of: show)
        }
        return result
    }

    /// Rewrites, redacted, every file of the show that may still hold a URL secret written by an earlier version:
    /// sidecars, origin attributes and leftover temporary files at any depth (`sweepEpisodeFiles`), and the
    /// history, download records and other records in its state folder (the index is kept by `secureIndex`).
    /// Returns how many files changed.
    private func redactFiles(of show: FeedFolder) -> Int {
        let state = stateFiles(under: show.stateFolder).filter {
            ![ArchiveLayout.indexFile, ArchiveLayout.journalFile].contains($0.lastPathComponent)
        }
        return sweepEpisodeFiles(under: show.folder, staging: show.stateFolder)
            + state.filter { redactFile($0, staging: show.stateFolder) }.count
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

    /// Rewrites the file at `url` with its URLs redacted (a gzip history revision decoded and encoded again);
    /// true when it changed. A file that cannot be read or written is left as it is.
    func redactFile(_ url: URL, staging: URL) -> Bool {
        guard let data = files.contents(atPath: url.path) else { return false }
        let gzipped = url.pathExtension == "gz"
        guard let plain = gzipped ? try? Gzip.decompress(data) : data else { return false }
        // JSON may escape a URL's slashes (`https:\/\/`); unescaped, the same document says the same thing.
        let unescaped =
            url.pathExtension == "json"
            ? Data(
                String(decoding: plain, as: UTF8.self)
                    .replacingOccurrences(of: "\\/", with: "/").utf8) : plain
        let redacted = TextSecrets.redactingURLs(in: unescaped)
        guard redacted != unescaped else { return false }
        let kept = gzipped ? Gzip.compress(redacted) : redacted
        return (try? writer.writeAtomically(kept, to: url, durable: false, stagedIn: staging)) != nil
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
