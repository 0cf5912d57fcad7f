// One show a sync run takes on, as the selection chose it: its feed, the settings saved with it and to save,
// and the credentials given for it.
import Foundation

/// One show a sync run takes on.
public struct SyncTarget: Equatable, Sendable {
    /// Its feed.
    public var source: FeedSource
    /// Settings saved with the subscription (nil: none, or not subscribed yet).
    public var saved: ShowSettings?
    /// Settings to save with it: those given for the run, for feeds named or listed (nil: save none).
    public var save: ShowSettings?
    /// Credentials given for it with the run (a login in its URL, headers), used and saved.
    public var credentials: ShowCredentials?
    /// Its subscription's ID (what a shard is chosen by), or the one it will get.
    public var id: String
    /// Its subscription as the selection read and resolved it (nil: not subscribed yet): the sync starts from it
    /// rather than finding and reading the record again.
    public var subscription: ResolvedSubscription?
    /// The origin of the web page it was found on, when that is not the feed's (`ResolvedFeed.namedAt`).
    public var namedAt: Origin?

    /// A show to sync.
    public init(
        source: FeedSource, saved: ShowSettings? = nil, save: ShowSettings? = nil, credentials: ShowCredentials? = nil,
        id: String, subscription: ResolvedSubscription? = nil, namedAt: Origin? = nil
    ) {
        self.namedAt = namedAt
        self.subscription = subscription
        self.source = source
        self.saved = saved
        self.save = save
        self.credentials = credentials
        self.id = id
    }

    /// Its settings: `given` for the run over those saved with it, over the configuration file's.
    public func layers(given: ShowSettings, configuration: ShowSettings? = nil) -> SettingsLayers {
        SettingsLayers(given: given, saved: saved, configuration: configuration)
    }
}
