// The record of what a feed folder holds: `<feed folder>/.podarchive/index.json`.
//
// One entry per archived episode, keyed by GUID (else enclosure URL), with its file name, size and publication
// date. It is rewritten atomically after every episode, so a crash loses at most the episode in flight, and a
// re-run downloads only what it does not list.
import Foundation

/// The archive index of one feed folder.
public struct ArchiveIndex: Codable, Equatable, Sendable {
    /// One archived episode.
    public struct Entry: Codable, Equatable, Sendable {
        /// GUID, else enclosure URL: how the episode is recognised on the next run.
        public var key: String
        public var title: String?
        /// The enclosure URL it was downloaded from.
        public var url: String
        /// The file's name inside the feed folder.
        public var file: String
        /// The file's size in bytes.
        public var size: Int64
        /// Publication date, `YYYY-MM-DDTHH:MM:SSZ`; nil when the feed gave none.
        public var published: String?
        /// When podarchive archived it, `YYYY-MM-DDTHH:MM:SSZ`.
        public var archived: String

        public init(
            key: String, title: String?, url: String, file: String, size: Int64, published: String?, archived: String
        ) {
            self.key = key
            self.title = title
            self.url = url
            self.file = file
            self.size = size
            self.published = published
            self.archived = archived
        }
    }

    /// The format version; readers refuse a newer one rather than misread it.
    public var version: Int
    /// The feed URL (or path) last synced into this folder.
    public var feed: String
    public var title: String?
    public var episodes: [Entry]

    private var positions: [String: Int] = [:]

    public static let currentVersion = 1

    private enum CodingKeys: String, CodingKey {
        case version, feed, title, episodes
    }

    public init(feed: String, title: String?, episodes: [Entry] = []) {
        self.version = Self.currentVersion
        self.feed = feed
        self.title = title
        self.episodes = episodes
        reindex()
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decode(Int.self, forKey: .version)
        feed = try container.decode(String.self, forKey: .feed)
        title = try container.decodeIfPresent(String.self, forKey: .title)
        episodes = try container.decode([Entry].self, forKey: .episodes)
        reindex()
    }

    /// The entry recorded under `key`, if any: one dictionary lookup.
    public func entry(forKey key: String) -> Entry? {
        positions[key].map { episodes[$0] }
    }

    /// Adds an entry, replacing any with the same key.
    public mutating func record(_ entry: Entry) {
        if let position = positions[entry.key] {
            episodes[position] = entry
        } else {
            positions[entry.key] = episodes.count
            episodes.append(entry)
        }
    }

    /// Every file name the index holds.
    public var fileNames: Set<String> { Set(episodes.map(\.file)) }

    private mutating func reindex() {
        positions = Dictionary(episodes.enumerated().map { ($1.key, $0) }, uniquingKeysWith: { _, last in last })
    }

    public static func == (lhs: ArchiveIndex, rhs: ArchiveIndex) -> Bool {
        lhs.version == rhs.version && lhs.feed == rhs.feed && lhs.title == rhs.title && lhs.episodes == rhs.episodes
    }

    // MARK: - Storage

    /// The folder inside a feed folder that holds podarchive's own files.
    public static let stateFolderName = ".podarchive"
    public static let fileName = "index.json"

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var data = try encoder.encode(self)
        data.append(0x0A)
        return data
    }

    public static func decode(_ data: Data) throws -> ArchiveIndex {
        try JSONDecoder().decode(ArchiveIndex.self, from: data)
    }
}
