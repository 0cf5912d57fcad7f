// An ID3v2.4 tag for a tagged copy of an MP3 (`export --library`), built as bytes from what the archive knows of
// an episode: text frames in UTF-8 (encoding 3), a comment, a cover (APIC) and the chapters as CHAP frames under
// one ordered CTOC. Sizes are syncsafe, as v2.4 asks. Also where an MP3's own tags end, so the copy replaces them.
import Foundation

/// What a tag says of one episode; every text already through the redaction rule (`LibraryTags`).
struct EpisodeTags: Equatable, Sendable {
    var title: String?
    /// The show, written as the album and the album's artist (where the format has one).
    var show: String?
    /// The show's author, written as the artist.
    var author: String?
    /// `2024-05-01` or a longer RFC 3339 date.
    var date: String?
    var episode: Int?
    var season: Int?
    var description: String?
    var cover: Cover?
    var chapters: [LibraryChapter] = []
    /// The audio's length in milliseconds where known (the last chapter's end).
    var durationMilliseconds: UInt32?

    /// A picture and its type (`image/jpeg` or `image/png`: the types every tag format takes).
    struct Cover: Equatable, Sendable {
        var mimeType: String
        var bytes: [UInt8]
    }
}

/// One chapter as the tag writers take it: where it starts, in milliseconds, and its title.
struct LibraryChapter: Equatable, Sendable {
    var startMilliseconds: UInt32
    var title: String
}

enum ID3Tag {
    /// The most bytes of a description kept in the comment frame (a player shows a few lines).
    static let descriptionLimit = 4000

    /// The tag's bytes: header and frames, no padding.
    static func bytes(for tags: EpisodeTags) -> [UInt8] {
        var frames: [UInt8] = []
        func text(_ id: String, _ value: String?) {
            guard let value, !value.isEmpty else { return }
            frames += frame(id, [3] + Array(value.utf8))
        }
        text("TIT2", tags.title)
        text("TALB", tags.show)
        text("TPE1", tags.author)
        text("TPE2", tags.show)
        text("TDRC", tags.date)
        text("TRCK", tags.episode.map(String.init))
        text("TPOS", tags.season.map(String.init))
        if let description = tags.description, !description.isEmpty {
            let kept = cut(description, toBytes: descriptionLimit)
            // Encoding, language, an empty short description (ended by 0), the text.
            frames += frame("COMM", [3] + Array("und".utf8) + [0] + Array(kept.utf8))
        }
        if let cover = tags.cover {
            // Encoding, MIME type (Latin-1, ended by 0), picture type 3 (front cover), empty description, data.
            frames += frame("APIC", [3] + Array(cover.mimeType.utf8) + [0, 3, 0] + cover.bytes)
        }
        frames += chapterFrames(tags.chapters, duration: tags.durationMilliseconds)
        return Array("ID3".utf8) + [4, 0, 0] + syncsafe(UInt32(frames.count)) + frames
    }

    /// CHAP frames `ch0`, `ch1`, … each ending where the next starts (the last at `duration`, or one second on when
    /// it is unknown), and a CTOC naming them in order as the top level.
    static func chapterFrames(_ chapters: [LibraryChapter], duration: UInt32?) -> [UInt8] {
        guard !chapters.isEmpty else { return [] }
        var frames: [UInt8] = []
        var children: [UInt8] = []
        for (offset, chapter) in chapters.enumerated() {
            let id = Array("ch\(offset)".utf8)
            let next = offset + 1 < chapters.count ? chapters[offset + 1].startMilliseconds : nil
            let end = next ?? max(duration ?? 0, chapter.startMilliseconds &+ 1000)
            var body = id + [0] + bigEndian(chapter.startMilliseconds) + bigEndian(end)
            body += [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
            body += frame("TIT2", [3] + Array(chapter.title.utf8))
            frames += frame("CHAP", body)
            children += id + [0]
        }
        // Element ID, flags (top level, ordered), the entry count (at most 255: `LibraryChapters.limit`), children.
        let toc = Array("toc".utf8) + [0, 0x03, UInt8(min(chapters.count, 255))] + children
        return frame("CTOC", toc) + frames
    }

    /// `text`'s longest start of at most `bytes` bytes of UTF-8 that ends at a character.
    static func cut(_ text: String, toBytes bytes: Int) -> String {
        let utf8 = Array(text.utf8)
        guard utf8.count > bytes else { return text }
        var end = bytes
        while end > 0, utf8[end] & 0xC0 == 0x80 { end -= 1 }
        return String(decoding: utf8[..<end], as: UTF8.self)
    }

    /// One frame: its ID, its syncsafe size, no flags, its body.
    static func frame(_ id: String, _ body: [UInt8]) -> [UInt8] {
        Array(id.utf8) + syncsafe(UInt32(body.count)) + [0, 0] + body
    }

    /// `value` in 4 bytes of 7 bits each (at most 2^28 - 1).
    static func syncsafe(_ value: UInt32) -> [UInt8] {
        [UInt8((value >> 21) & 0x7F), UInt8((value >> 14) & 0x7F), UInt8((value >> 7) & 0x7F), UInt8(value & 0x7F)]
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    /// How many bytes the ID3v2 tags at the start of `prefix` take (their headers, frames, padding and footers;
    /// several tags one after another), 0 when it starts with none. A tag's size is its header's, whatever its
    /// flags (unsynchronisation does not change it); a footer adds 10 bytes.
    static func leadingTagsLength(_ prefix: [UInt8]) -> Int {
        var offset = 0
        while prefix.count >= offset + 10, prefix[offset] == 0x49, prefix[offset + 1] == 0x44,
            prefix[offset + 2] == 0x33,
            prefix[offset + 3] < 0xFF, prefix[offset + 4] < 0xFF,
            prefix[(offset + 6)..<(offset + 10)].allSatisfy({ $0 < 0x80 })
        {
            let size = prefix[(offset + 6)..<(offset + 10)].reduce(0) { $0 << 7 | Int($1) }
            let footer = prefix[offset + 3] >= 4 && prefix[offset + 5] & 0x10 != 0 ? 10 : 0
            offset += 10 + size + footer
        }
        return offset
    }
}
