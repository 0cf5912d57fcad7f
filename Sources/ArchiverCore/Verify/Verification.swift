// `verify`, and the real URLs it needs. Where the archive keeps a URL redacted (its secret is kept nowhere in the
// archive, see `SecretForms`), the real URL comes from the feed, fetched with the show's credentials, whenever a
// command needs it: `verify --repair` and `verify --upstream`. An episode the feed no longer lists keeps its
// redacted URL and is reported as such.
import Foundation

/// `verify`, given what it needs of the subscriptions: each show's access, and the real URLs of what its index
/// keeps redacted.
struct Verification: Sendable {
    /// Checks and repairs the folders.
    let verifier: Verifier
    /// The subscriptions (and archive identities) of the shows verified.
    let store: SubscriptionStore
    /// The credentials a show's requests carry.
    let access: ShowAccess
    /// Feeds read for their real URLs.
    let loader: FeedLoader

    /// Rechecks the archive at `directory`: one feed folder, or an archive root holding many.
    ///
    /// - Parameter repair: download again every missing, resized or changed file (the damaged file is kept aside
    ///   until its replacement is in place).
    /// - Throws: `ArchiveError.noArchive` when `directory` holds no index; `.locked` when a sync holds a feed.
    func verify(
        _ directory: URL, repair: Bool, options: SyncOptions = SyncOptions(),
        onEvent: @Sendable (VerifyEvent) -> Void = { _ in }
    ) async throws -> VerifyReport {
        let records = repair ? access.records(around: try verifier.feedFolders(in: directory)) : [:]
        return try await verifier.verify(
            directory, repair: repair, options: options, onEvent: onEvent,
            access: { try access.withAccess($1, forShowIn: $0, records: records) },
            realURLs: { await realURLs(forShowIn: $0, index: $1, options: $2, records: records) })
    }

    /// The real URLs of what `index` (the show in `folder`) keeps redacted, read from its feed (every page), when
    /// it keeps any; empty when it keeps none, or the feed cannot be read (the caller then reports those files
    /// as not fetchable).
    func realURLs(
        forShowIn folder: URL, index: ArchiveIndex, options: SyncOptions, records: [String: Subscription]
    ) async -> RealURLs {
        let redacted = index.episodes.contains { entry in
            URLSecrets.carriesRedaction(entry.url)
                || (entry.companions ?? []).contains { $0.url.map(URLSecrets.carriesRedaction) == true }
        }
        let root = folder.deletingLastPathComponent()
        guard redacted, let record = records[folder.lastPathComponent],
            let resolved = try? store.resolve(record, in: root),
            let identity = try? store.identity(of: root, create: false)
        else { return RealURLs() }
        let forms = SecretForms(identity: identity)
        var limits = options.feedLimits
        let accessed = try? access.withAccess(options, saved: resolved.credentials, of: record, at: resolved.source)
        limits.policy.profile = accessed?.profile
        // The feed's episodes are known as its sync knows them: by the identities its taint gives.
        return await (accessed?.taint ?? .none).run {
            await realURLs(of: resolved.source, matching: index, forms: forms, limits: limits)
        }
    }

    /// The real URLs of what `index` keeps redacted, read from the feed at `source` (every page).
    private func realURLs(of source: FeedSource, matching index: ArchiveIndex, forms: SecretForms, limits: FeedLimits)
        async -> RealURLs
    {
        guard
            let walk = try? await loader.walkPages(
                from: loader.load(source, limits: limits), of: source, limits: limits)
        else {
            return RealURLs()
        }
        var urls = RealURLs()
        for episode in walk.feed.episodes {
            guard let entry = index.entry(for: forms.episode(episode)) else { continue }
            if urls.episodes[entry.key] == nil { urls.episodes[entry.key] = episode.url }
            for companion in episode.companions(besides: walk.feed.imageURL) {
                guard let url = companion.url else { continue }
                urls.companions[companion.fileName(beside: entry.file)] = url
            }
        }
        return urls
    }
}
