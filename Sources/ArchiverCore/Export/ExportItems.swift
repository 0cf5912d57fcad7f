// What an export holds of one show, read from its index and folder (no network): each archived episode, its
// companions and sidecar, the show's cover and every revision of its feed's history, each with the URI it was
// fetched from (redacted as the archive keeps it) and when.
import Foundation

/// One record to write.
struct ExportItem: Sendable {
    /// What it is, for the report's counts.
    enum Kind: Sendable {
        case episode, companion, artwork, feed, metadata
    }

    /// Where its block comes from.
    enum Source: Sendable {
        /// An archived file, copied as it is.
        case file(String)
        /// A gzip file of the feed's history, expanded.
        case gzipped(String)
    }

    var kind: Kind
    var uri: String
    var date: String
    var contentType: String
    var source: Source
    /// Its size on disk (what progress counts).
    var size: Int64
}

/// The items of shows, in the order they are written.
struct ExportPlanner {
    let files: any FileStore
    let attributes: any FileAttributes
    let contents: FolderContents

    /// Everything of the show in `folder`, as its index `index` records it.
    func items(of folder: URL, index: ArchiveIndex) -> [ExportItem] {
        let show = folder.lastPathComponent
        var items: [ExportItem] = []
        // Joined as text: a URL made for each of 10,000 names was a fifth of an export's time.
        let folderPath = folder.path.hasSuffix("/") ? folder.path : folder.path + "/"
        func path(_ file: String) -> String { folderPath + file }
        func uri(_ url: String?, file: String) -> String {
            guard let url, Self.hasScheme(url) else { return WARCValues.localURI(show: show, file: file) }
            return WARCValues.targetURI(url)
        }
        // One listing of the folder says which sidecars are there (most episodes have none): no failed stat each.
        let names = Set((try? files.contentsOfDirectory(atPath: folder.path)) ?? [])
        // An episode away on purpose (offloaded, deleted, handed off) has no file here to export: counted by the
        // caller, said in the summary.
        for entry in index.episodes where entry.isHere {
            let episodeURI = uri(entry.url, file: entry.file)
            items.append(
                ExportItem(
                    kind: .episode, uri: episodeURI, date: entry.archived,
                    // The type the server sent, where the index recorded it; else the file's extension says.
                    contentType: entry.contentType.flatMap(ExportTypes.clean) ?? ExportTypes.type(of: entry.file),
                    source: .file(path(entry.file)), size: entry.size))
            let sidecar = ArchiveNames.sidecarName(for: entry.file)
            if sidecar.utf8.contains(UInt8(ascii: "/")) || names.contains(sidecar),
                let size = contents.fileSize(URL(fileURLWithPath: path(sidecar)))
            {
                items.append(
                    ExportItem(
                        kind: .metadata, uri: WARCValues.metadataURI(show: show, file: sidecar), date: entry.archived,
                        contentType: "application/json",
                        source: .file(path(sidecar)), size: size))
            }
            for companion in entry.companions ?? [] {
                items.append(
                    ExportItem(
                        kind: companion.kind == "artwork" ? .artwork : .companion,
                        uri: uri(companion.url, file: companion.file), date: entry.archived,
                        // What its server sent; the feed's declared type only where the index recorded none (a
                        // companion kept before it did, inline chapters), else the file's extension.
                        contentType: companion.contentType.flatMap(ExportTypes.clean)
                            ?? companion.type.flatMap(ExportTypes.clean) ?? ExportTypes.type(of: companion.file),
                        source: .file(path(companion.file)), size: companion.size))
            }
        }
        for cover in ArchiveLayout.coverNames where names.contains(cover) && !index.holds(file: cover) {
            let url = folder.appendingPathComponent(cover)
            let found = try? attributes.attributesOfItem(atPath: url.path)
            let date = (found?[.modificationDate] as? Date) ?? Date(timeIntervalSince1970: 0)
            items.append(
                ExportItem(
                    kind: .artwork, uri: uri(origin(of: url.path), file: cover), date: WARCValues.date(date),
                    // What its server sent, where the cover keeps it (`ArchiveNames.mediaTypeAttribute`).
                    contentType: attribute(ArchiveNames.mediaTypeAttribute, of: url.path).flatMap(ExportTypes.clean)
                        ?? ExportTypes.type(of: cover), source: .file(url.path),
                    size: (found?[.size] as? NSNumber)?.int64Value ?? 0))
        }
        let history = ShowState(folder: folder).history
        let revisions = ((try? files.contentsOfDirectory(atPath: history.path)) ?? []).filter {
            $0.hasSuffix(ArchiveLayout.revisionSuffix)
        }
        for name in revisions.sorted() {
            guard let date = Self.revisionDate(name) else { continue }
            let json = name.contains(".json")
            let url = history.appendingPathComponent(name)
            items.append(
                ExportItem(
                    kind: .feed, uri: uri(index.feed, file: json ? "feed.json" : "feed.xml"), date: date,
                    contentType: json ? "application/feed+json" : "application/xml", source: .gzipped(url.path),
                    size: contents.fileSize(url) ?? 0))
        }
        return items
    }

    /// Whether `url` holds `://` (by bytes; Foundation's `contains` goes through NSString).
    static func hasScheme(_ url: String) -> Bool {
        var run = 0
        for byte in url.utf8 {
            switch (run, byte) {
            case (0, UInt8(ascii: ":")): run = 1
            case (1, UInt8(ascii: "/")): run = 2
            case (2, UInt8(ascii: "/")): return true
            default: run = byte == UInt8(ascii: ":") ? 1 : 0
            }
        }
        return false
    }

    /// `2025-01-31T18:00:00Z` from a revision's name (`2025-01-31T18-00-00Z.xml.gz`, `…Z_002.xml.gz`).
    static func revisionDate(_ name: String) -> String? {
        let stamp = String(name.prefix { $0 != "." && $0 != "_" })
        guard stamp.count == 20, stamp.hasSuffix("Z") else { return nil }
        var characters = Array(stamp)
        characters[13] = ":"
        characters[16] = ":"
        let date = String(characters)
        return FeedDate.parseRFC3339(date) == nil ? nil : date
    }

    /// The URL a file was fetched from, as kept in its `user.xdg.origin.url` (the show's cover), if any.
    func origin(of path: String) -> String? {
        attribute(ArchiveNames.originAttribute, of: path)
    }

    /// The extended attribute `name` of the file at `path`, as text, if it has one.
    func attribute(_ name: String, of path: String) -> String? {
        let found = try? attributes.attributesOfItem(atPath: path)
        let extended = found?[FolderContents.extendedAttributesKey] as? [String: Data]
        return extended?[name].map { String(decoding: $0, as: UTF8.self) }
    }
}

/// The `Content-Type` of an archived file, from its extension (the archive keeps no HTTP headers).
enum ExportTypes {
    private static let byExtension: [String: String] = [
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "m4b": "audio/mp4", "aac": "audio/aac", "ogg": "audio/ogg",
        "oga": "audio/ogg", "opus": "audio/opus", "flac": "audio/flac", "wav": "audio/wav", "weba": "audio/webm",
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "mkv": "video/x-matroska", "pdf": "application/pdf", "jpg": "image/jpeg", "jpeg": "image/jpeg",
        "png": "image/png", "webp": "image/webp", "gif": "image/gif", "srt": "application/x-subrip",
        "vtt": "text/vtt", "json": "application/json", "html": "text/html", "txt": "text/plain",
        "xml": "application/xml",
    ]

    static func type(of file: String) -> String {
        // The extension by bytes: after the last dot of the last path component, as `pathExtension` reads it.
        let utf8 = file.utf8
        let nameStart = utf8.lastIndex(of: UInt8(ascii: "/")).map { utf8.index(after: $0) } ?? utf8.startIndex
        guard let dot = utf8[nameStart...].lastIndex(of: UInt8(ascii: ".")), dot != nameStart else {
            return "application/octet-stream"
        }
        let suffix = String(decoding: utf8[utf8.index(after: dot)...], as: UTF8.self)
        return byExtension[suffix] ?? byExtension[suffix.lowercased()] ?? "application/octet-stream"
    }

    /// A declared type fit for a header (one line of printable ASCII), else nil.
    static func clean(_ type: String) -> String? {
        let trimmed = type.trimmingSpace(newlines: false)
        return !trimmed.isEmpty && trimmed.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F } ? trimmed : nil
    }
}
