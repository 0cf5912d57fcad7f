// The show notes of episodes the publisher removed: the feed no longer lists them, but every revision of the feed
// that did is kept in the show's history (see `FeedHistory`). The newest revision holding an episode gives its
// notes, read as hostile as any feed (through `ShowNotes.html` by the caller).
import Foundation

/// An episode's notes as the newest revision of the feed holding it said them.
struct RemovedNotes: Sendable {
    /// The episode as that revision listed it.
    var episode: Episode
    /// When that revision was fetched (from its name), when the name says it.
    var revision: Date?

    /// Reads the revisions in `history` newest first, until each of `keys` (episode keys) is found or none is
    /// left; a revision that does not read back or parse is passed over.
    static func find(_ keys: Set<String>, history: URL, feed: URL?, files: any FileReading) -> [String: RemovedNotes] {
        var wanted = keys
        var found: [String: RemovedNotes] = [:]
        guard !wanted.isEmpty else { return found }
        let names = ((try? files.contentsOfDirectory(atPath: history.path)) ?? []).filter {
            $0.hasSuffix(ArchiveLayout.revisionSuffix)
        }
        for name in names.sorted(by: >) where !wanted.isEmpty {
            guard let packed = files.contents(atPath: history.appendingPathComponent(name).path),
                let data = try? Gzip.decompress(packed),
                let parsed = try? FeedParser.parse(data, url: feed, descriptions: true)
            else { continue }
            for episode in parsed.episodes where wanted.contains(episode.identity) {
                wanted.remove(episode.identity)
                found[episode.identity] = RemovedNotes(episode: episode, revision: date(of: name))
            }
        }
        return found
    }

    /// The time a revision's name starts with (`2025-01-31T18-00-00Z`).
    private static func date(of name: String) -> Date? {
        let stamp = String(name.prefix(20))
        guard stamp.count == 20, stamp.hasSuffix("Z") else { return nil }
        let (day, time) = (stamp.prefix(11), stamp.dropFirst(11).replacingOccurrences(of: "-", with: ":"))
        return FeedDate.parseRFC3339(day + time)
    }
}
