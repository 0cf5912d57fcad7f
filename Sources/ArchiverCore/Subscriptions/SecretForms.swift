// How what identifies an episode is kept when it carries a secret. The index, the journal, download records,
// sidecars and the history are readable by anyone the archive is served or copied to, so a URL is kept redacted
// (`URLSecrets.redacted`), and an identifier that carries a secret (a GUID, or an enclosure URL standing for a
// missing GUID) is kept as a keyed hash of itself (`ArchiveIdentity.keyedHash`): the same text always gives the
// same hash, so two items never merge and an archived episode is always recognised, but the token's text is
// nowhere. The real URLs come from the feed each time they are needed.
import Foundation

/// Turns what a feed says into what the archive keeps.
struct SecretForms: Sendable {
    /// The archive's identity: the key of the hashes.
    let identity: ArchiveIdentity

    /// `text` as the index keeps an identifier: itself, or its keyed hash when it carries a secret (a keyed hash
    /// is kept as it is).
    /// Under a private show's `Taint`, every identifier that is a URL with a query, a fragment or a login is
    /// hashed (all its values are secret), so `/get.php?id=N` episodes stay apart. The key of a version a repair
    /// kept (`<key>#v<N>`) keeps its suffix.
    func identifier(_ text: String) -> String {
        if let version = Self.versionSuffix(of: text) {
            return identifier(String(text.dropLast(version.count))) + version
        }
        guard !ArchiveIdentity.isKeyedHash(text), URLSecrets.hasSecret(text) else { return text }
        return identity.keyedHash(text)
    }

    /// The `#v<N>` a kept version's key ends with (`EpisodePlacer`), if it has one.
    private static func versionSuffix(of text: String) -> Substring? {
        let utf8 = text.utf8
        guard let hash = utf8.lastIndex(of: UInt8(ascii: "#")) else { return nil }
        let rest = utf8[utf8.index(after: hash)...]
        guard rest.first == UInt8(ascii: "v"), rest.count > 1,
            rest.dropFirst().allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
        else { return nil }
        return text[hash...]
    }

    /// The episode as the archive looks it up: its GUID and identity as kept; its URL stays the real one (it is
    /// what is downloaded), and every record made from it keeps it redacted.
    func episode(_ episode: Episode) -> Episode {
        var kept = episode
        kept.guid = episode.guid.map(identifier)
        let identity = identifier(episode.identity)
        if identity != kept.identity { kept.storedIdentity = identity }
        return kept
    }

    /// Every episode of `fetch` as the archive looks it up.
    func fetch(_ fetch: FeedFetch) -> FeedFetch {
        guard case .changed(var feed, let validators) = fetch else { return fetch }
        feed.episodes = feed.episodes.map(episode)
        return .changed(feed, validators)
    }

    /// An index entry as it is kept (an earlier version's, kept with its secrets, is converted).
    func entry(_ entry: ArchiveIndex.Entry) -> ArchiveIndex.Entry {
        var kept = entry
        kept.key = identifier(entry.key)
        kept.guid = entry.guid.map(identifier)
        kept.url = URLSecrets.redacted(entry.url)
        kept.companions = entry.companions?.map { companion in
            var companion = companion
            companion.url = companion.url.map(URLSecrets.redacted)
            return companion
        }
        return kept
    }

    /// A failure record as it is kept.
    func failure(_ failure: ArchiveIndex.Failure) -> ArchiveIndex.Failure {
        var kept = failure
        kept.key = identifier(failure.key)
        kept.guid = failure.guid.map(identifier)
        kept.url = URLSecrets.redacted(failure.url)
        return kept
    }

    /// The index as it is kept, and whether anything in it had to change (an earlier version's index).
    func index(_ index: ArchiveIndex) -> (ArchiveIndex, changed: Bool) {
        let episodes = index.episodes.map(entry)
        let failures = index.failures.map(failure)
        let feed = URLSecrets.redacted(index.feed)
        guard episodes != index.episodes || failures != index.failures || feed != index.feed else {
            return (index, false)
        }
        var kept = ArchiveIndex(feed: feed, title: index.title, episodes: episodes, failures: failures)
        kept.author = index.author
        return (kept, true)
    }
}
