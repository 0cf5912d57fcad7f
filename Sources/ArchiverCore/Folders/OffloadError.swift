// Why an offload could not begin: said in one line naming the value, before anything moved.
import Foundation

/// A folder to offload into that cannot be used.
public enum OffloadError: Error, LocalizedError, Equatable {
    /// No folder is there (a disk not mounted, a typo).
    case noFolder(String)
    /// The folder is inside the archive: offloaded files would still be in it, and a show's folder could take them.
    case insideArchive(String, root: String)

    public var errorDescription: String? {
        switch self {
        case .noFolder(let path): "no folder to offload into at \(path) (is its disk mounted?)"
        case .insideArchive(let path, let root):
            "\(path) is inside the archive \(root): offload into a folder outside it"
        }
    }
}
