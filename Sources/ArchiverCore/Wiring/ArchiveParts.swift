// How an archiver is put together: the stores and workers built from the seams it is given, each handed what it
// uses, and the parts that use the subscriptions made from them when asked.
import Foundation

/// The stores and workers of an archiver, and the parts built from them.
struct ArchiveParts: Sendable {
    /// Feeds fetched and read.
    let loader: FeedLoader
    /// Finds and opens show folders.
    let folders: FeedFolders
    /// Each show's index and journal.
    let indexes: IndexStore
    /// The small records beside each index, and the hidden files of downloads.
    let records: ShowRecords
    /// Each show's feed history.
    let history: HistoryStore
    /// What a show's folder holds, and the dates and origins of its files.
    let contents: FolderContents
    /// The locks of show folders and archive roots.
    let locks: ShowLocks
    /// The file system, for what the parts read and write themselves (the site, secrets, moved folders).
    let files: any FileStore
    let attributes: any FileAttributes
    let mover: any FileMovement
    let writer: any AtomicFileWriting
    /// One episode's download, beside the others.
    let fetcher: EpisodeFetcher
    /// Checked downloads into place, in feed order.
    var placer: EpisodePlacer
    /// Sidecars and artwork (`SyncOptions.metadata`).
    let metadata: MetadataWriter
    /// Transcripts, chapters and artwork kept beside archived episodes.
    var companions: CompanionKeeper
    /// Dates for the index, waits between retries and lock polls, deadlines.
    let clock: SyncClock
    /// `verify`, with the same folders, fetcher and placer.
    var verifier: Verifier
    /// The subscriptions of archive roots, and the secrets kept for them in the configuration folder.
    var store: SubscriptionStore

    /// The stores and workers over these seams (see `Archiver.init`).
    init(
        fileSystem: FileSystemSeams, network: NetworkSeams, clock: SyncClock, configuration: ConfigurationFolder? = nil
    ) {
        let (files, attributes, mover, writer) = (
            fileSystem.files, fileSystem.attributes, fileSystem.mover, fileSystem.writer
        )
        let (locker, hasher) = (fileSystem.locker, fileSystem.hasher)
        store = SubscriptionStore(
            files: files, attributes: attributes, writer: writer, clock: clock,
            secrets: CredentialStore(folder: configuration, files: files, attributes: attributes, writer: writer))
        loader = FeedLoader(fetcher: network.fetcher, files: files, clock: clock)
        (self.files, self.attributes, self.mover, self.writer) = (files, attributes, mover, writer)
        locks = ShowLocks(locker: locker, clock: clock)
        records = ShowRecords(files: files, writer: writer)
        indexes = IndexStore(files: files, attributes: attributes, writer: writer, records: records)
        history = HistoryStore(files: files, writer: writer)
        contents = FolderContents(files: files, attributes: attributes, mover: mover)
        // A pending credentials move is finished by whichever command opens the show (see `PendingMove`): its
        // finisher reads the archive's identity and records only, which do not depend on the configuration folder,
        // so `using(configuration:)` need not make it again.
        let moves = MoveFinisher(
            secrets: ArchiveSecrets(store: store, indexes: indexes, contents: contents, files: files, writer: writer),
            files: files, attributes: attributes, writer: writer)
        folders = FeedFolders(
            files: files, attributes: attributes, mover: mover, locks: locks, indexes: indexes, records: records,
            moves: moves,
            away: AwayFinisher(
                files: files, attributes: attributes, writer: writer, hasher: hasher, indexes: indexes))
        self.fetcher = EpisodeFetcher(
            downloader: network.downloader, hasher: hasher, files: files, records: records, contents: contents,
            clock: clock)
        placer = EpisodePlacer(
            files: files, attributes: attributes, mover: mover, writer: writer, hasher: hasher, indexes: indexes,
            records: records, contents: contents, clock: clock)
        metadata = MetadataWriter(
            fetcher: self.fetcher, files: files, mover: mover, writer: writer, records: records, contents: contents)
        companions = CompanionKeeper(
            fetcher: self.fetcher, placer: placer, files: files, writer: writer, hasher: hasher, indexes: indexes,
            records: records, contents: contents)
        self.clock = clock
        verifier = Verifier(
            folders: folders, indexes: indexes, records: records, history: history, contents: contents, files: files,
            mover: mover, fetcher: self.fetcher, placer: placer, hasher: hasher)
    }

    /// What the serial half of each sync works with.
    var syncParts: SyncParts {
        SyncParts(
            placer: placer, metadata: metadata, companions: companions, indexes: indexes, records: records,
            files: files, clock: clock)
    }

    // The parts that use the subscriptions, made from `store` when asked (`using(configuration:)` replaces it).

    /// Which credentials, User-Agent and `.netrc` logins a show's requests carry.
    var showAccess: ShowAccess { ShowAccess(store: store, files: files, attributes: attributes) }

    /// What a show's files keep of the secrets in its URLs.
    var secrets: ArchiveSecrets {
        ArchiveSecrets(store: store, indexes: indexes, contents: contents, files: files, writer: writer)
    }

    /// Writes the site and frees its names, with this archiver's stores and subscriptions.
    var site: SiteWriter {
        SiteWriter(
            files: files, attributes: attributes, mover: mover, writer: writer, indexes: indexes, records: records,
            locks: locks, placer: placer, verifier: verifier, store: store)
    }

    /// A show's folder found, locked and opened, and its feed fetched.
    var opener: ShowOpener {
        let site = site
        return ShowOpener(
            store: store, folders: folders, indexes: indexes, loader: loader,
            freeSiteName: { record, root, lockWait, onEvent in
                try await site.freeSiteName(of: record, in: root, lockWait: lockWait, onEvent: onEvent)
            }, secrets: secrets, clock: clock, access: showAccess)
    }

    /// A fetched feed's pages, moves and history.
    var follower: FeedFollower { FeedFollower(loader: loader, store: store, history: history, clock: clock) }

    /// One show's sync.
    var showArchiver: ShowArchiver {
        ShowArchiver(
            loader: loader, store: store, contents: contents, placer: placer, fetcher: fetcher, clock: clock,
            access: showAccess, opener: opener, follower: follower, secrets: secrets, parts: syncParts)
    }

    /// `sync --dry-run`.
    var planner: SyncPlanner {
        SyncPlanner(
            store: store, access: showAccess, loader: loader, folders: folders, indexes: indexes, records: records,
            contents: contents, follower: follower, clock: clock)
    }

    /// Subscribing, and what each show holds.
    var shows: ShowSubscriptions {
        ShowSubscriptions(
            store: store, indexes: indexes, files: files, access: showAccess, opener: opener, secrets: secrets,
            locks: locks)
    }

    /// `credentials --move`, and where secrets are kept.
    var credentialMover: CredentialMover {
        CredentialMover(store: store, folders: folders, secrets: secrets, files: files, writer: writer)
    }

    /// `verify --upstream`.
    var upstream: UpstreamChecker {
        UpstreamChecker(
            verifier: verifier, indexes: indexes, access: showAccess, loader: loader, verification: verification)
    }

    /// `export --warc`.
    var export: WARCExport {
        WARCExport(
            verifier: verifier, indexes: indexes, files: files, attributes: attributes, contents: contents)
    }

    /// `verify`, with each show's access and real URLs.
    var verification: Verification {
        Verification(verifier: verifier, store: store, access: showAccess, loader: loader)
    }

    /// These parts keeping credentials in `configuration`.
    func using(configuration: ConfigurationFolder?) -> ArchiveParts {
        var copy = self
        copy.store = SubscriptionStore(
            files: files, attributes: attributes, writer: writer, clock: clock,
            secrets: CredentialStore(
                folder: configuration, files: files, attributes: attributes, writer: writer))
        return copy
    }
}
