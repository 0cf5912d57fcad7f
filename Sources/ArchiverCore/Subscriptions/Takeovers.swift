// A subscription another URL of its show took over (the same-show rule: a mirror, or a variant such as a members
// or ad-free feed sharing the title and episodes), and keeping both. The URL it had is remembered in the record
// (`Subscription.earlierFeed`, redacted) and, with its secret and what its requests carried, in the configuration
// folder (`ShowSecrets.earlierFeed`), so that `add` of either URL, kept apart, can give the folder back to the feed
// whose files it holds and the other feed a subscription and folder of its own, as the line that said so promised.
import Foundation

/// Takes a subscription over for another URL of its show, remembering the one it had; finds one again by either
/// URL; gives it back.
struct Takeovers: Sendable {
    /// The subscriptions, and the secrets kept for them.
    let store: SubscriptionStore

    /// A subscription another URL took over, with both feeds as their requests read them.
    struct Takeover: Sendable {
        /// The record: fetched from `current`, its folder holding what `earlier` (and since then `current`) fetched.
        var record: Subscription
        /// The feed that took it over, its secret and credentials.
        var current: ResolvedSubscription
        /// The feed it had before, its secret and credentials.
        var earlier: (source: FeedSource, credentials: ShowCredentials?)
    }

    /// The show of `record` is fetched from `target` from now on: another URL of the show took its subscription
    /// over (see `SubscriptionStore.replaceFeed`). Unless `target` is the same URL with another secret (a rotated
    /// token), the URL it had is remembered as its `earlierFeed`, with its secret and credentials, replacing what
    /// an earlier takeover left.
    func takeOver(_ record: Subscription, by target: FeedSource, credentials: ShowCredentials?, in root: URL) throws
        -> Subscription
    {
        var marked = record
        if record.shownFeed != target.shownName {
            try keepEarlier(of: record, in: root)
            marked.earlierFeed = record.shownFeed
        }
        return try store.replaceFeed(of: marked, with: target, credentials: credentials, moved: false, in: root)
    }

    /// The subscription another URL took over that `source` names: the URL that took it over, or the one it had
    /// (its secret given again, or redacted as it is shown) when that has no subscription of its own; nil when
    /// `source` names neither of any.
    /// - Throws: `CredentialError.earlierMissing` when the earlier URL's secret is needed and the configuration
    ///   folder lacks it; `CredentialError.missing` when the record's own is.
    func takenOver(naming source: FeedSource, in root: URL) throws -> Takeover? {
        let wanted = source.shownName
        let shows = store.all(in: root).shows
        let naming =
            shows.first { $0.earlierFeed != nil && $0.shownFeed == wanted }
            ?? (shows.contains { $0.shownFeed == wanted } ? nil : shows.first { $0.earlierFeed == wanted })
        guard let record = naming, let earlierFeed = record.earlierFeed else { return nil }
        let given = URLSecrets.carriesRedaction(source.displayName) ? nil : source
        let kept = try keptSecrets(of: record, in: root)?.read(byRecordRemembering: true) ?? ShowSecrets()
        var current = try store.resolve(record, in: root)
        if record.shownFeed == wanted, let given { current.source = given }
        let earlier: FeedSource
        if earlierFeed == wanted, let given {
            earlier = given
        } else if let feed = kept.earlierFeed {
            earlier = try FeedSource(feed, currentDirectory: root.path)
        } else if !URLSecrets.carriesRedaction(earlierFeed) {
            earlier = try FeedSource(earlierFeed, currentDirectory: root.path)
        } else {
            let identity = try store.identity(of: root, create: false)
            throw CredentialError.earlierMissing(
                show: record.folder, feed: earlierFeed,
                path: (try? store.secretsFile(archive: identity?.id ?? "<archive ID>", show: record.id).path) ?? "?")
        }
        return Takeover(record: record, current: current, earlier: (earlier, kept.earlierCredentials))
    }

    /// The subscription of `takeover` is fetched from its earlier feed again, carrying what that feed's requests
    /// carried (its secret and credentials, exactly), and remembers no earlier feed. Three writes, each leaving a
    /// state every reader reads right: the two feeds' secrets swapped and marked so (`ShowSecrets.swapped`: read the
    /// other way round while the record still names the later feed), the record, then the later feed's secrets
    /// dropped (it has a subscription of its own by then).
    func giveBack(_ takeover: Takeover, in root: URL) throws -> Subscription {
        let earlier = takeover.earlier.source.displayName
        let later = takeover.current.source.displayName
        var kept = ShowSecrets(
            feed: URLSecrets.hasSecret(earlier) ? earlier : nil,
            credentials: takeover.earlier.credentials.flatMap { $0.isEmpty ? nil : $0 })
        kept.earlierFeed = URLSecrets.hasSecret(later) ? later : nil
        kept.earlierCredentials = takeover.current.credentials.flatMap { $0.isEmpty ? nil : $0 }
        kept.swapped = true
        try save(kept, of: takeover.record, in: root)
        var record = takeover.record
        record.feed = URLSecrets.redacted(earlier)
        record.secretFeed = kept.feed != nil ? true : nil
        record.storedCredentials = kept.credentials != nil ? true : nil
        record.credentials = nil
        // Said by the later feed; the earlier one's next sync says its own.
        record.podcastGUID = nil
        return try forgetEarlier(of: record, in: root)
    }

    /// `record` remembers no earlier feed (given back, or the earlier feed has a subscription of its own now), and
    /// the configuration folder keeps none of its secrets for it: the record first.
    func forgetEarlier(of record: Subscription, in root: URL) throws -> Subscription {
        var record = record
        record.earlierFeed = nil
        try store.save(record, in: root)
        if var kept = try keptSecrets(of: record, in: root),
            kept.earlierFeed != nil || kept.earlierCredentials != nil || kept.swapped != nil
        {
            kept.earlierFeed = nil
            kept.earlierCredentials = nil
            kept.swapped = nil
            try save(kept, of: record, in: root)
        }
        return record
    }

    // MARK: - The secrets kept

    /// Keeps what `record`'s requests carry (its feed's secret, its login and headers) as its earlier feed's, in
    /// the configuration folder, before another URL takes it over. Nothing to keep writes nothing (and clears what
    /// an earlier takeover kept). A record whose secrets cannot be read is remembered without them: giving it back
    /// then asks for its URL with its secret.
    private func keepEarlier(of record: Subscription, in root: URL) throws {
        let resolved = try? store.resolve(record, in: root)
        let feed = resolved.map(\.source.displayName).flatMap { URLSecrets.hasSecret($0) ? $0 : nil }
        let credentials = resolved?.credentials.flatMap { $0.isEmpty ? nil : $0 }
        let stored = try keptSecrets(of: record, in: root)
        var kept = stored?.read(byRecordRemembering: record.earlierFeed != nil) ?? ShowSecrets()
        kept.earlierFeed = feed
        kept.earlierCredentials = credentials
        kept.swapped = nil
        guard kept != stored ?? ShowSecrets() else { return }
        try save(kept, of: record, in: root)
    }

    /// The secrets kept for `record`; nil when none are.
    private func keptSecrets(of record: Subscription, in root: URL) throws -> ShowSecrets? {
        guard let identity = try store.identity(of: root, create: false) else { return nil }
        return try store.secrets.load(archive: identity.id, show: record.id)
    }

    /// Keeps `secrets` for `record` (none: its file removed).
    private func save(_ secrets: ShowSecrets, of record: Subscription, in root: URL) throws {
        guard let identity = try store.identity(of: root, create: !secrets.isEmpty) else { return }
        try store.secrets.save(secrets, archive: identity.id, show: record.id)
    }
}
