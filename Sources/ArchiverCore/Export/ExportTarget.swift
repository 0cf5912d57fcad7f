// Where an export may be written: anywhere the user names but the archive's own state and shows. The file is
// written by renaming a temporary one made beside it, so what counts is the folder it lands in with every link
// resolved (the name itself may not exist yet) and, when the name exists and is a link, where that link leads: a
// target inside the root's `.podarchive`, or inside any show folder of the root (its `.podarchive` and its
// archived files), is refused before anything is written or swept there.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

enum ExportTarget {
    /// Throws when `file` would be written inside `root`'s state folder or one of its show folders.
    /// - Parameters:
    ///   - shows: the root's show folders (each folder directly under it that holds a `.podarchive`, or the root
    ///     itself when it is a show).
    /// - Throws: `ExportError.insideArchiveState` or `ExportError.insideShow`.
    static func check(_ file: URL, root: URL, shows: [URL]) throws {
        let places = Self.places(of: file)
        let state = ArchiveRoot(root).stateFolder
        for place in places where Self.resolved(state.path).map({ Self.isInside(place, $0) }) == true {
            throw ExportError.insideArchiveState(path: file.path, folder: state.path)
        }
        for show in shows {
            guard let folder = Self.resolved(show.path) else { continue }
            if places.contains(where: { Self.isInside($0, folder) }) {
                throw ExportError.insideShow(path: file.path, show: show.path)
            }
        }
    }

    /// The root's show folders: every folder directly under `root` (not hidden) holding a `.podarchive`, whether
    /// or not its index can be read, and `root` itself when it is one.
    static func showFolders(of root: URL, files: any FileStore, attributes: any FileAttributes) -> [URL] {
        func holdsState(_ folder: URL) -> Bool {
            let state = ShowState(folder: folder).stateFolder.path
            return files.fileExists(atPath: state) || attributes.isSymbolicLink(atPath: state)
        }
        if ShowState(folder: root).isShow(files) { return [root] }
        let names = ((try? files.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }
        return names.map { root.appendingPathComponent($0, isDirectory: true) }.filter(holdsState)
    }

    /// Where writing `file` puts bytes: its folder, links resolved, with its name; and where the name leads when
    /// it is an existing link (never written through, since the export is renamed over it, but a name that leads
    /// into the archive is a mistake worth stopping).
    private static func places(of file: URL) -> [String] {
        let folder = file.deletingLastPathComponent().path
        let name = file.lastPathComponent
        var places = [(resolved(folder) ?? folder) + "/" + name]
        if let target = resolved(file.path) { places.append(target) }
        return places
    }

    /// `path` with every link resolved (realpath(3)), or nil when it does not exist.
    static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// Whether `path` is `folder` or inside it.
    private static func isInside(_ path: String, _ folder: String) -> Bool {
        path == folder || path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}
