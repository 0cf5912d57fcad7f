// `site --out DIR`: a folder the site owns. Nothing is written through a symbolic link inside it (a folder under
// DIR that is a link is refused, named); every file the site puts there is recorded (in the archive's own state
// folder, since DIR is served and its record would be too), so that what it published earlier and the archive no
// longer holds (a forgotten episode, a show gone) is removed, and nothing it did not write ever is.
import Foundation

/// What the site published into its folder, kept in `<root>/.podarchive/site-published.json`.
struct PublishedFiles: Codable, Equatable, Sendable {
    /// The folder they were published into (absolute path): a record of another folder is not this one's.
    var out: String
    /// Their paths in it (`Show/index.html`, `Show/Episode.mp3`).
    var files: [String]
}

/// Publishing into `out`, a folder of its own.
struct SitePublication {
    let out: URL
    /// `<root>/.podarchive/site-published.json`.
    let record: RecordFile<PublishedFiles>
    let files: any FileStore
    let attributes: any FileAttributes
    let mover: any FileMovement
    let records: ShowRecords

    /// What the record says the site published into `out`: nothing when it names another folder, or is missing.
    func recorded() -> Set<String> {
        guard let kept = record.load(files), kept.out == out.standardizedFileURL.path else {
            return []
        }
        return Set(kept.files)
    }

    /// Removes what the site published before (`recorded`) and no longer holds (`holds`): the record first names
    /// both, so a run stopped part-way never leaves a file of the site's unrecorded; then only `holds`.
    /// - Returns: the paths removed.
    /// - Throws: `ArchiveError.storage` when the record cannot be saved or a file cannot be removed.
    func removeStale(recorded: Set<String>, holds: Set<String>) throws -> [String] {
        let stale = recorded.subtracting(holds)
        let all = recorded.union(holds)
        if all != recorded { try save(all) }
        let removed = try remove(Array(stale))
        if all != holds { try save(holds) }
        return removed
    }

    private func save(_ paths: Set<String>) throws {
        let folder = record.url.deletingLastPathComponent()
        try FolderContents.createFolder(folder, with: files)
        // What a killed process left of an earlier save (see `TemporaryFiles`).
        let leftovers = ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []).filter {
            ArchiveLayout.isTemporary($0, of: record.url.lastPathComponent)
        }
        TemporaryFiles.sweep(leftovers, in: folder, files: files)
        try record.save(PublishedFiles(out: out.standardizedFileURL.path, files: paths.sorted()), records.writer)
    }

    /// The folder at `relative` in `out`, made (with those above it) if missing.
    /// - Throws: `ArchiveError.linkInSite` naming the first folder under `out` on the way that is a symbolic link
    ///   (nothing is written through one); `ArchiveError.cannotCreateFolder`.
    func folder(_ relative: String) throws -> URL {
        var url = out
        for part in relative.split(separator: "/") {
            url.appendPathComponent(String(part), isDirectory: true)
            try refuseLink(url)
            if !files.fileExists(atPath: url.path) { try FolderContents.createFolder(url, with: files) }
        }
        return url
    }

    private func refuseLink(_ url: URL) throws {
        guard attributes.isSymbolicLink(atPath: url.path) else { return }
        throw ArchiveError.linkInSite(path: url.path)
    }

    /// Publishes into `out/<show folder>` each archived file of `show` its pages name (episodes, companions,
    /// cover) that is not there yet: a hard link where the file system allows, else a symbolic link, else a copy.
    /// - Returns: the paths (in `out`) of the files it published now.
    func publishFiles(of show: SiteShow, into target: URL, report: inout SiteReport) throws -> [String] {
        var published: [String] = []
        for name in Self.archivedNames(of: show) {
            let source = show.folder.appendingPathComponent(name)
            let parent = (name as NSString).deletingLastPathComponent
            let folder = try self.folder(target.lastPathComponent + (parent.isEmpty ? "" : "/" + parent))
            let destination = folder.appendingPathComponent((name as NSString).lastPathComponent)
            guard attributes.typeAndSize(atPath: destination.path) == nil, files.fileExists(atPath: source.path)
            else { continue }
            if (try? mover.linkItem(at: source, to: destination)) != nil {
                report.linked += 1
            } else if (try? mover.createSymbolicLink(at: destination, withDestinationURL: source)) != nil {
                report.symlinked += 1
            } else {
                // A copy is whole before it has its name: made under a temporary one in `target` (which the next
                // site clears of what a killed one left), then renamed.
                let copy = target.appendingPathComponent(TemporaryFiles.name(for: destination.lastPathComponent))
                do {
                    try mover.copyItem(at: source, to: copy)
                    try mover.moveItem(at: copy, to: destination)
                } catch {
                    try? files.removeItem(at: copy)
                    throw ArchiveError.storage(error, path: destination.path)
                }
                report.copied += 1
            }
            published.append(target.lastPathComponent + "/" + name)
        }
        return published
    }

    /// The archived files of `show` its pages name, by their paths in its folder.
    static func archivedNames(of show: SiteShow) -> [String] {
        show.episodes.filter(\.entry.isHere).flatMap { [$0.entry.file] + ($0.entry.companions ?? []).map(\.file) }
            + (show.cover.map { [$0] } ?? [])
    }

    /// Whether the file at `relative` in `out` is there (a link not followed).
    func holds(_ relative: String) -> Bool {
        attributes.typeAndSize(atPath: out.appendingPathComponent(relative).path) != nil
    }

    /// Removes each of `stale` (paths in `out` the site published earlier): a file or link, never a folder, and
    /// never through a folder that is a link; then each folder they leave empty.
    /// - Returns: the paths removed (one already gone is not said again).
    /// - Throws: `ArchiveError.storage` when one cannot be removed; `ArchiveError.linkInSite` when a folder on its
    ///   way is a link.
    func remove(_ stale: [String]) throws -> [String] {
        var removed: [String] = []
        var emptied = Set<String>()
        for relative in stale.sorted() {
            let parts = relative.split(separator: "/", omittingEmptySubsequences: false)
            // A record names plain paths inside `out`; anything else is not the site's to touch.
            guard !parts.isEmpty, !parts.contains(where: { $0.isEmpty || $0 == "." || $0 == ".." }) else { continue }
            var folder = out
            for part in parts.dropLast() {
                folder.appendPathComponent(String(part), isDirectory: true)
                try refuseLink(folder)
            }
            let url = out.appendingPathComponent(relative)
            guard let found = attributes.typeAndSize(atPath: url.path), found.type != .typeDirectory else { continue }
            do {
                try files.removeItem(at: url)
            } catch {
                throw ArchiveError.storage(error, path: url.path)
            }
            removed.append(relative)
            var parent = parts.dropLast()
            while !parent.isEmpty {
                emptied.insert(parent.joined(separator: "/"))
                parent = parent.dropLast()
            }
        }
        // Deepest first; a folder that still holds anything (the user's own files too) stays.
        for relative in emptied.sorted(by: { $0.count > $1.count }) {
            let url = out.appendingPathComponent(relative, isDirectory: true)
            guard attributes.typeAndSize(atPath: url.path)?.type == .typeDirectory,
                (try? files.contentsOfDirectory(atPath: url.path))?.isEmpty == true
            else { continue }
            try? files.removeItem(at: url)
        }
        return removed
    }
}

extension ArchiveRoot {
    /// What `site --out` published into its folder: a hint (rewritten atomically), read again by the next publish.
    var sitePublished: RecordFile<PublishedFiles> { record(ArchiveLayout.sitePublishedFile, .hint) }
}
