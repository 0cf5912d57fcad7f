// The archiver's calls about the shows an archive follows: subscribing without downloading, unsubscribing without
// deleting, what each show holds, and where its secrets are kept. The work is `ShowSubscriptions`',
// `SubscriptionStore`'s and `CredentialMover`'s.
import Foundation

extension Archiver {
    /// The archived episodes of the show in `folder` (its title, and each index entry, removed upstream or not),
    /// from its index alone.
    /// - Throws: `ArchiveError.noArchive` when the folder holds no index; a damaged index's error.
    public func archivedEpisodes(in folder: URL) throws -> (title: String, episodes: [ArchiveIndex.Entry]) {
        try parts.shows.archivedEpisodes(in: folder)
    }

    /// Every show `root` is subscribed to, in subscription order, and the records that could not be read.
    public func subscriptions(in root: URL) -> SubscriptionSet {
        parts.store.all(in: root)
    }

    /// The subscription of `source` in `root` (whatever the spelling of its URL), resolved; nil when `root` does
    /// not follow it.
    /// - Throws: `CredentialError` when its kept secrets cannot be read.
    public func subscription(for source: FeedSource, in root: URL) throws -> ResolvedSubscription? {
        try parts.store.find(source, in: root)
    }

    /// `record` with the feed to fetch (its secret included) and its credentials, from wherever they are kept.
    /// - Throws: `CredentialError` when the configuration folder lacks or cannot give what the record says it
    ///   keeps there.
    public func resolve(_ record: Subscription, in root: URL) throws -> ResolvedSubscription {
        try parts.store.resolve(record, in: root)
    }

    /// Subscribes `root` to the feed at `source` without downloading anything: the feed is fetched and read, the
    /// show's folder chosen and created with an empty index, and `settings` merged into those saved
    /// before, as a sync merges them (each given replaces its saved value; the others stay).
    /// - Throws: `FeedError` when the feed cannot be fetched or read (nothing is saved then); `ArchiveError`.
    public func subscribe(
        _ source: FeedSource, into root: URL, settings: ShowSettings, options: SyncOptions = SyncOptions(),
        onEvent: (SyncEvent) -> Void = { _ in }
    ) async throws -> Subscription {
        try await parts.shows.subscribe(source, into: root, settings: settings, options: options, onEvent: onEvent)
    }

    /// Unsubscribes the show whose feed URL or folder name is `text`. Nothing archived is deleted.
    /// - Throws: `ArchiveError.unknownShow` when no subscription matches.
    public func unsubscribe(_ text: String, in root: URL) throws -> Subscription {
        try parts.store.remove(text, in: root)
    }

    /// What the show of `subscription` holds, from its index (no network, no lock: the index is replaced whole).
    public func status(of subscription: Subscription, in root: URL) -> ShowStatus {
        parts.shows.status(of: subscription, in: root)
    }

    /// Moves every secret the archive at `root` keeps in its records into the configuration folder, then redacts
    /// what each show's files still say of them, each show marked first (see `PendingMove`). Safe to run again;
    /// killed at any point, finished by the next run or, for a show's files, by the next command that takes the
    /// show's lock.
    /// - Throws: `CredentialError` when the configuration folder cannot take them (nothing in the archive is
    ///   changed for that show then); `ArchiveError` when a record or a show folder cannot be written, or a file
    ///   still holds a secret after the move.
    public func moveCredentials(in root: URL, lockWait: TimeInterval = 0) async throws -> CredentialMove {
        try await parts.credentialMover.moveCredentials(in: root, lockWait: lockWait)
    }

    /// The folder names of the shows of `root` where a `credentials --move` is not finished (it was killed, or a
    /// file could not be cleaned): the next move, or the next command that takes such a show's lock, finishes it.
    public func pendingMoves(in root: URL) -> [String] {
        parts.credentialMover.pendingMoves(in: root)
    }

    /// Where the secrets of `show` are kept.
    public func secretsPlace(of show: Subscription, in root: URL) -> SecretsPlace {
        parts.credentialMover.secretsPlace(of: show, in: root)
    }
}
