// What the use cases' parts need of the archiver: reading and syncing one show, and its clock. `Archiver` is it;
// the parts name only this, so the facade that is made of them stays the one thing that names them.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The archiver, as the parts of a use case see it.
protocol SyncEngine: ShowCatalog, Sendable {
    /// What a sync of `source` would fetch (`Archiver.plan`).
    func plan(_ source: FeedSource, into root: URL, options: SyncOptions) async throws -> SyncPlan
    /// Syncs one show (`Archiver.sync(_:into:options:known:onEvent:)`).
    func sync(
        _ source: FeedSource, into root: URL, options: SyncOptions, known: ResolvedSubscription?,
        onEvent: @escaping @Sendable (SyncEvent) -> Void
    ) async throws -> SyncReport
    /// Damaged journal records folded so far.
    var journalFolds: JournalFolds { get }
    /// How a show's address is followed to its feed.
    func feedResolver(directory: PodcastDirectory) -> FeedResolver
    /// The time now, by the archiver's clock.
    func now() -> Date
    /// The status of the answer to `request`, posted within `seconds` (`Archiver.post`).
    func post(_ request: URLRequest, within seconds: TimeInterval) async throws -> Int
    /// How a request for `source` is made (`Archiver.access`).
    func access(_ options: SyncOptions, for source: FeedSource, in root: URL?) throws -> SyncOptions
    /// A feed's pages walked (`Archiver.listPages`).
    func listPages(_ source: FeedSource, limits: FeedLimits, allPages: Bool) async throws -> PageWalk
    /// The title and entries of the show archived in `folder` (`Archiver.archivedEpisodes`).
    func archivedEpisodes(in folder: URL) throws -> (title: String, episodes: [ArchiveIndex.Entry])
    /// The shows `root` follows (`Archiver.subscriptions(in:)`).
    func subscriptions(in root: URL) -> SubscriptionSet
    /// Subscribes `root` to `source` without downloading (`Archiver.subscribe`).
    func subscribe(
        _ source: FeedSource, into root: URL, settings: ShowSettings, options: SyncOptions,
        onEvent: (SyncEvent) -> Void
    ) async throws -> Subscription
    /// The site's saved settings, and saving them (`Archiver.siteSettings`).
    func siteSettings(in root: URL) -> SiteSettings
    func saveSiteSettings(_ settings: SiteSettings, in root: URL) throws
    /// The library `sync` refreshes, kept for the archive (`Archiver.librarySettings`).
    var librarySettings: LibrarySettingsStore { get }
    /// Writes the site (`Archiver.writeSite`).
    func writeSite(root: URL, baseURL: String?, out: URL?, access: SyncOptions) throws -> SiteReport
    /// The secrets of `root` moved out of it (`Archiver.moveCredentials`), where a show's are, the moves not
    /// finished, and the configuration folder's credentials folder (nil without one).
    func moveCredentials(in root: URL, lockWait: TimeInterval) async throws -> CredentialMove
    func secretsPlace(of show: Subscription, in root: URL) -> SecretsPlace
    func pendingMoves(in root: URL) -> [String]
    var credentialsFolder: URL? { get }
    /// The archive checked, repaired, checked upstream, exported (`Archiver.verify`, `checkUpstream`, `exportWARC`).
    func verify(_ directory: URL, repair: Bool, options: SyncOptions, onEvent: @Sendable (VerifyEvent) -> Void)
        async throws -> VerifyReport
    func checkUpstream(
        _ directory: URL, jobs: Int, limits: FeedLimits, access: SyncOptions,
        onCheck: @escaping @Sendable (UpstreamCheck) -> Void
    ) async throws -> UpstreamReport
    /// Episodes forgotten and taken back, a subscription removed, a show's status (`Archiver.forget`, `takeBack`,
    /// `unsubscribe`, `status(of:in:)`).
    func forget(_ names: [String], inShow folder: URL, keepFiles: Bool, lockWait: TimeInterval) async throws
        -> [ForgottenEpisode]
    func takeBack(_ names: [String], inShow folder: URL, lockWait: TimeInterval) async throws -> [TakenBackEpisode]
    /// Episodes offloaded, deleted by retention, brought back (`Archiver.offload`, `restoreOffloaded`).
    func offload(
        inShow folder: URL, retention: Retention, target: RetentionTarget, dryRun: Bool, lockWait: TimeInterval
    ) async throws -> [OffloadedEpisode]
    func checkOffloadFolder(_ target: URL, root: URL) throws
    func restoreOffloaded(_ names: [String], inShow folder: URL, dryRun: Bool, lockWait: TimeInterval) async throws
        -> [OffloadedEpisode]
    /// A show's files given the names its template gives (`Archiver.rename`).
    func rename(inShow folder: URL, settings: CommandSettings, dryRun: Bool, lockWait: TimeInterval) async throws
        -> [RenamedEpisode]
    func unsubscribe(_ text: String, in root: URL) throws -> Subscription
    func status(of subscription: Subscription, in root: URL) -> ShowStatus
    func exportWARC(
        _ root: URL, shows: [URL]?, to file: URL, options: ExportOptions, access: SyncOptions,
        progress: (ExportProgress) -> Void
    ) throws -> ExportReport
    func exportLibrary(
        _ root: URL, shows: [URL]?, into library: URL, options: LibraryOptions, access: SyncOptions,
        plan: (LibraryPlan) -> Void
    ) throws -> LibraryReport
}

extension Archiver: SyncEngine {
    func now() -> Date { parts.clock.now() }
    var credentialsFolder: URL? { parts.store.secrets.folder?.credentials }
}
