// The record of what a feed folder holds: `<feed folder>/.podarchive/index.json`.
//
// One entry per archived episode (GUID, enclosure URL, file name, size, SHA-256, dates) and one per episode that
// failed, so that a run which gets `304 Not Modified` for the feed can still retry those. Each settled episode is
// appended to `index.journal` (synced in groups, see `JournalCommitter`); the journal is folded into this file,
// written whole and atomically, when it passes 1 MB and when the run ends, so a crash loses at most the episodes
// in flight.
import Foundation

/// The archive index of one feed folder.
public struct ArchiveIndex: Codable, Equatable, Sendable {
    /// One archived episode.
    public struct Entry: Codable, Equatable, Sendable {
        /// GUID, else enclosure URL: the episode's primary key.
        public var key: String
        /// The episode's GUID, when the feed gave one.
        public var guid: String?
        /// The episode's title when it was archived.
        public var title: String?
        /// The enclosure URL it was downloaded from.
        public var url: String
        /// The file's name inside the feed folder.
        public var file: String
        /// The file's size in bytes.
        public var size: Int64
        /// SHA-256 of the file, hex; nil in indexes written before podarchive recorded it.
        public var sha256: String?
        /// Publication date, `YYYY-MM-DDTHH:MM:SSZ`; nil when the feed gave none.
        public var published: String?
        /// When podarchive archived it, `YYYY-MM-DDTHH:MM:SSZ`.
        public var archived: String
        /// Set when this file was found damaged and the publisher's file had changed meanwhile: the newer
        /// content was kept beside it under this name (`Title (v2).mp3`), and this one cannot be repaired.
        public var replacedBy: String?
        /// When a sync that read the whole feed first found the episode no longer in it (the publisher pruned or
        /// deleted it): the file stays, marked as removed upstream. Cleared if it comes back.
        public var removedUpstream: String?
        /// The last sync that saw the episode in the feed, when it has since been removed upstream (nil when
        /// that sync's time is not known: one before podarchive recorded it).
        public var lastSeen: String?
        /// The transcripts, chapters and artwork kept beside the episode's file.
        public var companions: [CompanionFile]?
        /// What the publisher said of the file: alternates, the one archived, its hash (see `PublisherRecord`).
        public var publisher: PublisherRecord?
        /// The `Content-Type` the server sent with the file when it was downloaded (nil when it sent none, or the
        /// entry is older than this record: an archive of 0.1.0 has none, and an older version skips the key).
        public var contentType: String?
        /// Set when the episode's files left the show's folder on purpose: offloaded, deleted by retention, handed
        /// off by a hook (see `AwayRecord`). Nil for an episode whose files are meant to be here.
        public var away: AwayRecord?

        /// The entry's keys in the index and its journal: the one list of them, which JSON's Codable, the
        /// writer (`IndexFormat.encode`) and the reader (`IndexReader`, which must handle each) all use.
        enum CodingKeys: String, CodingKey, CaseIterable {
            case key, guid, title, url, file, size, sha256, published, archived, replacedBy, companions
            case removedUpstream, lastSeen, publisher, contentType, away
        }

        /// An entry as sync records it; `key` is the episode's `identity`.
        public init(
            key: String, guid: String? = nil, title: String?, url: String, file: String, size: Int64,
            sha256: String? = nil, published: String?, archived: String
        ) {
            self.key = key
            self.guid = guid
            self.title = title
            self.url = url
            self.file = file
            self.size = size
            self.sha256 = sha256
            self.published = published
            self.archived = archived
        }

        /// The entry for `episode`, archived as `file` at `time`: its URL kept redacted (see `SecretForms`).
        public init(archiving episode: Episode, file: String, size: Int64, sha256: String, at time: Date) {
            self.init(
                key: episode.identity, guid: episode.guid, title: episode.title, url: URLSecrets.redacted(episode.url),
                file: file, size: size, sha256: sha256, published: episode.published.map(FeedDate.iso8601),
                archived: FeedDate.iso8601(time))
        }
    }

    /// An episode that could not be archived yet (see `FailedEpisode`).
    public typealias Failure = FailedEpisode

    /// The URL each failure that is not media (see `Failure.notMedia`) was offered at, by the episode's key.
    var notMediaURLs: [String: String] {
        Dictionary(failures.compactMap { $0.notMedia == nil ? nil : ($0.key, $0.url) }, uniquingKeysWith: { a, _ in a })
    }

    /// The format version; readers refuse a newer one rather than misread it.
    public var version: Int
    /// The feed URL (or path) last synced into this folder.
    public var feed: String
    /// The feed's title, from its last sync that read one.
    public var title: String?
    /// Who makes the show (the feed's `itunes:author`, JSON Feed's first author), from its last sync that read one
    /// (a feed answering 304 is read from the history's current document, once): the library's artist. Nil in an
    /// index of an earlier version; an older podarchive skips the key.
    public var author: String?
    /// Every archived episode, in the order they were archived (change them with `record`).
    public private(set) var episodes: [Entry]
    /// Episodes that could not be archived yet.
    public var failures: [Failure]
    /// The show is kept apart from other feeds of its title (`add --separate`): written as version 4, which an
    /// older podarchive refuses rather than let another URL of the show take the folder over.
    public var keptApart = false

    /// The tables entries are found by (see `IndexLookup`): shared by copies until one of them changes.
    private var lookup = IndexLookup()

    /// The newest format version this podarchive reads and writes. Version 4 is written for a show kept apart
    /// (`keptApart`), version 3 for an index that keeps an identifier as a keyed hash or a URL redacted (see
    /// `SecretForms`), each of which an older podarchive must refuse rather than misread (let another URL take a
    /// kept-apart show over; fetch `REDACTED` for a token); other indexes stay version 2. Version 5 is written for
    /// an index holding an episode whose files are away on purpose (`AwayRecord`), which an older podarchive must
    /// refuse rather than fetch again every episode offloaded or deleted by retention.
    public static let currentVersion = 5

    /// The version this index is written as.
    var writtenVersion: Int {
        func kept(_ text: String?) -> Bool {
            text.map { ArchiveIdentity.isKeyedHash($0) || URLSecrets.carriesRedaction($0) } ?? false
        }
        let secret =
            kept(feed) || episodes.contains { kept($0.key) || kept($0.url) || kept($0.guid) }
            || failures.contains { kept($0.key) || kept($0.url) || kept($0.guid) }
        if episodes.contains(where: { $0.away != nil }) { return 5 }
        return keptApart ? 4 : secret ? 3 : 2
    }

    /// The index's own keys (see `Entry.CodingKeys`).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case version, feed, title, author, keptApart, episodes, failures
    }

    /// An index of the current version for the feed at `feed` (kept redacted).
    public init(feed: String, title: String?, episodes: [Entry] = [], failures: [Failure] = []) {
        self.version = Self.currentVersion
        self.feed = URLSecrets.redacted(feed)
        self.title = title
        self.episodes = episodes
        self.failures = failures
        reindex()
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        feed = try container.decode(String.self, forKey: .feed)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        author = try container.decodeIfPresent(String.self, forKey: .author)
        // Version 1 recorded the GUID only as the key.
        episodes = try container.decode([Entry].self, forKey: .episodes).map { entry in
            var entry = entry
            if entry.guid == nil, entry.key != entry.url, !ArchiveIdentity.isKeyedHash(entry.key) {
                entry.guid = entry.key
            }
            return entry
        }
        failures = try container.decodeIfPresent([Failure].self, forKey: .failures) ?? []
        keptApart = try container.decodeIfPresent(Bool.self, forKey: .keptApart) ?? false
        reindex()
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(writtenVersion, forKey: .version)
        try container.encode(feed, forKey: .feed)
        try container.encodeIfPresent(title, forKey: .title)
        try container.encodeIfPresent(author, forKey: .author)
        if keptApart { try container.encode(true, forKey: .keptApart) }
        try container.encode(episodes, forKey: .episodes)
        try container.encode(failures, forKey: .failures)
    }

    /// The archived entry for `episode`: same GUID, else same enclosure URL, else the same URL but for a tracking
    /// query when at most one side has a GUID. A few dictionary lookups, whatever the index's size.
    ///
    /// The loose match (same URL but for its query) also needs the same title or the same date: hosts that serve
    /// every episode as `e.mp3?id=N` must not have episode 3 taken for episode 1.
    public func entry(for episode: Episode) -> Entry? {
        let published = episode.published.map(FeedDate.iso8601)
        let found = tables { [episodes] tables -> Int? in
            if let position = tables.byKey[episode.identity] { return position }
            // An episode known only with its URL (its GUID is another's): nothing looser identifies it.
            if episode.sharesGUID { return nil }
            if let guid = episode.guid, let position = tables.byGUID[guid] { return position }
            if let position = tables.byURL[episode.url] { return position }
            let key = EpisodeIdentity.urlKey(episode.url)
            let candidates = (tables.byURLKey[key].map { [$0] } ?? []) + (tables.moreByURLKey[key] ?? [])
            return candidates.first { position in
                let entry = episodes[position]
                let sameTitle = episode.title != nil && entry.title == episode.title
                let sameDate = published != nil && entry.published == published
                return (episode.guid == nil || entry.guid == nil) && (sameTitle || sameDate)
            }
        }
        return found.map { episodes[$0] }
    }

    /// Adds an entry, replacing the one it matches (same key or same file).
    public mutating func record(_ entry: Entry) {
        // A new episode (the common case, thousands of times in a first sync) is found new by lookups alone.
        let known = tables { $0.files.contains(entry.file) || $0.keyPositions[entry.key] != nil }
        if known, let position = episodes.firstIndex(where: { $0.key == entry.key || $0.file == entry.file }) {
            episodes[position] = entry
            reindex()
        } else {
            episodes.append(entry)
            index(episodes.count - 1)
        }
        failures.removeAll { $0.key == entry.key }
    }

    /// Marks each episode whose key is not in `seen` as removed upstream at `now` (unless it is already, or is a
    /// version kept by a repair), and clears the mark of those in `seen`.
    mutating func markRemovedUpstream(except seen: Set<String>, now: String, lastSeen: String?) {
        for position in episodes.indices {
            let present = seen.contains(episodes[position].key)
            if present, episodes[position].removedUpstream != nil {
                episodes[position].removedUpstream = nil
                episodes[position].lastSeen = nil
            } else if !present, episodes[position].removedUpstream == nil, !episodes[position].key.contains("#v") {
                episodes[position].removedUpstream = now
                episodes[position].lastSeen = lastSeen
            }
        }
    }

    /// Records `companion` with the episode whose key is `key` (replacing one of the same file).
    mutating func recordCompanion(_ companion: CompanionFile, forKey key: String) {
        guard let position = episodes.firstIndex(where: { $0.key == key }) else { return }
        var list = episodes[position].companions ?? []
        list.removeAll { $0.file == companion.file }
        list.append(companion)
        episodes[position].companions = list
        changeLookup { $0.files.insert(companion.file) }
    }

    /// Puts `entry` in place of the entry of its key, as it is (its files renamed: see `EpisodePlacer`).
    mutating func update(_ entry: Entry) { update([entry]) }

    /// Puts each of `entries` in place of the entry of its key, as it is, and indexes the entries again once (a
    /// rename of a whole show: one at a time, the show would be indexed again for each).
    mutating func update(_ entries: [Entry]) {
        let positions = tables { tables in entries.map { tables.keyPositions[$0.key] } }
        for (entry, position) in zip(entries, positions) { if let position { episodes[position] = entry } }
        reindex()
    }

    /// The entry whose key is `key` (one lookup).
    func entry(forKey key: String) -> Entry? { position(ofKey: key).map { episodes[$0] } }

    private func position(ofKey key: String) -> Int? { tables { $0.keyPositions[key] } }

    /// Sets the away record of the entry whose key is `key` (see `AwayRecord`): its files and keys are unchanged,
    /// so nothing is indexed again.
    mutating func setAway(_ away: AwayRecord?, forKey key: String) {
        guard let position = position(ofKey: key) else { return }
        episodes[position].away = away
    }

    /// Marks the entry for `file` as replaced by a newer version `newer` (see `Entry.replacedBy`).
    public mutating func markReplaced(_ file: String, by newer: String) {
        guard let position = episodes.firstIndex(where: { $0.file == file }) else { return }
        episodes[position].replacedBy = newer
    }

    /// Every file name the index holds.
    public var fileNames: Set<String> { tables { $0.files } }

    /// True when an entry records `file` (one lookup).
    public func holds(file: String) -> Bool { tables { $0.files.contains(file) } }

    /// `body`'s answer from the lookup tables, built now if they are not yet.
    private func tables<Answer: Sendable>(_ body: (IndexLookup.Tables) -> Answer) -> Answer {
        lookup.read(
            building: {
                var tables = IndexLookup.Tables(capacity: episodes.count)
                for (position, entry) in episodes.enumerated() { Self.add(entry, at: position, to: &tables) }
                return tables
            }, body)
    }

    private static func add(_ entry: Entry, at position: Int, to tables: inout IndexLookup.Tables) {
        let files = [entry.file] + (entry.companions ?? []).map(\.file)
        tables.add(key: entry.key, guid: entry.guid, url: entry.url, files: files, at: position)
    }

    /// Forgets the tables: they are built again from the entries when next asked for.
    private mutating func reindex() { lookup = IndexLookup() }

    /// Makes the entry at `position` found: in the tables if they are built and this index's alone, else by
    /// building them again when next asked for.
    private mutating func index(_ position: Int) {
        let entry = episodes[position]
        changeLookup { Self.add(entry, at: position, to: &$0) }
    }

    /// Changes the tables with `body` where this index has them alone; else gives it tables of its own, built when
    /// next asked for (a copy of the index keeps the tables as they were).
    private mutating func changeLookup(_ body: (inout IndexLookup.Tables) -> Void) {
        guard isKnownUniquelyReferenced(&lookup) else { return reindex() }
        lookup.change(body)
    }

    /// Equal when what is written is: the feed, title, author, episodes, failures and whether the show is kept
    /// apart (whether an index is saved is decided by comparing it, so a change to any of them must count). Not
    /// `version`, the version it was read as (the one written follows from the rest, `writtenVersion`), nor the
    /// lookup tables, which are made from the episodes.
    public static func == (lhs: ArchiveIndex, rhs: ArchiveIndex) -> Bool {
        lhs.feed == rhs.feed && lhs.title == rhs.title && lhs.author == rhs.author && lhs.episodes == rhs.episodes
            && lhs.failures == rhs.failures && lhs.keptApart == rhs.keptApart
    }
}
