// What is in a show's folder, and the small changes podarchive makes to files there: dates, origin, the hidden
// files of downloads, a damaged file set aside for a repair.
import Foundation

/// What is in a show's folder, and the small changes podarchive makes to files there.
struct FolderContents: Sendable {
    let files: any FileStore
    let attributes: any FileAttributes
    let mover: any FileMovement

    /// Creates the folder at `url` with `files`, and those it is in, as needed.
    /// - Throws: `ArchiveError.cannotCreateFolder`, naming the folder and why.
    static func createFolder(_ url: URL, with files: any DirectoryCreation) throws {
        do {
            try files.createDirectory(at: url, withIntermediateDirectories: true, attributes: nil)
        } catch {
            throw ArchiveError.cannotCreateFolder(path: url.path, reason: ArchiveError.describe(error))
        }
    }

    /// The file `name` (a path in the show's `folder`) as a deletion may remove it: a regular file or a link
    /// (removed itself), inside the folder and outside its state folder, reached through folders only (never
    /// through a link that would lead the deletion elsewhere); nil for anything else, or nothing there. The one rule
    /// of every deletion a record names (a forget's, an offload's): a record is a file others may write.
    static func removable(_ name: String, in folder: URL, attributes: any FileAttributes) -> URL? {
        guard IndexFormat.isInside(name) else { return nil }
        var parent = folder
        for part in name.split(separator: "/").dropLast() {
            parent.appendPathComponent(String(part), isDirectory: true)
            guard attributes.typeAndSize(atPath: parent.path)?.type == .typeDirectory else { return nil }
        }
        let url = folder.appendingPathComponent(name, isDirectory: false)
        guard let type = attributes.typeAndSize(atPath: url.path)?.type,
            type == .typeRegular || type == .typeSymbolicLink
        else { return nil }
        return url
    }

    // MARK: - Files in the folder

    /// The modification date (and, where the OS allows, the creation date) becomes the publication date.
    func setDates(of file: URL, to published: Date?) {
        guard let published else { return }
        // Linux cannot set a birth time: FileManager ignores the creation date there and sets the modification date.
        try? attributes.setAttributes(
            [.modificationDate: published, .creationDate: published], ofItemAtPath: file.path)
    }

    /// Records where the file came from in `user.xdg.origin.url`, as `curl --xattr` and `wget --xattr` do, where
    /// the file system keeps extended attributes. A separate call, so a file system without them costs nothing else.
    func setOrigin(of file: URL, to url: String) {
        try? attributes.setAttributes(
            [Self.extendedAttributesKey: [ArchiveNames.originAttribute: Data(URLSecrets.redacted(url).utf8)]],
            ofItemAtPath: file.path)
    }

    /// Keeps the `Content-Type` `file`'s server sent (`ArchiveNames.mediaTypeAttribute`), when it sent one: best
    /// effort, as the origin (a file system without extended attributes keeps none, and the export falls back to
    /// the file's extension).
    func setMediaType(of file: URL, to type: String?) {
        guard let type, !type.isEmpty else { return }
        try? attributes.setAttributes(
            [Self.extendedAttributesKey: [ArchiveNames.mediaTypeAttribute: Data(type.utf8)]], ofItemAtPath: file.path)
    }

    /// FileManager's (undocumented, but stable on Linux and macOS) key for extended attributes.
    static let extendedAttributesKey = FileAttributeKey("NSFileExtendedAttributes")

    /// The downloads of the show in `folder` that left bytes: how many the next run resumes (their records name
    /// a validator, see `ShowRecords.resumableDownloads`) and how many it starts `again`.
    func partialDownloads(in folder: URL, records: ShowRecords) -> (resuming: Int, again: Int) {
        let state = ShowState(folder: folder)
        let bodies = ((try? files.contentsOfDirectory(atPath: state.stateFolder.path)) ?? []).filter {
            PartialFiles.isBody($0) && (fileSize(state.listed($0)) ?? 0) > 0
        }
        let resumable = records.resumableDownloads(of: state)
        let resuming = bodies.count(where: resumable.contains)
        return (resuming, bodies.count - resuming)
    }

    /// Moves a damaged file into the state folder for the rename that replaces it (see `FeedFolders.restoreSetAside`).
    func setAside(_ file: String, in show: FeedFolder) throws -> URL? {
        let source = show.folder.appendingPathComponent(file)
        guard files.fileExists(atPath: source.path) else { return nil }
        let aside = show.state.listed(ArchiveNames.aside(for: file))
        try? files.removeItem(at: aside)
        do {
            try mover.moveItem(at: source, to: aside)
        } catch {
            throw ArchiveError.storage(error, path: source.path)
        }
        return aside
    }

    /// The size of the file at `url`; nil when there is none.
    func fileSize(_ url: URL) -> Int64? { attributes.size(of: url, in: files) }

    // MARK: - What the folder holds

    /// The first name `newFile` gives, when a file of that name exists and the index does not list it.
    func unindexedFile(_ newFile: NewFileName, in show: FeedFolder) -> String? {
        let name = newFile.first
        // The site's files and the feed's artwork (feed.xml, cover.png) are podarchive's own, never an episode's.
        guard !show.index.holds(file: name), !ArchiveLayout.isReservedInShow(name),
            files.fileExists(atPath: show.folder.appendingPathComponent(name, isDirectory: false).path)
        else { return nil }
        return name
    }

    /// The names of the files in the feed folder, and in those of its subfolders (`--name` templates with `/`)
    /// where the index records files: one directory listing each, never a look-up per episode. With `sweeping` (the
    /// show's lock held, by a command that writes), the temporary files a killed process left in the feed folder
    /// (0.1.0 wrote its sidecars and pages beside the episodes) are removed from it first, as those of its state
    /// folder are (see `FeedFolders.removeLeftoverTemporaries`): the listing serves both.
    func presentFiles(in folder: URL, index: ArchiveIndex, sweeping: Bool = false) -> Set<String> {
        var listed = (try? files.contentsOfDirectory(atPath: folder.path)) ?? []
        if sweeping, listed.contains(where: ArchiveLayout.isTemporary) {
            let removed = Set(
                TemporaryFiles.sweep(listed.filter(ArchiveLayout.isTemporary), in: folder, files: files) {
                    !ArchiveLayout.isWrittenWithoutShowLock($0)
                })
            listed.removeAll { removed.contains($0) }
        }
        var present = Set(listed)
        var subfolders = Set<Substring>()
        for entry in index.episodes {
            if let slash = entry.file.lastIndex(of: "/") { subfolders.insert(entry.file[..<slash]) }
        }
        for subfolder in subfolders {
            let names = (try? files.contentsOfDirectory(atPath: folder.appendingPathComponent(String(subfolder)).path))
            for name in names ?? [] { present.insert(subfolder + "/" + name) }
        }
        return present
    }

    /// Bytes held by the partial downloads of `state`.
    func partialBytes(of state: ShowState) -> Int64 {
        let names = (try? files.contentsOfDirectory(atPath: state.stateFolder.path)) ?? []
        return names.filter(PartialFiles.isBody).reduce(Int64(0)) { $0 + (fileSize(state.listed($1)) ?? 0) }
    }
}
