// What an index entry records of each file kept beside its episode.
import Foundation

/// A transcript, chapters document or episode artwork kept beside an archived episode.
public struct CompanionFile: Codable, Equatable, Sendable {
    /// `transcript`, `chapters` or `artwork`.
    public var kind: String
    /// Its path inside the feed folder (`Season 1/Pilot.en.srt`).
    public var file: String
    /// Where it was downloaded from; nil for chapters the feed gave inline.
    public var url: String?
    /// The type the feed declared.
    public var type: String?
    /// A transcript's language, as declared.
    public var language: String?
    /// Its size in bytes.
    public var size: Int64
    /// SHA-256 of the file, hex.
    public var sha256: String
    /// The `Content-Type` its server sent when it was downloaded (nil for chapters given inline, a server that sent
    /// none, or a companion kept before this record: an archive of 0.1.0 has none, and an older version skips the
    /// key). The type a WARC gives its capture; `type` is only what the feed declared.
    public var contentType: String?

    /// The companion's keys in the index (see `ArchiveIndex.Entry.CodingKeys`).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case kind, file, url, type, language, size, sha256, contentType
    }

    /// A companion as sync records it.
    public init(
        kind: String, file: String, url: String?, type: String?, language: String?, size: Int64, sha256: String,
        contentType: String? = nil
    ) {
        self.kind = kind
        self.file = file
        self.url = url
        self.type = type
        self.language = language
        self.size = size
        self.sha256 = sha256
        self.contentType = contentType
    }
}
