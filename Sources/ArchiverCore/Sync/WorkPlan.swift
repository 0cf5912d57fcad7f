// What one sync of a feed has to do: from what the feed says, what the index records and what the folder holds.
import Foundation

/// What one sync of a feed has to do (see `make`).
struct WorkPlan {
    /// New episodes, earlier failures and files gone missing, within the filter.
    var work: [WorkItem]
    /// Episodes of the feed already archived, with the file that holds each.
    var skipped: [(Episode, String)]
    /// The names in the feed folder (and the subfolders the index uses).
    var present: Set<String>
    /// Episodes of the feed the filter left out and the index does not hold.
    var leftOutEpisodes: [Episode]
    /// How many (see `leftOutEpisodes`).
    var leftOut: Int { leftOutEpisodes.count }
    /// For a new episode whose file is one of several, the others, by its identity, in the order they are tried
    /// when every source of the one before answered with something that is not media (see `PreferredFile`).
    var others: [String: [Episode]] = [:]
    /// For a new episode whose file is one of several and `--prefer` is given, which it is and why, by its identity.
    var preferred: [String: PreferredRendition] = [:]

    /// What a sync of one feed has to do, from what the feed says, what the index records and what the folder
    /// holds: the episodes to fetch (new ones, earlier failures, files gone missing; all within the options'
    /// filter; each new one as the file `--prefer` chooses, see `PreferredFile`), and the ones skipped because they
    /// are archived. Prunes failures of episodes the feed no longer lists. `sync` and `sync -n` both plan here.
    static func make(
        _ fetch: FeedFetch, index: inout ArchiveIndex, folder: URL, options: SyncOptions, contents: FolderContents,
        removals: Removals? = nil
    ) -> WorkPlan {
        let (filter, retryGone) = (options.filter, options.retryGone)
        var work: [WorkItem] = []
        var skipped: [(Episode, String)] = []
        var inFeed = Set<String>()
        // Episodes of the feed the filter left out and the index does not hold: work a later run must not miss.
        var leftOut: [Episode] = []
        // Forgotten for good (see `EpisodeForgetter`): never fetched again, while the feed lists them or not.
        let forgotten = ForgottenEpisodes.load(ShowState(folder: folder).forgotten, files: contents.files)
        let unwanted = forgotten.episodes.isEmpty ? nil : forgotten.matcher
        let forgottenKeys = Set(forgotten.episodes.map(\.entry.key))
        // Gone upstream: not tried again unless asked (they are still listed by `verify`).
        let gone = retryGone ? [] : Set(index.failures.filter { $0.gone != nil }.map(\.key))
        // Not media (a torrent, a playlist): not asked for again while the feed offers it at the same URL (the file
        // `--prefer` chooses), unless asked.
        let notMedia = retryGone ? [:] : index.notMediaURLs
        func offeredAsBefore(_ episode: Episode) -> Bool {
            guard let url = notMedia[episode.identity] else { return false }
            return url == URLSecrets.redacted(PreferredFile.firstURL(options.prefer, for: episode))
        }
        // Where the feed now publishes each archived episode: the index keeps URLs redacted (see `SecretForms`), so
        // a file gone missing is fetched again from the feed's URL, secret and all.
        var listedAt: [String: String] = [:]
        switch fetch {
        case .changed(let feed, _):
            index.title = feed.title ?? index.title
            index.author = feed.author ?? index.author
            for episode in feed.episodes {
                if let entry = index.entry(for: episode), listedAt[entry.key] == nil {
                    listedAt[entry.key] = episode.url
                }
            }
            let listed = Set(feed.episodes.map(\.identity))
            // Two items of one document are never one episode: an entry answers for the first item it matches.
            var matched = Set<String>()
            var selected = filter.apply(to: feed.episodes.filter { unwanted?.entry(for: $0) == nil })
            // Taken back on purpose (`forget --undo`): wanted whatever the filter leaves out.
            if let takenBack = forgotten.takenBackMatcher, selected.count < feed.episodes.count {
                let chosen = Set(selected.map(\.identity))
                let wished = feed.episodes.filter {
                    !chosen.contains($0.identity) && takenBack.entry(for: $0) != nil && index.entry(for: $0) == nil
                        && unwanted?.entry(for: $0) == nil
                }
                // In the feed's order, as the filter gives its own.
                if !wished.isEmpty {
                    let wanted = chosen.union(wished.map(\.identity))
                    selected = feed.episodes.filter { wanted.contains($0.identity) }
                }
            }
            if selected.count < feed.episodes.count {
                let chosen = Set(selected.map(\.identity))
                let failing = Set(index.failures.map(\.key))
                leftOut = feed.episodes.filter {
                    !chosen.contains($0.identity) && !failing.contains($0.identity) && index.entry(for: $0) == nil
                        && unwanted?.entry(for: $0) == nil
                }
            }
            for episode in selected where inFeed.insert(episode.identity).inserted {
                if let entry = index.entry(for: episode), matched.insert(entry.key).inserted {
                    skipped.append((episode, entry.file))
                } else if !gone.contains(episode.identity), !offeredAsBefore(episode) {
                    work.append(.new(episode))
                }
            }
            // Failures of episodes the feed no longer lists are dropped; the rest are in `work` again, or kept for a
            // sync whose filter selects them.
            index.failures.removeAll { !listed.contains($0.key) }
            if let removals { removals.mark(in: &index, feed: feed) }
        case .notModified:
            work = filter.apply(
                to: index.failures.filter { !gone.contains($0.key) && notMedia[$0.key] == nil }.map(
                    IntegrityGate.retried)
            ).map { .new($0) }
        }
        let present = contents.presentFiles(in: folder, index: index, sweeping: true)
        // Away on purpose (offloaded, deleted by retention, handed off: see `AwayRecord`) is not missing.
        let missing = index.episodes.filter {
            $0.isHere && !present.contains($0.file) && !forgottenKeys.contains($0.key)
        }.map {
            entry -> WorkItem in
            var entry = entry
            if let url = listedAt[entry.key] { entry.url = url }
            return WorkItem.missing(entry)
        }
        let wanted = Set(filter.apply(to: missing.map(\.episode)).map(\.identity))
        // Deleted by hand, or lost: fetch it again rather than forget it.
        work += missing.filter { wanted.contains($0.episode.identity) }
        let (chosen, others, preferred) = PreferredFile.apply(options.prefer, to: work)
        return WorkPlan(
            work: chosen, skipped: skipped, present: present, leftOutEpisodes: leftOut, others: others,
            preferred: preferred)
    }
}

/// What a sync that read the whole feed records of archived episodes the feed no longer lists.
struct Removals {
    /// This sync's time (RFC 3339).
    var now: String
    /// The last full fetch before it: when the episodes that are gone now were last seen.
    var lastSeen: String?

    /// Marks archived episodes the feed no longer lists as removed upstream (once: the first sync that misses
    /// them), and clears the mark of those that came back. Nothing is ever deleted.
    func mark(in index: inout ArchiveIndex, feed: Feed) {
        var seen = Set<String>()
        for episode in feed.episodes {
            if let entry = index.entry(for: episode) { seen.insert(entry.key) }
        }
        index.markRemovedUpstream(except: seen, now: now, lastSeen: lastSeen)
    }
}
