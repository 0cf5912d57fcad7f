// What the site shows of one show, read from the archive alone (no network): the index says what is archived;
// the show notes and durations come from the kept feed document (`history/current.*`), else from the episode's
// sidecar (`--metadata`) for an episode the feed no longer lists.
import Foundation

/// One archived episode as the site shows it.
struct SiteEpisode: Sendable {
    var entry: ArchiveIndex.Entry
    var published: Date?
    var duration: TimeInterval?
    /// The show notes made safe for a page (see `ShowNotes.html`); empty when there are none.
    var notes = ""
    /// For an episode the publisher removed: when the feed revision its notes come from was fetched.
    var notesFrom: Date?
    var type: String?

    var title: String { entry.title ?? (entry.file as NSString).deletingPathExtension }
}

/// One show as the site shows it.
struct SiteShow: Sendable {
    /// The show's folder.
    var folder: URL
    var title: String
    /// Newest first (undated last, in the order archived).
    var episodes: [SiteEpisode]
    /// The show's artwork file in its folder (`cover.jpg`), when kept.
    var cover: String?
    /// What the show says of itself, made safe for a page (see `ShowNotes.html`); empty when it says nothing.
    var about = ""
    /// The show's web site, when its feed names an http(s) one.
    var website: String?
    /// What the show's folder holds: an episode away on purpose counts for nothing.
    var bytes: Int64 { episodes.reduce(0) { $0 + ($1.entry.isHere ? $1.entry.size : 0) } }
    var newest: Date? { episodes.compactMap(\.published).max() }
}

extension SiteShow {
    /// Reads the show in `folder` from its index and, with `details` (notes, durations, types: what its own
    /// pages show, not the root page), its kept feed document and its sidecars.
    static func read(_ folder: URL, index: ArchiveIndex, files: any FileReading, details: Bool) -> SiteShow {
        let state = ShowState(folder: folder)
        var fromFeed: [String: Episode] = [:]
        var about = ""
        var website: String?
        for ext in ArchiveLayout.documentExtensions where details {
            let path = state.currentDocument(ext).path
            guard let data = files.contents(atPath: path),
                let feed = try? FeedParser.parse(data, url: URL(string: index.feed), descriptions: true)
            else { continue }
            for episode in feed.episodes { fromFeed[episode.identity] = episode }
            about = feed.description.map(ShowNotes.html) ?? about
            website = feed.links.website.flatMap { WebScheme.isWeb(URL(string: $0)) ? $0 : nil } ?? website
        }
        // The notes of an episode the feed no longer lists: from the newest revision in the history holding it.
        let removed =
            details
            ? RemovedNotes.find(
                Set(index.episodes.filter { $0.removedUpstream != nil && fromFeed[$0.key] == nil }.map(\.key)),
                history: state.history, feed: URL(string: index.feed), files: files) : [:]
        // A file kept under a live name by an earlier version (renamed by the next sync) is never linked.
        let episodes = index.episodes.filter { !LiveContent.isLive($0.file) }.map { entry -> SiteEpisode in
            var entry = entry
            entry.companions = entry.companions?.filter { !LiveContent.isLive($0.file) }
            var episode = SiteEpisode(
                entry: entry, published: entry.published.flatMap(FeedDate.parseRFC3339), duration: nil, type: nil)
            guard details else { return episode }
            if let known = fromFeed[entry.key] {
                episode.duration = known.duration
                episode.notes = known.description.map(ShowNotes.html) ?? ""
                episode.type = known.mimeType
            } else if let kept = removed[entry.key] {
                episode.duration = kept.episode.duration
                episode.notes = kept.episode.description.map(ShowNotes.html) ?? ""
                episode.notesFrom = kept.revision
                episode.type = kept.episode.mimeType
            } else if let sidecar = Sidecar.read(
                folder.appendingPathComponent(ArchiveNames.sidecarName(for: entry.file)), files: files)
            {
                episode.duration = sidecar.duration
                episode.notes = sidecar.description.map(ShowNotes.html) ?? ""
                episode.type = sidecar.type
            }
            return episode
        }
        let order = episodes.indices.sorted { lhs, rhs in
            switch (episodes[lhs].published, episodes[rhs].published) {
            case (let left?, let right?): return left != right ? left > right : lhs > rhs
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return lhs > rhs
            }
        }
        let names = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        // Only the show's own artwork: never an archived file (an earlier version's `cover.jpg` episode).
        let cover = ArchiveLayout.coverNames.first { names.contains($0) && !index.holds(file: $0) }
        return SiteShow(
            folder: folder, title: ArchiveNames.showTitle(index.title, folder: folder),
            episodes: order.map { episodes[$0] }, cover: cover, about: about, website: website)
    }
}

/// The parts of a sidecar the site reads.
private struct Sidecar: Decodable {
    var description: String?
    var duration: TimeInterval?
    var type: String?

    static func read(_ url: URL, files: any FileReading) -> Sidecar? {
        files.contents(atPath: url.path).flatMap { try? JSONDecoder().decode(Sidecar.self, from: $0) }
    }
}

extension SiteShow {
    /// Leaves out the companions `holders` finds holding a secret of the show (in `folder`): no page links them
    /// and none is published. Returns them as `Show/file`.
    mutating func withholding(_ holders: SecretHolders, in folder: URL) -> [String] {
        var withheld: [String] = []
        for position in episodes.indices {
            let held = holders.companions(of: episodes[position].entry, in: folder)
            guard !held.isEmpty else { continue }
            episodes[position].entry.companions?.removeAll { held.contains($0.file) }
            withheld += held.sorted().map { folder.lastPathComponent + "/" + $0 }
        }
        return withheld
    }
}
