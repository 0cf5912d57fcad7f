// What a tagged copy says of its episode, gathered from the archive alone (no network): the index's title and
// dates, the sidecar's description and numbers where `--metadata` kept one, the show's title and author (the index
// keeps both; the title stands for an author not kept), the episode's artwork or else the show's cover (JPEG or
// PNG only: the types every tag format takes), and the chapters kept as a companion. Every text comes through the
// one redaction rule (`TextSecrets`), as everything the archive shows.
import Foundation

struct LibraryTags {
    let files: any FileReading
    /// The show's cover, read once for all its episodes (`nil` until read).
    private let showCover = ShowCover()

    private final class ShowCover {
        var found: (picture: EpisodeTags.Cover?, path: String?, notes: [String])?
    }
    /// The most bytes of a picture put in a tag.
    static let coverLimit = 8 << 20
    /// The most bytes of a sidecar read.
    static let sidecarLimit = 4 << 20

    /// The sidecar's fields a tag takes.
    private struct Sidecar: Decodable {
        var description: String?
        var episode: Int?
        var season: Int?
    }

    /// The tags of `entry` of the show `index` in `folder`; `duration` ends the last chapter.
    /// - Returns: the tags, what was left out (one phrase each), and where its picture is.
    func tags(of entry: ArchiveIndex.Entry, index: ArchiveIndex, in folder: URL, duration: UInt32?)
        -> (EpisodeTags, [String], String?)
    {
        var notes: [String] = []
        var tags = EpisodeTags()
        tags.title = entry.title.map(Self.clean)
        tags.show = (index.title ?? folder.lastPathComponent).map(Self.clean)
        // Who makes the show, as the last sync that read it kept; an archive of an earlier version keeps no author
        // until then: the show stands for it, as players group by artist.
        tags.author = index.author.map(Self.clean).flatMap { $0.isEmpty ? nil : $0 } ?? tags.show
        tags.date = Self.day(entry.published ?? entry.archived)
        let sidecarPath = folder.appendingPathComponent(ArchiveNames.sidecarName(for: entry.file), isDirectory: false)
            .path
        if let data = files.prefix(ofFileAtPath: sidecarPath, count: Self.sidecarLimit + 1),
            data.count <= Self.sidecarLimit, let sidecar = try? JSONDecoder().decode(Sidecar.self, from: data)
        {
            tags.description = sidecar.description.map(Self.clean)
            tags.episode = sidecar.episode.flatMap { $0 >= 0 ? $0 : nil }
            tags.season = sidecar.season.flatMap { $0 >= 0 ? $0 : nil }
        }
        let companions = entry.companions ?? []
        let cover = cover(of: entry, in: folder)
        tags.cover = cover.picture
        notes += cover.notes
        if let chapters = companions.first(where: { $0.kind == "chapters" }) {
            let path = folder.appendingPathComponent(chapters.file, isDirectory: false).path
            var read = LibraryChapters.read(atPath: path, files: files, duration: duration)
            for index in read.chapters.indices { read.chapters[index].title = Self.clean(read.chapters[index].title) }
            tags.chapters = read.chapters
            notes += read.notes
        }
        tags.durationMilliseconds = duration
        return (tags, notes, cover.path)
    }

    /// The picture of `entry`: its own artwork, else the show's cover, the first that is a JPEG or PNG (`picture`);
    /// where it is, and what was passed over.
    func cover(of entry: ArchiveIndex.Entry, in folder: URL) -> (
        picture: EpisodeTags.Cover?, path: String?, notes: [String]
    ) {
        var notes: [String] = []
        for name in (entry.companions ?? []).filter({ $0.kind == "artwork" }).map(\.file) {
            let path = folder.appendingPathComponent(name, isDirectory: false).path
            guard files.fileExists(atPath: path) else { continue }
            if let picture = Self.picture(files.prefix(ofFileAtPath: path, count: Self.coverLimit + 1)) {
                return (picture, path, notes)
            }
            notes.append("the artwork \(name) is not a JPEG or PNG of at most 8 MB: left out")
        }
        if showCover.found == nil {
            showCover.found = (nil, nil, [])
            for name in ArchiveLayout.coverNames {
                let path = folder.appendingPathComponent(name, isDirectory: false).path
                guard files.fileExists(atPath: path) else { continue }
                if let picture = Self.picture(files.prefix(ofFileAtPath: path, count: Self.coverLimit + 1)) {
                    showCover.found = (picture, path, showCover.found?.notes ?? [])
                    break
                }
                showCover.found?.notes.append("the artwork \(name) is not a JPEG or PNG of at most 8 MB: left out")
            }
        }
        let show = showCover.found ?? (nil, nil, [])
        return (show.picture, show.path, notes + show.notes)
    }

    /// A picture a tag may carry: JPEG or PNG by its first bytes, at most `coverLimit`.
    static func picture(_ data: Data?) -> EpisodeTags.Cover? {
        guard let data, data.count <= coverLimit else { return nil }
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return EpisodeTags.Cover(mimeType: "image/jpeg", bytes: bytes) }
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return EpisodeTags.Cover(mimeType: "image/png", bytes: bytes)
        }
        return nil
    }

    /// `2024-05-01` from an RFC 3339 date, or nil.
    static func day(_ date: String) -> String? {
        let day = String(date.prefix(10))
        let digits = day.utf8.enumerated().allSatisfy { offset, byte in
            offset == 4 || offset == 7 ? byte == UInt8(ascii: "-") : (byte >= 0x30 && byte <= 0x39)
        }
        return day.utf8.count == 10 && digits ? day : nil
    }

    /// Text as a tag may hold it: redacted, without control characters (a NUL would end an ID3 string).
    static func clean(_ text: String) -> String {
        let redacted = TextSecrets.redactingText(text)
        let kept = redacted.unicodeScalars.map { $0.value < 0x20 && $0 != "\n" ? " " : Character($0) }
        return String(kept).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
