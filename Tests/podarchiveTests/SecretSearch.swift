import Foundation

// Looking for secrets in a tree of files: their contents and their extended attributes, as anyone who can read
// the tree (a static server, a copy of the archive) would.
@testable import ArchiverCore

enum SecretSearch {
    /// The paths of the files under `folder` whose contents (decompressed, for gzip) or extended attributes hold any
    /// of `secrets`.
    static func files(under folder: URL, holding secrets: [String]) throws -> [String] {
        var holders: [String] = []
        for path in try allFiles(under: folder) {
            var data = (FileManager.default.contents(atPath: path) ?? Data()) + extendedAttributes(of: path)
            // A history revision is gzip: what it says is what a reader of it sees.
            if path.hasSuffix(".gz"), let plain = try? Gzip.decompress(data) { data += plain }
            let text = String(decoding: data, as: UTF8.self)
            if secrets.contains(where: text.contains) { holders.append(path) }
        }
        return holders
    }

    /// Every regular file under `folder` (links not followed), by absolute path.
    static func allFiles(under folder: URL) throws -> [String] {
        var paths: [String] = []
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let relative = enumerator?.nextObject() as? String {
            let path = folder.appendingPathComponent(relative).path
            let type = (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            if type == .typeRegular { paths.append(path) }
        }
        return paths.sorted()
    }

    /// The names and values of the file's extended attributes, run together (FileManager reads them on Linux
    /// and macOS through the key podarchive writes them with).
    static func extendedAttributes(of path: String) -> Data {
        let key = FileAttributeKey("NSFileExtendedAttributes")
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path))?[key] as? [String: Data] ?? [:]
        return attributes.reduce(into: Data()) { $0 += Data($1.key.utf8) + $1.value }
    }
}
