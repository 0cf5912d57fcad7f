// A folder to publish the site into that would serve the archive's own files: refused before anything is saved
// or written.
import Foundation

/// The folder to publish the site into is the archive or inside it: a server would serve the archive's own files.
public struct SiteOutInsideArchive: Error, Equatable, Sendable, LocalizedError {
    /// The folder given.
    public var out: String
    /// The archive.
    public var root: String

    /// One line, naming both.
    public var errorDescription: String? {
        "\(out) is inside the archive \(root): name a folder outside it, which a server can serve without the "
            + "archive's own files"
    }
}
