// What the publisher said of an archived file, kept with its index entry (key `publisher`) and, for an episode
// that failed, with its failure: the alternate enclosures the feed listed, which one was archived, and the
// publisher's hash (Subresource Integrity) with what the file's own digest was when it did not match. An older
// podarchive skips the key when it reads the index (its reader ignores keys it does not know) and drops it when it
// writes the index again: the files and everything else stay as they were.
import Foundation

/// The publisher's description of an archived (or failing) file.
public struct PublisherRecord: Codable, Equatable, Sendable {
    /// The alternate enclosures the feed listed when the episode was archived (nil: none).
    public var alternates: [AlternateEnclosure]?
    /// The media type of the alternate enclosure archived instead of the enclosure; nil: the enclosure.
    public var chosen: String?
    /// The URL the file was fetched from when it is an alternate's source (kept redacted).
    public var source: String?
    /// The publisher's Subresource Integrity value for the file archived, as the feed wrote it.
    public var integrity: String?
    /// The file's digest (SRI form, `sha384-…`) when it did not match `integrity`: for an entry, the file was kept
    /// anyway (after several runs that all differed); for a failure, what the last run received.
    public var mismatch: String?
    /// For a failure: how many runs in a row received a file that did not match `integrity`.
    public var mismatches: Int?

    /// The record's keys in the index (see `ArchiveIndex.Entry.CodingKeys`).
    enum CodingKeys: String, CodingKey, CaseIterable {
        case alternates, chosen, source, integrity, mismatch, mismatches
    }

    /// A record of what the publisher said.
    public init(
        alternates: [AlternateEnclosure]? = nil, chosen: String? = nil, source: String? = nil,
        integrity: String? = nil, mismatch: String? = nil, mismatches: Int? = nil
    ) {
        self.alternates = alternates
        self.chosen = chosen
        self.source = source
        self.integrity = integrity
        self.mismatch = mismatch
        self.mismatches = mismatches
    }

    /// True when the record says nothing (it is then left out of the index).
    var isEmpty: Bool { self == PublisherRecord() }

}

/// A record kept with an index entry as one JSON object (`PublisherRecord`, `AwayRecord`): rare and small, so
/// JSONEncoder writes it with sorted keys, and the hand reader of the index hands its bytes to JSONDecoder.
protocol EntryRecord: Codable {}

extension EntryRecord {
    /// The record as one JSON object.
    var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// The record in `value` (null gives nil), as the hand reader of the index found its bytes.
    /// - Throws: a `DecodingError` when it is not a record (the hand reader then gives up, see `IndexFormat`).
    static func decode(_ value: Data) throws -> Self? {
        value == Data("null".utf8) ? nil : try JSONDecoder().decode(Self.self, from: value)
    }
}

extension PublisherRecord: EntryRecord {}
