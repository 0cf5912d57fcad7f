// The credentials of private feeds, kept outside the archive: in the configuration folder's `credentials/`
// (0700), one file per show of each archive, `<archive ID>.<show ID>.json` (0600), holding the show's real feed
// URL when it carries a secret and the login and headers its requests carry. Files are read where they are (a
// mounted, read-only, symlinked folder such as a Kubernetes Secret is read as it is, never written or chmodded),
// and refused when others may change them (`TrustedFiles`).
import Foundation

/// What the configuration folder keeps for one show.
struct ShowSecrets: Codable, Equatable, Sendable {
    /// The feed URL as it must be fetched, when it carries a secret (a token parameter); the archive keeps it
    /// redacted.
    public var feed: String?
    /// The login and headers the show's requests carry to the origin they name.
    public var credentials: ShowCredentials?
    /// The URL the show was fetched from before another URL of it took its subscription over
    /// (`Subscription.earlierFeed`), when it carried a secret; kept until both are kept or another URL takes over.
    public var earlierFeed: String?
    /// The login and headers that earlier URL's requests carried.
    public var earlierCredentials: ShowCredentials?
    /// True while both are kept (`Takeovers.giveBack`) and the record may still name the later URL: `feed` and
    /// `credentials` are the earlier URL's already, `earlierFeed` and `earlierCredentials` the later one's.
    public var swapped: Bool?

    /// Secrets of one show.
    public init(feed: String? = nil, credentials: ShowCredentials? = nil) {
        self.feed = feed
        self.credentials = credentials
    }

    /// True when there is nothing to keep.
    public var isEmpty: Bool {
        feed == nil && (credentials?.isEmpty ?? true) && earlierFeed == nil && (earlierCredentials?.isEmpty ?? true)
    }

    /// These secrets as a record reads them: while it remembers an earlier URL (`Subscription.earlierFeed`: it
    /// names the later one still), a give-back under way (`swapped`) is read the other way round.
    func read(byRecordRemembering earlier: Bool) -> ShowSecrets {
        guard swapped == true, earlier else { return self }
        var unswapped = ShowSecrets(feed: earlierFeed, credentials: earlierCredentials)
        unswapped.earlierFeed = feed
        unswapped.earlierCredentials = credentials
        return unswapped
    }
}

/// Why credentials could not be read or kept.
public enum CredentialError: Error, Equatable, Sendable, LocalizedError {
    /// No configuration folder can be named (no `PODARCHIVE_CONFIG_DIR`, `XDG_CONFIG_HOME` or `HOME`).
    case noFolder
    /// The folder or file cannot be written (a read-only mount, permissions).
    case unwritable(path: String, reason: String)
    /// A credentials file others may change (it, its folder, or what its link names): its content is not used.
    case insecure(UntrustedFile)
    /// A credentials file that cannot be read or is not one.
    case unreadable(path: String, reason: String)
    /// A show whose credentials the archive says are kept, which this configuration folder lacks.
    case missing(show: String, feed: String, path: String)
    /// The secret of the URL a show had before another URL of it took its subscription over (`feed`, redacted),
    /// needed to keep both, which this configuration folder lacks.
    case earlierMissing(show: String, feed: String, path: String)

    public var errorDescription: String? {
        switch self {
        case .noFolder:
            return "no configuration folder to keep credentials in: set PODARCHIVE_CONFIG_DIR (or XDG_CONFIG_HOME, "
                + "or HOME)"
        case .unwritable(let path, let reason):
            return "cannot save credentials in \(path): \(reason)"
                + (reason == String(cString: strerror(EROFS))
                    ? " (a read-only configuration folder, such as a mounted Secret, is changed where it is made)" : "")
        case .insecure(let refusal):
            return refusal.errorDescription
        case .unreadable(let path, let reason):
            return "credentials file \(path) cannot be read: \(reason)"
        case .missing(let show, let feed, let path):
            return "the credentials of \(show) <\(feed)> are not in \(path): give them again (the feed's URL with its "
                + "token or login, or its headers), or copy that file from the machine that has them"
        case .earlierMissing(let show, let feed, let path):
            return "the token of <\(feed)>, which \(show)/ was fetched from before another URL of the show took it "
                + "over, is not in \(path): give that URL again with its token to keep both"
        }
    }
}

/// Reads and writes the configuration folder's credentials.
struct CredentialStore: Sendable {
    let folder: ConfigurationFolder?
    let files: any FileStore
    let attributes: any FileAttributes
    let writer: any AtomicFileWriting

    /// The file of one show of one archive.
    func url(archive: String, show: String) throws -> URL {
        guard let folder else { throw CredentialError.noFolder }
        return folder.credentials.appendingPathComponent(
            ArchiveLayout.credentialsFile(archive: archive, show: show), isDirectory: false)
    }

    /// The show's secrets; nil when the folder has no file for it.
    /// - Throws: `CredentialError` when the file is there but cannot be read or trusted.
    func load(archive: String, show: String) throws -> ShowSecrets? {
        guard folder != nil else { return nil }
        let url = try url(archive: archive, show: show)
        guard files.fileExists(atPath: url.path) else { return nil }
        // Another user's file, or one in a folder others may write, may name another feed or send the login
        // elsewhere: refused whole (a Secret's links are followed to files that meet the same rule).
        do {
            try TrustedFiles(attributes: attributes).check(url.path, kind: .credentials)
        } catch {
            throw CredentialError.insecure(error)
        }
        guard let data = files.contents(atPath: url.path) else {
            throw CredentialError.unreadable(path: url.path, reason: "permission denied")
        }
        do {
            return try JSONDecoder().decode(ShowSecrets.self, from: data)
        } catch {
            throw CredentialError.unreadable(path: url.path, reason: "it is not a credentials file")
        }
    }

    /// Keeps the show's secrets (0600, in a 0700 folder); empty ones remove its file.
    /// - Throws: `CredentialError` when there is no folder or it cannot be written.
    func save(_ secrets: ShowSecrets, archive: String, show: String) throws {
        let url = try url(archive: archive, show: show)
        guard !secrets.isEmpty else { return try remove(archive: archive, show: show) }
        let folder = url.deletingLastPathComponent()
        try refuseIfMounted(folder: folder, file: url)
        // Never into a folder the reading of the file would refuse: one others may write (they could swap the
        // file), another user's, or a link to either; judged again once made, and never chmodded into shape.
        try refuseIfUntrusted(folder: url)
        do {
            try files.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            try refuseIfUntrusted(folder: url)
            if let mode = attributes.permissions(atPath: folder.path), mode & 0o077 != 0 {
                try attributes.setAttributes([.posixPermissions: 0o700], ofItemAtPath: folder.path)
            }
            // What a killed process left of an earlier write (see `TemporaryFiles`: a process's, once it has
            // ended; another host's, sharing the folder, is left to it).
            TemporaryFiles.sweep(folder, files: files)
            try writer.writeAtomically(
                try JSONEncoder.records.encode(secrets), to: url, durable: true, ownerOnly: true)
        } catch let refusal as CredentialError {
            throw refusal
        } catch {
            throw CredentialError.unwritable(path: url.path, reason: ArchiveError.describe(error))
        }
    }

    /// Removes the show's file, if there is one.
    func remove(archive: String, show: String) throws {
        let url = try url(archive: archive, show: show)
        guard files.fileExists(atPath: url.path) else { return }
        try refuseIfMounted(folder: url.deletingLastPathComponent(), file: url)
        do {
            try files.removeItem(at: url)
        } catch {
            throw CredentialError.unwritable(path: url.path, reason: ArchiveError.describe(error))
        }
    }

    /// Refuses the folder `file` is to be written into when `TrustedFiles` would refuse the file read from it.
    private func refuseIfUntrusted(folder file: URL) throws {
        do {
            try TrustedFiles(attributes: attributes).checkFolder(toWrite: file.path, kind: .credentials)
        } catch {
            throw CredentialError.insecure(error)
        }
    }

    /// A folder its owner may not write (a mounted Secret, made read-only on purpose), or a file that is a link
    /// (a Secret's files are links into its current version), is read as it is and never written or chmodded,
    /// whoever runs podarchive (root may write a read-only folder; it must not).
    private func refuseIfMounted(folder: URL, file: URL) throws {
        let reason = "it is read-only (a mounted Secret?): give new credentials where its files are made"
        if let mode = attributes.permissions(atPath: folder.resolvingSymlinksInPath().path), mode & 0o200 == 0 {
            throw CredentialError.unwritable(path: folder.path, reason: reason)
        }
        if attributes.isSymbolicLink(atPath: file.path) {
            throw CredentialError.unwritable(path: file.path, reason: reason)
        }
    }
}
