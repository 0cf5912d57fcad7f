// Keeping both feeds of a show whose subscription another URL took over (`add URL --separate`, naming either, as the
// line that said so says): the folder stays with the feed whose files it holds, and the other feed gets a
// subscription and a folder of its own, kept apart, where its episodes are fetched afresh.
import Foundation

extension ShowSubscriptions {
    /// Keeps both feeds of `takeover` (see `Takeovers`), one of them named `source` with `settings` and the
    /// credentials of `options`. The feed the folder's index names (else the one the subscription had before the
    /// takeover) keeps the subscription, folder, index, history and saved settings; when that is the earlier feed
    /// its next sync reads it in full (the validators saved are the later feed's). The other gets a subscription of
    /// its own, kept apart (`separate`), in a folder of its own, where its next sync fetches every episode from it.
    /// What the later feed archived into the folder meanwhile stays there. Said in one event.
    ///
    /// A crash part way leaves the subscription as the takeover left it, beside the one kept apart if that was
    /// made: the same `add` finishes it.
    /// - Returns: the subscription of the feed `source` names, `settings` saved with it.
    func keepBoth(
        _ takeover: Takeovers.Takeover, named source: FeedSource, into root: URL, settings: ShowSettings,
        options: SyncOptions, onEvent: (SyncEvent) -> Void
    ) async throws -> Subscription {
        let folder = ArchiveRoot(root).showFolder(takeover.record.folder)
        let own = try indexes.loadIndex(at: ShowState(folder: folder).index)?.feed
        let laterStays = own.map(URLSecrets.redacted) == takeover.current.source.shownName
        let leaving = laterStays ? takeover.earlier.source : takeover.current.source
        let credentials = laterStays ? takeover.earlier.credentials : takeover.current.credentials
        let namedLeaves = source.shownName == leaving.shownName
        // What was given on the command line is the named feed's.
        var apartOptions = options
        if !namedLeaves {
            apartOptions.saveCredentials = nil
            apartOptions.profile.credentials = []
        }
        let apart = try await subscribeApart(
            leaving, credentials: credentials, besides: takeover.record, into: root,
            settings: namedLeaves ? settings : ShowSettings(), options: apartOptions, onEvent: onEvent)
        let takeovers = Takeovers(store: store)
        let kept: Subscription
        if laterStays {
            kept = try takeovers.forgetEarlier(of: takeover.record, in: root)
        } else {
            let locked = try await opener.folders.lock(folder: folder, lockWait: options.lockWait)
            defer { locked.lock.unlock() }
            try opener.folders.records.readFeedInFullNextTime(of: locked.state)
            kept = try takeovers.giveBack(takeover, in: root)
        }
        onEvent(.keptBoth(feed: kept.shownFeed, folder: kept.folder, apart: apart.shownFeed, apartFolder: apart.folder))
        if namedLeaves { return apart }
        guard !settings.isEmpty || options.saveCredentials != nil else { return kept }
        return try store.subscribe(
            laterStays ? takeover.current.source : takeover.earlier.source, folder: kept.folder, in: root,
            settings: settings.isEmpty ? nil : settings, credentials: options.saveCredentials,
            existing: kept)
    }

    /// The subscription of `leaving`, kept apart in a folder of its own (none another subscription has), with
    /// `credentials` (its own) under those given in `options` (`saveCredentials`); the one a killed `add` made
    /// already, if there is one (another record than `besides` with its URL).
    private func subscribeApart(
        _ leaving: FeedSource, credentials: ShowCredentials?, besides taken: Subscription, into root: URL,
        settings: ShowSettings, options: SyncOptions, onEvent: (SyncEvent) -> Void
    ) async throws -> Subscription {
        var options = options
        options.separate = true
        let given = options.saveCredentials
        options.saveCredentials = credentials.map { own in given.map { own.overlaid(by: $0) } ?? own } ?? given
        if let made = store.all(in: root).shows.first(where: { $0.id != taken.id && $0.shownFeed == leaving.shownName })
        {
            return try store.subscribe(
                leaving, folder: made.folder, in: root, settings: settings.isEmpty ? nil : settings,
                credentials: options.saveCredentials, existing: made, separate: true)
        }
        options = try access.withAccess(options, saved: credentials, of: nil, at: leaving)
        return try await open(
            leaving, known: nil, into: root, settings: settings, options: options, onEvent: onEvent)
    }
}
