// What a library holds of one show: its art as `folder.<ext>` and `cover.<ext>`, and one file per episode here,
// named date first (`2024-05-01 Title.mp3`, sanitized by `FileNamer`, ` (2)` where two take one name or a file the
// library did not write is in the way), each with the tag its format takes or none.
import Foundation

/// The tag formats the library writes.
enum TagFormat: Equatable {
    /// ID3v2.4 before an MP3's audio (see `ID3Tag`).
    case id3
    /// iTunes atoms in an MP4's `moov`, where it is (see `MP4Tag`).
    case mp4(moovOffset: Int64, moovSize: Int64)
    /// Vorbis comments in an Ogg Opus or Vorbis file's comment header (see `OggTag`).
    case ogg
}

/// One file of the library to have.
struct LibraryItem {
    enum Kind { case tagged, copied, art }

    var kind: Kind
    /// Its path in the library (`Show/2024-05-01 Title.mp3`).
    var path: String
    /// The show folder's name in the archive.
    var show: String
    /// The archived file, absolute.
    var source: String
    var sourceSHA256: String?
    var sourceSize: Int64
    /// How it is tagged, and with what (the cover read again when written, so a plan of 10,000 episodes holds no
    /// pictures); nil for a copy.
    var format: TagFormat?
    var tags: EpisodeTags?
    var coverPath: String?
    /// The SHA-256 of the tag's bytes (empty when untagged), and their count.
    var fingerprint = ""
    var headSize = 0
    /// Bytes of the archived file's own tags left out of the copy.
    var skip: Int64 = 0
    /// What its tag left out (`Show/file: …`), said when it is written.
    var notes: [String] = []

    /// The bytes the written file takes.
    var size: Int64 { Int64(headSize) + sourceSize - skip }
}

struct LibraryPlanner {
    let files: any FileStore
    let attributes: any FileAttributes
    let copier: LibraryCopier

    /// The items of the show in `folder` (its index `index`), each named in `library`; `record` says which names
    /// there are the library's own.
    func items(of folder: URL, index: ArchiveIndex, library: URL, record: LibraryRecord, report: inout LibraryReport)
        -> [LibraryItem]
    {
        let show = folder.lastPathComponent
        var items: [LibraryItem] = []
        var taken = Set<String>()
        /// A free name in the show's library folder: not taken by this plan, and not a file the library did not write.
        func allocate(stem: String, ext: String?) -> String {
            var counter = 1
            while true {
                let path = show + "/" + FileNamer.fileName(stem: stem, extension: ext, counter: counter)
                let ours = record.files[path] != nil
                let there =
                    files.fileExists(atPath: library.appendingPathComponent(path, isDirectory: false).path)
                    || attributes.isSymbolicLink(atPath: library.appendingPathComponent(path, isDirectory: false).path)
                if !taken.contains(path.lowercased()), ours || !there {
                    taken.insert(path.lowercased())
                    return path
                }
                counter += 1
            }
        }
        let names = Set((try? files.contentsOfDirectory(atPath: folder.path)) ?? [])
        if let cover = ArchiveLayout.coverNames.first(where: { names.contains($0) && !index.holds(file: $0) }) {
            let ext = (cover as NSString).pathExtension
            let source = folder.appendingPathComponent(cover, isDirectory: false).path
            let size = Int64(attributes.typeAndSize(atPath: source)?.size ?? 0)
            let sha = try? copier.hash(of: source)
            for stem in ["folder", "cover"] {
                items.append(
                    LibraryItem(
                        kind: .art, path: allocate(stem: stem, ext: ext), show: show, source: source,
                        sourceSHA256: sha, sourceSize: size))
            }
        }
        let gatherer = LibraryTags(files: files)
        var coverHashes: [String: String] = [:]
        for entry in index.episodes {
            guard entry.isHere else {
                if let away = entry.away { report.away[away.state, default: 0] += 1 }
                continue
            }
            let source = folder.appendingPathComponent(entry.file, isDirectory: false).path
            let ext = (entry.file as NSString).pathExtension.lowercased()
            let day = LibraryTags.day(entry.published ?? entry.archived)
            let title = entry.title.map(LibraryTags.clean) ?? ((entry.file as NSString).lastPathComponent)
            var stem = FileNamer.sanitize([day, title].compactMap { $0 }.joined(separator: " "))
            if stem.isEmpty { stem = "episode" }
            var item = LibraryItem(
                kind: .copied, path: allocate(stem: stem, ext: ext.isEmpty ? nil : ext), show: show, source: source,
                sourceSHA256: entry.sha256, sourceSize: entry.size)
            if let (format, duration, skip) = format(of: source, ext: ext, size: entry.size) {
                var (tags, notes, coverPath) = gatherer.tags(of: entry, index: index, in: folder, duration: duration)
                item.notes = notes.map { "\(show)/\(entry.file): \($0)" }
                // The tag without its picture, and the picture by its hash (a show's cover hashed once, not once
                // an episode): what the fingerprint is made of.
                let cover = tags.cover
                tags.cover = nil
                let bytes: [UInt8]
                switch format {
                case .id3: bytes = ID3Tag.bytes(for: tags)
                case .mp4: bytes = MP4Tag.userData(for: tags)
                case .ogg:
                    let headers = OggTag.headers(in: source, size: entry.size, copier: copier)
                    bytes = headers.map { OggTag.commentPacket(tags, codec: $0.codec, vendor: $0.vendor) } ?? []
                }
                var pictureHash = ""
                if let cover, let coverPath {
                    pictureHash = coverHashes[coverPath] ?? LibraryCopier.sha256(cover.bytes)
                    coverHashes[coverPath] = pictureHash
                }
                item.kind = .tagged
                item.format = format
                item.fingerprint = LibraryCopier.sha256(bytes) + (pictureHash.isEmpty ? "" : "+" + pictureHash)
                // About what the picture adds (Ogg's base64 a third more): the plan's size, not the file's.
                item.headSize = bytes.count + (cover.map { $0.bytes.count * (format == .ogg ? 4 : 3) / 3 + 64 } ?? 0)
                item.skip = skip
                item.coverPath = cover == nil ? nil : coverPath
                item.tags = tags
            }
            items.append(item)
        }
        return items
    }

    /// How the archived file at `source` is tagged: its format, how long it plays where that is known, and the
    /// bytes of its own tags a copy leaves out; nil for a file copied as it is.
    private func format(of source: String, ext: String, size: Int64) -> (TagFormat, UInt32?, Int64)? {
        switch ext {
        case "mp3":
            guard let head = try? copier.head(of: source, count: 64 << 10) else { return nil }
            var skip = ID3Tag.leadingTagsLength(head)
            if Int64(skip) >= size { skip = 0 }
            // The first frame, after tags longer than what was read (a large picture in them) read again.
            let after = skip + 4096 <= head.count ? head : (try? copier.head(of: source, count: skip + 4096)) ?? []
            let duration = MPEGDuration.milliseconds(head: Array(after.dropFirst(skip)), audioBytes: size - Int64(skip))
            return (.id3, duration, Int64(skip))
        case "m4a", "m4b", "mp4", "m4v":
            // A moov this can rewrite, else the file is copied as it is.
            guard let moov = MP4Tag.moov(in: source, size: size, copier: copier),
                let bytes = try? copier.bytes(of: source, at: moov.offset, count: Int(moov.size)),
                MP4Tag.rewritten(bytes, userData: []) != nil
            else { return nil }
            return (.mp4(moovOffset: moov.offset, moovSize: moov.size), MP4Tag.duration(bytes), 0)
        case "ogg", "oga", "opus":
            guard let headers = OggTag.headers(in: source, size: size, copier: copier) else { return nil }
            return (.ogg, OggTag.duration(of: source, size: size, headers: headers, copier: copier), 0)
        default: return nil
        }
    }
}
