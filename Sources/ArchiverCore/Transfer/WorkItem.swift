// One thing a sync (or a repair) archives: an episode not yet in the index, or an indexed one whose file is gone.
import Foundation

/// One thing to archive: an episode not yet in the index, or an indexed one whose file is gone.
enum WorkItem: Sendable {
    case new(Episode)
    case missing(ArchiveIndex.Entry)

    var isNew: Bool {
        if case .new = self { return true }
        return false
    }

    /// This item as `episode` was fetched: one of its files and one of its sources (see `EpisodeSources`). What the
    /// index records, and the file's origin, is the file and URL that served its bytes; a missing file keeps its
    /// entry, fetched from the URL that served it.
    func served(as episode: Episode) -> WorkItem {
        switch self {
        case .new: return .new(episode)
        case .missing(var entry):
            entry.url = episode.url
            return .missing(entry)
        }
    }

    var episode: Episode {
        switch self {
        case .new(let episode): return episode
        case .missing(let entry):
            var episode = Episode(
                title: entry.title, guid: entry.guid, url: entry.url,
                published: entry.published.flatMap(FeedDate.parseRFC3339))
            if episode.identity != entry.key { episode.storedIdentity = entry.key }
            episode.alternates = entry.publisher?.alternates ?? []
            return episode
        }
    }
}
