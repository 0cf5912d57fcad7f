// `export --library DIR`: a folder for players and media servers made of tagged copies of the archive's episodes
// (see `LibraryPlanner`), never the archive's own bytes. Before anything is written the plan is said (what the
// copies take) and refused when the disk cannot hold it; the record (`LibraryRecord`) is saved naming what is
// about to be written, then each file is written whole (`LibraryCopier`), then the record again. A rerun writes only
// what changed and removes the files it wrote whose episode or show the archive no longer holds.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How a library export reads, writes and measures; the defaults are the live ones.
public struct LibraryOptions: Sendable {
    /// How archived files are read.
    public var reader: any ChunkedFileReading = POSIXChunkedFileReader()
    /// Whether to stop (asked before each chunk); by default, whether the running task was cancelled.
    public var cancelled: @Sendable () -> Bool = { Task.isCancelled }
    /// The bytes free on the file system of a folder (statvfs(2) by default), nil when unknown.
    public var available: @Sendable (URL) -> Int64? = LibraryExport.freeBytes

    /// The live options.
    public init() {}
}

/// `export --library`.
public struct LibraryExport: Sendable {
    let verifier: Verifier
    let indexes: IndexStore
    let files: any FileStore
    let attributes: any FileAttributes
    let writer: any AtomicFileWriting

    /// Writes the library of the shows in `shows` (every show of `root` when nil) into `library`, telling `plan`
    /// what it is about to write before the first byte.
    /// - Throws: `ArchiveError.noArchive` when `root` holds no show; the error of an index that cannot be read;
    ///   `LibraryError` (no space, a damaged record, a library inside the archive); `ExportError` when a file
    ///   cannot be read or written (what was written is whole and recorded).
    /// `url`'s path with every link resolved, as far as it exists (the library may not yet): the nearest existing
    /// folder resolved, and the names under it as given.
    static func resolving(_ url: URL) -> String {
        var existing = url.standardizedFileURL
        var rest: [String] = []
        while ExportTarget.resolved(existing.path) == nil, existing.pathComponents.count > 1 {
            rest.insert(existing.lastPathComponent, at: 0)
            existing.deleteLastPathComponent()
        }
        let base = ExportTarget.resolved(existing.path) ?? existing.path
        return rest.reduce(base) { $0 == "/" ? "/" + $1 : $0 + "/" + $1 }
    }

    func export(
        _ root: URL, shows: [URL]? = nil, into library: URL, options: LibraryOptions = LibraryOptions(),
        plan: (LibraryPlan) -> Void = { _ in }
    ) throws -> LibraryReport {
        let folders = try shows ?? verifier.feedFolders(in: root)
        let record = try LibraryRecord.load(in: library, files: files)
        var report = LibraryReport(
            folder: library, record: library.appendingPathComponent(LibraryRecord.fileName, isDirectory: false))
        let archiveShows = ExportTarget.showFolders(of: root, files: files, attributes: attributes) + folders
        let copier = LibraryCopier(reader: options.reader, cancelled: options.cancelled)
        let planner = LibraryPlanner(files: files, attributes: attributes, copier: copier)
        var items: [LibraryItem] = []
        for folder in folders {
            // Never into the archive: not its root's state, not a show's folder (links resolved).
            for place in [library, library.appendingPathComponent(folder.lastPathComponent, isDirectory: true)] {
                do {
                    try ExportTarget.check(
                        place.appendingPathComponent(".check", isDirectory: false), root: root, shows: archiveShows)
                } catch { throw LibraryError.insideArchive(path: library.path) }
            }
            // Nor anywhere under the root: a folder of copies there would sit among the shows, on the site's root.
            let (resolvedLibrary, resolvedRoot) = (Self.resolving(library), Self.resolving(root))
            if resolvedLibrary == resolvedRoot || resolvedLibrary.hasPrefix(resolvedRoot + "/") {
                throw LibraryError.insideArchive(path: library.path)
            }
            guard let index = try indexes.loadIndex(at: ShowState(folder: folder).index) else {
                throw ArchiveError.noArchive(at: folder, attributes: attributes)
            }
            items += planner.items(of: folder, index: index, library: library, record: record, report: &report)
            report.shows += 1
        }
        // Every show is this run's when none is named (a show gone from the archive too), else those named.
        let exported = Set(folders.map(\.lastPathComponent))
        let wanted = Set(items.map(\.path))
        let stale = record.files.filter {
            (shows == nil || exported.contains($0.value.show)) && !wanted.contains($0.key)
        }
        let pending = items.filter { !isUnchanged($0, record: record, library: library) }
        report.unchanged = items.count { $0.kind != .art } - pending.count { $0.kind != .art }
        var next = record
        if !pending.isEmpty {
            var announced = LibraryPlan(files: pending.count, bytes: pending.reduce(0) { $0 + $1.size })
            announced.available = options.available(Self.existing(library))
            plan(announced)
            if let available = announced.available, announced.bytes > available {
                throw LibraryError.noSpace(path: library.path, needed: announced.bytes, available: available)
            }
            try createFolder(library)
            // What is about to be written is the library's before its first byte: a killed run's files are its own.
            for item in pending {
                next.files[item.path] = LibraryRecord.Written(
                    show: item.show, source: item.sourceSHA256, tags: item.fingerprint, sha256: nil, size: nil)
            }
            try next.save(in: library, writer: writer)
        }
        // What a killed export left (its temporary files, named with their owner: only those of a process of this
        // host that has ended), in the library and each show's folder there; nothing else is the library's to touch.
        for place in [library]
            + Set(items.map(\.show)).sorted().map({ library.appendingPathComponent($0, isDirectory: true) })
        {
            let names = ((try? files.contentsOfDirectory(atPath: place.path)) ?? []).filter(
                TemporaryFiles.namesItsOwner)
            TemporaryFiles.sweep(names, in: place, files: files)
        }
        for item in pending {
            let target = library.appendingPathComponent(item.path, isDirectory: false)
            try createFolder(target.deletingLastPathComponent())
            let written = try write(item, to: target, copier: copier)
            next.files[item.path] = LibraryRecord.Written(
                show: item.show, source: item.sourceSHA256, tags: item.fingerprint, sha256: written.sha256,
                size: written.size)
            report.bytes += written.size
            report.notes += item.notes
            switch item.kind {
            case .tagged: report.tagged += 1
            case .copied:
                report.copied += 1
                let ext = (item.path as NSString).pathExtension.lowercased()
                report.untaggedTypes[ext.isEmpty ? "(none)" : ext, default: 0] += 1
            case .art: report.art += 1
            }
        }
        for (path, _) in stale.sorted(by: { $0.key < $1.key }) {
            let url = library.appendingPathComponent(path, isDirectory: false)
            // A file or a link, never a folder (whatever the user has since put there under that name).
            let type = attributes.typeAndSize(atPath: url.path)?.type
            if type == .typeRegular || type == .typeSymbolicLink, (try? files.removeItem(at: url)) != nil {
                report.removed += 1
            }
            next.files[path] = nil
        }
        if next != record {
            // The copies durable before the record says they are whole.
            if !pending.isEmpty { try LibraryCopier.syncFileSystem(of: library) }
            try next.save(in: library, writer: writer)
        }
        return report
    }

    /// Whether the library's file for `item` is as it should be: recorded whole from the same archived file and the
    /// same tag, and still of the recorded size.
    private func isUnchanged(_ item: LibraryItem, record: LibraryRecord, library: URL) -> Bool {
        guard let written = record.files[item.path], written.sha256 != nil, written.source == item.sourceSHA256,
            item.sourceSHA256 != nil, written.tags == item.fingerprint
        else { return false }
        let path = library.appendingPathComponent(item.path, isDirectory: false).path
        guard !attributes.isSymbolicLink(atPath: path), let found = attributes.typeAndSize(atPath: path) else {
            return false
        }
        return Int64(found.size) == written.size
    }

    private func write(_ item: LibraryItem, to target: URL, copier: LibraryCopier) throws -> WrittenFile {
        guard var tags = item.tags, let format = item.format else {
            return try copier.copy(source: item.source, to: target, sha256: item.sourceSHA256, size: item.sourceSize)
        }
        if let cover = item.coverPath {
            tags.cover = LibraryTags.picture(files.prefix(ofFileAtPath: cover, count: LibraryTags.coverLimit + 1))
        }
        switch format {
        case .id3:
            return try copier.write(head: ID3Tag.bytes(for: tags), source: item.source, skip: item.skip, to: target)
        case .mp4(let offset, let size):
            guard
                let pieces = MP4Tag.pieces(
                    for: tags, path: item.source, moov: (offset, size), copier: copier)
            else {
                throw ExportError.cannotRead(path: item.source, reason: "its moov atom changed or cannot be read")
            }
            return try copier.write(pieces, source: item.source, to: target)
        case .ogg:
            guard let headers = OggTag.headers(in: item.source, size: item.sourceSize, copier: copier) else {
                throw ExportError.cannotRead(path: item.source, reason: "its Ogg headers changed or cannot be read")
            }
            let comment = OggTag.commentPacket(tags, codec: headers.codec, vendor: headers.vendor)
            let pages = OggTag.paginate(
                [comment] + (headers.setup.map { [$0] } ?? []), serial: headers.serial, sequence: 1)
            let delta = Int64(1 + pages.count) - Int64(headers.headerPages)
            return try copier.write(
                [
                    .bytes(headers.firstPage + pages.joined()),
                    .oggPages(from: headers.audioOffset, serial: headers.serial, delta: delta),
                ],
                source: item.source, to: target)
        }
    }

    private func createFolder(_ folder: URL) throws {
        do {
            try files.createDirectory(at: folder, withIntermediateDirectories: true, attributes: nil)
        } catch {
            throw ExportError.cannotWrite(path: folder.path, reason: "\(error)")
        }
    }

    /// `folder`, or the nearest folder above it that exists.
    static func existing(_ folder: URL) -> URL {
        var place = folder
        while ExportTarget.resolved(place.path) == nil, place.path != "/" { place.deleteLastPathComponent() }
        return place
    }

    /// The bytes an unprivileged user may still write on the file system of `folder` (statvfs(2)).
    @Sendable public static func freeBytes(_ folder: URL) -> Int64? {
        var system = statvfs()
        guard statvfs(folder.path, &system) == 0 else { return nil }
        return Int64(system.f_bavail) * Int64(system.f_frsize)
    }
}
