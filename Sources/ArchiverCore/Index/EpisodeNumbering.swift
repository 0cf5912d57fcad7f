// Which number each new episode gets (see `EpisodeNumbers`): the episodes a show has no number for yet, oldest
// first. The first time a show is named with `{number}`, that is its whole back catalogue (what the index holds,
// removed upstream and away included, and what the feed lists); after that, what each sync finds new.
import Foundation

extension EpisodeNumbers {
    /// The keys of the episodes of `index` and `episodes` (the feed as read, newest first as feeds list them)
    /// without a number, in the order they are numbered: by publication date, oldest first, undated ones last; at
    /// the same date (or none), what the index holds first in the order it was archived, then the feed's episodes
    /// from its last item up.
    func unnumbered(_ episodes: [Episode], index: ArchiveIndex) -> [String] {
        var seen = Set<String>()
        var candidates: [(key: String, date: String, order: Int)] = []
        func add(_ key: String, _ published: String?) {
            guard number(of: key) == nil, seen.insert(key).inserted else { return }
            // "~" sorts after every date written as YYYY-MM-DDTHH:MM:SSZ.
            candidates.append((key, published ?? "~", candidates.count))
        }
        for entry in index.episodes { add(entry.key, entry.published) }
        for episode in episodes.reversed() {
            add(index.entry(for: episode)?.key ?? episode.identity, episode.published.map(FeedDate.iso8601))
        }
        return candidates.sorted { ($0.date, $0.order) < ($1.date, $1.order) }.map(\.key)
    }
}

extension ShowRecords {
    /// The numbers of `show`'s episodes, with every one of `index` and `episodes` (the feed as read) numbered.
    /// Saved, durably, before it returns when a number was given and `save` is set (a dry run numbers without).
    /// A damaged record is read as none: its episodes are numbered again, in the same order.
    /// - Throws: `ArchiveError.storage` when the record cannot be saved.
    func numbered(_ episodes: [Episode], index: ArchiveIndex, of show: ShowState, save: Bool) throws
        -> EpisodeNumbers
    {
        var numbers = show.numbers.load(files) ?? EpisodeNumbers()
        if numbers.give(numbers.unnumbered(episodes, index: index)), save {
            try show.numbers.save(numbers, writer)
        }
        return numbers
    }
}
