// Vorbis comments for a tagged copy of an Ogg Opus or Ogg Vorbis file (`export --library`): the comment header
// packet (`OpusTags`, or Vorbis's type 3) replaced by one holding TITLE, ALBUM, ARTIST, ALBUMARTIST, DATE,
// TRACKNUMBER, DISCNUMBER, DESCRIPTION, the chapters as CHAPTERnnn/CHAPTERnnnNAME (read by ffmpeg) and the cover as
// METADATA_BLOCK_PICTURE, the publisher's vendor string kept. The header pages are laid out again; every later
// page of the stream is copied with its sequence number moved by the pages gained or lost and its CRC made again.
import Foundation

enum OggTag {
    /// The most bytes of header pages read (an old comment header may hold a large picture).
    static let headerLimit = 16 << 20

    enum Codec: Equatable { case opus, vorbis }

    /// What comes before the audio: the codec, the stream's serial number, the first page as it is, Vorbis's
    /// setup packet, the old comment packet's vendor string, where the audio's pages start and how many header
    /// pages there were.
    struct Headers: Equatable {
        var codec: Codec
        var serial: UInt32
        var firstPage: [UInt8]
        var vendor: [UInt8]
        var setup: [UInt8]?
        var audioOffset: Int64
        var headerPages: Int
    }

    /// The headers of the Ogg file at `path`, or nil when it is none this can tag: one stream, Opus or Vorbis, its
    /// header packets ending a page, within `headerLimit`.
    static func headers(in path: String, size: Int64, copier: LibraryCopier) -> Headers? {
        var offset: Int64 = 0
        var packets: [[UInt8]] = []
        var partial: [UInt8] = []
        var first: [UInt8] = []
        var serial: UInt32?
        var pages = 0
        while offset < min(size, Int64(headerLimit)) {
            guard let head = try? copier.bytes(of: path, at: offset, count: 27 + 255), head.count >= 27,
                let length = OggPage.pageLength(head), let raw = try? copier.bytes(of: path, at: offset, count: length),
                raw.count == length, let page = OggPage.parse(raw)
            else { return nil }
            if serial == nil { serial = page.serial }
            guard page.serial == serial else { return nil }
            if pages == 0 { first = raw }
            pages += 1
            offset += Int64(length)
            var start = 0
            for lace in page.lacing {
                partial += page.body[start..<(start + Int(lace))]
                start += Int(lace)
                if lace < 255 {
                    packets.append(partial)
                    partial = []
                }
            }
            guard let codec = codec(of: packets.first) else { return nil }
            let needed = codec == .opus ? 2 : 3
            if packets.count >= needed {
                // The header packets end a page: the audio starts on the next.
                guard packets.count == needed, partial.isEmpty, let vendor = vendor(of: packets[1], codec: codec)
                else { return nil }
                return Headers(
                    codec: codec, serial: page.serial, firstPage: first, vendor: vendor,
                    setup: codec == .vorbis ? packets[2] : nil, audioOffset: offset, headerPages: pages)
            }
        }
        return nil
    }

    private static func codec(of packet: [UInt8]?) -> Codec? {
        guard let packet else { return nil }
        if packet.starts(with: Array("OpusHead".utf8)) { return .opus }
        if packet.starts(with: [1] + Array("vorbis".utf8)) { return .vorbis }
        return nil
    }

    private static func vendor(of packet: [UInt8], codec: Codec) -> [UInt8]? {
        let magic = codec == .opus ? Array("OpusTags".utf8) : [3] + Array("vorbis".utf8)
        guard packet.starts(with: magic), packet.count >= magic.count + 4 else { return nil }
        let length = packet[magic.count..<(magic.count + 4)].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard magic.count + 4 + length <= packet.count else { return nil }
        return Array(packet[(magic.count + 4)..<(magic.count + 4 + length)])
    }

    /// How long the stream plays, in milliseconds: its last page's granule position over its rate (48 kHz for
    /// Opus, after its pre-skip; Vorbis's own rate).
    static func duration(of path: String, size: Int64, headers: Headers, copier: LibraryCopier) -> UInt32? {
        guard let first = OggPage.parse(headers.firstPage), first.body.count >= 16 else { return nil }
        let rate: UInt64 =
            headers.codec == .opus ? 48000 : UInt64(first.body[12..<16].reversed().reduce(0) { $0 << 8 | Int($1) })
        let skip: UInt64 = headers.codec == .opus ? UInt64(first.body[10]) | UInt64(first.body[11]) << 8 : 0
        let start = max(0, size - 65307)
        guard rate > 0, let tail = try? copier.bytes(of: path, at: start, count: Int(size - start)) else { return nil }
        var index = tail.count - 27
        while index >= 0 {
            if tail[index..<(index + 4)].elementsEqual("OggS".utf8),
                let length = OggPage.pageLength(Array(tail[index...].prefix(27 + 255))),
                index + length <= tail.count, let page = OggPage.parse(Array(tail[index..<(index + length)])),
                page.serial == headers.serial, page.granule != UInt64.max
            {
                return UInt32(clamping: (page.granule > skip ? page.granule - skip : 0) * 1000 / rate)
            }
            index -= 1
        }
        return nil
    }

    /// The comment packet for `tags`, keeping `vendor`.
    static func commentPacket(_ tags: EpisodeTags, codec: Codec, vendor: [UInt8]) -> [UInt8] {
        var comments: [String] = []
        func add(_ key: String, _ value: String?) {
            if let value, !value.isEmpty { comments.append(key + "=" + value) }
        }
        add("TITLE", tags.title)
        add("ALBUM", tags.show)
        add("ARTIST", tags.author)
        add("ALBUMARTIST", tags.show)
        add("DATE", tags.date)
        add("TRACKNUMBER", tags.episode.map(String.init))
        add("DISCNUMBER", tags.season.map(String.init))
        add("DESCRIPTION", tags.description.map { ID3Tag.cut($0, toBytes: ID3Tag.descriptionLimit) })
        for (index, chapter) in tags.chapters.enumerated() {
            let number = String(format: "%03d", index + 1)
            let ms = chapter.startMilliseconds
            add(
                "CHAPTER" + number,
                String(format: "%02d:%02d:%02d.%03d", ms / 3_600_000, ms / 60000 % 60, ms / 1000 % 60, ms % 1000))
            add("CHAPTER" + number + "NAME", chapter.title)
        }
        if let cover = tags.cover {
            // A FLAC picture block: front cover, its type, no description, no dimensions known, its bytes.
            let mime = Array(cover.mimeType.utf8)
            var block = ID3Tag.bigEndian(3) + ID3Tag.bigEndian(UInt32(mime.count)) + mime + ID3Tag.bigEndian(0)
            block += [UInt8](repeating: 0, count: 16) + ID3Tag.bigEndian(UInt32(cover.bytes.count)) + cover.bytes
            add("METADATA_BLOCK_PICTURE", Data(block).base64EncodedString())
        }
        var packet = codec == .opus ? Array("OpusTags".utf8) : [3] + Array("vorbis".utf8)
        packet += OggPage.littleEndian(vendor.count) + vendor + OggPage.littleEndian(comments.count)
        for comment in comments { packet += OggPage.littleEndian(comment.utf8.count) + Array(comment.utf8) }
        if codec == .vorbis { packet.append(1) }
        return packet
    }

    /// `packets` laid out in pages of `serial` from sequence number `sequence`, granule position 0, each packet
    /// continuing on the next page where it does not fit; the last page ends with the last packet.
    static func paginate(_ packets: [[UInt8]], serial: UInt32, sequence: UInt32) -> [[UInt8]] {
        var lacing: [(value: UInt8, continues: Bool)] = []
        var data: [UInt8] = []
        for packet in packets {
            lacing += Array(repeating: (255, true), count: packet.count / 255) + [(UInt8(packet.count % 255), false)]
            data += packet
        }
        var pages: [[UInt8]] = []
        var (index, start, continued) = (0, 0, false)
        while index < lacing.count {
            let slice = lacing[index..<min(index + 255, lacing.count)]
            let length = slice.reduce(0) { $0 + Int($1.value) }
            let page = OggPage.Fields(
                flags: continued ? 1 : 0, granule: 0, serial: serial, sequence: sequence + UInt32(pages.count),
                lacing: slice.map(\.value), body: Array(data[start..<(start + length)]))
            pages.append(OggPage.encode(page))
            continued = slice.last?.continues ?? false
            (index, start) = (index + slice.count, start + length)
        }
        return pages
    }
}
