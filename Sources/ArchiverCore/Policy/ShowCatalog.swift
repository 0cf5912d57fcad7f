// What choosing the shows of a sync reads of an archive: a subscription's real feed and credentials, the
// subscription a feed address names, and feed lists. `Archiver` answers from disk; a test answers from memory.
import Foundation

/// The archive lookups `ShowSelection` needs.
public protocol ShowCatalog {
    /// `record` with the feed to fetch and its credentials.
    /// - Throws: `CredentialError` when what the record says is kept elsewhere cannot be read.
    func resolve(_ record: Subscription, in root: URL) throws -> ResolvedSubscription

    /// The subscription of `source` in `root`, whatever the spelling of its URL (a redacted one too); nil when
    /// `root` does not follow it.
    func subscription(for source: FeedSource, in root: URL) throws -> ResolvedSubscription?

    /// The feeds a list names: OPML when `opml` is true, else one a line.
    func subscriptions(atPath path: String, opml: Bool) throws -> [String]
}

extension Archiver: ShowCatalog {}
