// What a publisher offers when it offers the way to the media rather than the media: a torrent, or a streaming
// playlist (HLS, DASH, Smooth Streaming, M3U). Known by a declared type or a name (a feed's `type`, a source's
// `contentType`, a URL ending `.m3u8`), and by what answers: its Content-Type or its first bytes. Never archived as
// an episode (`DownloadCheck`, `PreferredFile`).
import Foundation

/// A body that is the way to a file, not the file: what a publisher offers in place of an episode's media.
public enum NotMedia: String, Sendable, Equatable, CaseIterable {
    case torrent
    case hls
    case m3u
    case dash
    case smoothStreaming = "smooth-streaming"

    /// What it is, as a failure says it ("a BitTorrent file, not the episode's media").
    public var description: String {
        switch self {
        case .torrent: return "a BitTorrent file, not the episode's media"
        case .hls: return "an HLS playlist (streaming), not a file"
        case .m3u: return "an M3U playlist, not a file"
        case .dash: return "a DASH manifest (streaming), not a file"
        case .smoothStreaming: return "a Smooth Streaming manifest (streaming), not a file"
        }
    }

    /// What a response of Content-Type `type` whose body starts with `leadingBytes` is, when it is the way to a
    /// file rather than one: by its first bytes (a server's type is often `application/octet-stream`), else by its
    /// type. Nil for anything else.
    public init?(type: String?, leadingBytes: Data) {
        guard let kind = Self.sniff(leadingBytes) ?? type.flatMap(Self.init(type:)) else { return nil }
        self = kind
    }

    /// What a media type names (parameters and case aside), when it is a torrent's or a playlist's.
    init?(type: String) {
        switch MediaTypes.bare(type) {
        case "application/x-bittorrent": self = .torrent
        case "application/x-mpegurl", "application/vnd.apple.mpegurl": self = .hls
        case "audio/mpegurl", "audio/x-mpegurl": self = .m3u
        case "application/dash+xml": self = .dash
        case "application/vnd.ms-sstr+xml": self = .smoothStreaming
        default: return nil
        }
    }

    /// What the file at `url` is by the name its path ends with (`.m3u8`, `.mpd`, `.torrent`...), when it is a
    /// torrent's or a playlist's.
    init?(url: String) {
        let path = URLComponents(string: url)?.path ?? url
        self.init(pathExtension: (path as NSString).pathExtension)
    }

    /// What a file whose name ends in `pathExtension` is, when it is a torrent's or a playlist's.
    init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "torrent": self = .torrent
        case "m3u8": self = .hls
        case "m3u": self = .m3u
        case "mpd": self = .dash
        case "ism", "isml": self = .smoothStreaming
        default: return nil
        }
    }

    // MARK: - First bytes

    /// The keys a torrent's dictionary starts with (bencoded keys are sorted, so one of these comes first).
    private static let torrentKeys: Set<String> = [
        "announce", "announce-list", "comment", "created by", "creation date", "encoding", "httpseeds", "info",
        "nodes", "publisher", "publisher-url", "url-list",
    ]

    /// What `bytes` start as: a bencoded torrent, an M3U or HLS playlist, a DASH or Smooth Streaming manifest.
    private static func sniff(_ bytes: Data) -> NotMedia? {
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        guard let lead = bytes[start...].firstIndex(where: { !Self.isBlank($0) }) else { return nil }
        let head = bytes[lead...].prefix(512)
        switch bytes[lead] {
        case UInt8(ascii: "#"):
            guard head.starts(with: Data("#EXTM3U".utf8)) else { return nil }
            return head.range(of: Data("#EXT-X-".utf8)) != nil ? .hls : .m3u
        case UInt8(ascii: "<"): return root(of: head)
        case UInt8(ascii: "d"): return isTorrent(head) ? .torrent : nil
        default: return nil
        }
    }

    /// A bencoded dictionary whose first key is one a torrent has: `d8:announce`, `d4:info`...
    private static func isTorrent(_ head: Data) -> Bool {
        let digits = head.dropFirst().prefix(while: { (0x30...0x39).contains($0) })
        guard (1...2).contains(digits.count), let length = Int(String(decoding: digits, as: UTF8.self)) else {
            return false
        }
        let key = head.dropFirst(1 + digits.count)
        guard key.first == UInt8(ascii: ":"), key.count > length else { return false }
        return torrentKeys.contains(String(decoding: key.dropFirst().prefix(length), as: UTF8.self))
    }

    /// The manifest an XML document's root element names (`<MPD>`, `<SmoothStreamingMedia>`), past its declaration,
    /// comments and white space.
    private static func root(of head: Data) -> NotMedia? {
        var rest = head[...]
        while let open = rest.firstIndex(of: UInt8(ascii: "<")) {
            rest = rest[open...]
            if rest.starts(with: Data("<?".utf8)) || rest.starts(with: Data("<!".utf8)) {
                let end = rest.starts(with: Data("<!--".utf8)) ? Data("-->".utf8) : Data(">".utf8)
                guard let close = rest.range(of: end) else { return nil }
                rest = rest[close.upperBound...]
                continue
            }
            let name = rest.dropFirst().prefix { !isBlank($0) && $0 != UInt8(ascii: ">") && $0 != UInt8(ascii: "/") }
            let local = name.split(separator: UInt8(ascii: ":")).last.map { String(decoding: $0, as: UTF8.self) }
            switch local {
            case "MPD": return .dash
            case "SmoothStreamingMedia": return .smoothStreaming
            default: return nil
            }
        }
        return nil
    }

    private static func isBlank(_ byte: UInt8) -> Bool { (0x09...0x0D).contains(byte) || byte == 0x20 }
}
