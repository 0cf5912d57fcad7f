// iTunes-style tags for a tagged copy of an MP4/M4A (`export --library`): `moov/udta/meta/ilst` with ©nam, ©alb,
// ©ART, aART, ©day, desc and covr (JPEG or PNG only: the types the atom takes), and the chapters as a Nero `chpl`
// atom (read by ffmpeg and mutagen). The copy is the archived file with its `moov` replaced: its old `udta` left
// out, the new one added, and every chunk offset (stco, co64) that points past the `moov` moved by what it grew, so
// the audio stays where its tables say whether `moov` comes before `mdat` (fast start) or after.
import Foundation

enum MP4Tag {
    /// The most bytes of a `moov` read (its tables: about 100 kB an hour of audio).
    static let moovLimit = 64 << 20
    /// The most bytes of a description kept (`desc` is read as a short text).
    static let descriptionLimit = 255

    /// Where a file's `moov` is, from its top-level atoms: its offset and size; nil when it is no MP4 this can tag
    /// (no `ftyp` first, no `moov` or more than one, one too large, or atoms that run past the end).
    static func moov(in path: String, size: Int64, copier: LibraryCopier) -> (offset: Int64, size: Int64)? {
        var offset: Int64 = 0
        var found: (Int64, Int64)?
        while offset + 8 <= size {
            guard let header = try? copier.bytes(of: path, at: offset, count: 16), header.count >= 8 else { return nil }
            var length = Int64(header[0..<4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
            let type = String(decoding: header[4..<8], as: UTF8.self)
            if length == 1, header.count == 16 {
                length = Int64(bitPattern: header[8..<16].reduce(0) { $0 << 8 | UInt64($1) })
            }
            if length == 0 { length = size - offset }
            guard length >= 8, offset + length <= size, offset > 0 || type == "ftyp" else { return nil }
            if type == "moov" {
                guard found == nil, length <= moovLimit else { return nil }
                found = (offset, length)
            }
            offset += length
        }
        return found
    }

    /// The pieces of the tagged copy: the file before `moov`, the new `moov`, the file after it; nil when the old
    /// `moov` cannot be read as one or an offset would not fit.
    static func pieces(
        for tags: EpisodeTags, path: String, moov: (offset: Int64, size: Int64), copier: LibraryCopier
    ) -> [CopyPiece]? {
        guard let old = try? copier.bytes(of: path, at: moov.offset, count: Int(moov.size)), old.count == moov.size,
            var new = rewritten(old, userData: userData(for: tags))
        else { return nil }
        let delta = Int64(new.count) - moov.size
        guard shiftOffsets(in: &new, range: 8..<new.count, after: moov.offset + moov.size, by: delta) else {
            return nil
        }
        return [.source(from: 0, to: moov.offset), .bytes(new), .source(from: moov.offset + moov.size, to: nil)]
    }

    /// How long the movie plays, in milliseconds, from `moov`'s `mvhd` (its duration over its time scale).
    static func duration(_ moov: [UInt8]) -> UInt32? {
        var offset = 8
        while offset + 8 <= moov.count {
            let length = readSize(moov, offset)
            guard length >= 8, offset + length <= moov.count else { return nil }
            if String(decoding: moov[(offset + 4)..<(offset + 8)], as: UTF8.self) == "mvhd", length >= 32 {
                let long = moov[offset + 8] == 1
                let scaleAt = offset + (long ? 28 : 20)
                guard scaleAt + (long ? 12 : 8) <= offset + length else { return nil }
                let scale = readSize(moov, scaleAt)
                let duration = moov[(scaleAt + 4)..<(scaleAt + (long ? 12 : 8))].reduce(UInt64(0)) {
                    $0 << 8 | UInt64($1)
                }
                guard scale > 0 else { return nil }
                return UInt32(clamping: duration * 1000 / UInt64(scale))
            }
            offset += length
        }
        return nil
    }

    /// `moov` with its `udta` children left out and `userData` added at its end (a 32-bit size).
    static func rewritten(_ moov: [UInt8], userData: [UInt8]) -> [UInt8]? {
        let start = readSize(moov, 0) == 1 ? 16 : 8
        var body: [UInt8] = []
        var offset = start
        while offset + 8 <= moov.count {
            var length = readSize(moov, offset)
            if length == 1 { return nil }
            if length == 0 { length = moov.count - offset }
            guard length >= 8, offset + length <= moov.count else { return nil }
            if String(decoding: moov[(offset + 4)..<(offset + 8)], as: UTF8.self) != "udta" {
                body += moov[offset..<(offset + length)]
            }
            offset += length
        }
        return atom("moov", body + userData)
    }

    /// Adds `delta` to each chunk offset in the stco and co64 atoms under `range` of `bytes` that is at or past
    /// `end`; false when one would not fit.
    static func shiftOffsets(in bytes: inout [UInt8], range: Range<Int>, after end: Int64, by delta: Int64) -> Bool {
        var offset = range.lowerBound
        while offset + 8 <= range.upperBound {
            let length = readSize(bytes, offset)
            guard length >= 8, offset + length <= range.upperBound else { return true }
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if ["trak", "mdia", "minf", "stbl"].contains(type) {
                guard shiftOffsets(in: &bytes, range: (offset + 8)..<(offset + length), after: end, by: delta) else {
                    return false
                }
            } else if type == "stco" || type == "co64", length >= 16 {
                let width = type == "stco" ? 4 : 8
                let count = readSize(bytes, offset + 12)
                guard 16 + count * width <= length else { return true }
                for entry in 0..<count {
                    let at = offset + 16 + entry * width
                    let value = bytes[at..<(at + width)].reduce(Int64(0)) { $0 << 8 | Int64($1) }
                    guard value >= end else { continue }
                    let moved = value + delta
                    guard moved >= 0, width == 8 || moved <= Int64(UInt32.max) else { return false }
                    for byte in 0..<width { bytes[at + byte] = UInt8((moved >> (8 * (width - 1 - byte))) & 0xFF) }
                }
            }
            offset += length
        }
        return true
    }

    /// `udta` holding `meta` (its `hdlr` saying `mdir`, its `ilst`) and, when there are chapters, `chpl`.
    static func userData(for tags: EpisodeTags) -> [UInt8] {
        var items: [UInt8] = []
        func text(_ type: [UInt8], _ value: String?) {
            guard let value, !value.isEmpty else { return }
            items += atom(type, data(1, Array(value.utf8)))
        }
        text([0xA9] + Array("nam".utf8), tags.title)
        text([0xA9] + Array("alb".utf8), tags.show)
        text([0xA9] + Array("ART".utf8), tags.author)
        text(Array("aART".utf8), tags.show)
        text([0xA9] + Array("day".utf8), tags.date)
        text(Array("desc".utf8), tags.description.map { ID3Tag.cut($0, toBytes: descriptionLimit) })
        if let cover = tags.cover {
            items += atom(Array("covr".utf8), data(cover.mimeType == "image/png" ? 14 : 13, cover.bytes))
        }
        let handler = atom("hdlr", [0, 0, 0, 0, 0, 0, 0, 0] + Array("mdirappl".utf8) + [UInt8](repeating: 0, count: 9))
        var children = atom("meta", [0, 0, 0, 0] + handler + atom("ilst", items))
        if !tags.chapters.isEmpty {
            var body: [UInt8] = [1, 0, 0, 0, 0, 0, 0, 0, UInt8(min(tags.chapters.count, 255))]
            for chapter in tags.chapters.prefix(255) {
                let start = UInt64(chapter.startMilliseconds) * 10_000  // in units of 100 ns
                body += (0..<8).map { UInt8((start >> (8 * (7 - $0))) & 0xFF) }
                let title = Array(ID3Tag.cut(chapter.title, toBytes: 255).utf8)
                body += [UInt8(title.count)] + title
            }
            children += atom("chpl", body)
        }
        return atom("udta", children)
    }

    /// A `data` atom: its type (1 UTF-8, 13 JPEG, 14 PNG), no locale, the value.
    private static func data(_ type: UInt8, _ value: [UInt8]) -> [UInt8] {
        atom("data", [0, 0, 0, type, 0, 0, 0, 0] + value)
    }

    static func atom(_ type: String, _ body: [UInt8]) -> [UInt8] { atom(Array(type.utf8), body) }

    static func atom(_ type: [UInt8], _ body: [UInt8]) -> [UInt8] {
        ID3Tag.bigEndian(UInt32(8 + body.count)) + type + body
    }

    private static func readSize(_ bytes: [UInt8], _ offset: Int) -> Int {
        guard offset + 4 <= bytes.count else { return 0 }
        return bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
    }
}
