// What `export --library` tells: the plan before anything is written (what the copies will take), and the report
// after. Worded in `Presentation/`.
import Foundation

/// What a library export is about to write, said before the first byte.
public struct LibraryPlan: Equatable, Sendable {
    /// Files to write (tagged copies, copies, show art).
    public var files = 0
    /// The bytes they take.
    public var bytes: Int64 = 0
    /// The bytes free where the library is, when known.
    public var available: Int64?
}

/// What a library export wrote.
public struct LibraryReport: Equatable, Sendable {
    /// The library folder.
    public var folder: URL
    /// Its record of what it wrote (`.podarchive-library.json`).
    public var record: URL
    /// Shows exported.
    public var shows = 0
    /// Episodes written as tagged copies, as untagged copies, and those already as they should be.
    public var tagged = 0, copied = 0, unchanged = 0
    /// Show art files written (`folder.<ext>`, `cover.<ext>`).
    public var art = 0
    /// Files the library wrote before whose episode or show the archive no longer holds: removed.
    public var removed = 0
    /// Bytes written.
    public var bytes: Int64 = 0
    /// Episodes copied untagged, by extension, for want of a tag writer for their type.
    public var untaggedTypes: [String: Int] = [:]
    /// Episodes left out because their files are away on purpose (see `AwayRecord`), by state.
    public var away: [AwayRecord.State: Int] = [:]
    /// What a tag left out, one line each (`Show/file: …`): chapters clamped or refused, art of another type.
    public var notes: [String] = []

    /// An empty report for the library in `folder`.
    public init(folder: URL, record: URL) {
        self.folder = folder
        self.record = record
    }
}

/// Why a library export stopped.
public enum LibraryError: Error, Equatable, Sendable, LocalizedError {
    /// The copies need more space than the disk has.
    case noSpace(path: String, needed: Int64, available: Int64)
    /// The library's record cannot be read: nothing is written or removed.
    case damagedRecord(path: String)
    /// The library folder is the archive, or inside one of its shows or its state.
    case insideArchive(path: String)

    public var errorDescription: String? {
        switch self {
        case .noSpace(let path, let needed, let available):
            // In the units the command line says sizes in (powers of 1000), rounded up and down.
            return "the library \(path) needs \((needed + 999_999) / 1_000_000) MB for its copies and the disk has "
                + "\(available / 1_000_000) MB free; nothing was written"
        case .damagedRecord(let path):
            return "the library's record \(path) cannot be read; nothing was written or removed (move it away to "
                + "start the library again)"
        case .insideArchive(let path):
            return "the library \(path) would be written into the archive: name a folder outside it"
        }
    }
}
