// Detects a feed's format from its bytes (never from the URL or Content-Type) and hands it to the right reader.
import Foundation

/// Reads any supported feed document.
public enum FeedParser {
    /// Parses `data` as RSS, Atom, JSON Feed or a plain JSON array of episodes.
    ///
    /// - Parameters:
    ///   - data: the document as fetched.
    ///   - url: where it came from; relative enclosure URLs resolve against it. Also names the feed in errors.
    ///   - descriptions: also read each episode's show notes (`Episode.description`). They are most of a feed's
    ///     bytes, so reading them costs about half as much time again, and memory to hold them.
    /// - Throws: `FeedError.notAFeed` when the bytes are no feed at all (HTML, garbage, empty, cut off
    ///   before any episode).
    public static func parse(_ data: Data, url: URL?, descriptions: Bool = false) throws -> Feed {
        var feed = try read(data, url: url, descriptions: descriptions)
        liftLogins(from: &feed)
        keepText(of: &feed)
        // Publishers reuse GUIDs by mistake; every item of one document is its own episode.
        if feed.episodes.contains(where: { $0.guid != nil }) { feed.episodes = Episode.keepingApart(feed.episodes) }
        return feed
    }

    private static func read(_ data: Data, url: URL?, descriptions: Bool) throws -> Feed {
        let name = url?.absoluteString ?? "(input)"
        // UTF-16 (with a byte-order mark) is re-encoded once, then read like any UTF-8 document.
        if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) {
            guard let text = String(data: data, encoding: .utf16) else {
                throw FeedError.notAFeed(url: name, reason: "the document is neither XML nor JSON")
            }
            return try read(Data(text.utf8), url: url, descriptions: descriptions)
        }
        switch sniff(data) {
        case .empty:
            throw FeedError.notAFeed(url: name, reason: "the document is empty")
        case .json:
            switch JSONFeedReader.read(data, documentURL: url, descriptions: descriptions) {
            case .success(let feed): return feed
            case .failure(let failure): throw FeedError.notAFeed(url: name, reason: failure.reason)
            }
        case .xml(let start):
            // UTF-8 as fetched is read where it lies; only single-byte encodings are converted first.
            let result: XMLFeedResult
            if let converted = transcodedToUTF8(data, from: start) {
                result = XMLFeedReader.read(converted, documentURL: url, descriptions: descriptions)
            } else {
                result = data.withUnsafeBytes { raw in
                    let bytes = raw.bindMemory(to: UInt8.self)
                    return XMLFeedReader.read(
                        UnsafeBufferPointer(rebasing: bytes[start...]), documentURL: url, descriptions: descriptions)
                }
            }
            switch result {
            case .feed(let feed): return feed
            case .notAFeed(let reason): throw FeedError.notAFeed(url: name, reason: reason)
            }
        case .unknown:
            throw FeedError.notAFeed(url: name, reason: "the document is neither XML nor JSON")
        }
    }

    /// The text the feed supplies (titles, the show's author, show notes, the episodes' pages) as it may be kept
    /// and shown: the one place it enters, so no writer holds it otherwise. Its URLs are redacted as the show's
    /// `Taint` says (every value, for a private show), and every known secret value (the logins just lifted
    /// included) is masked. The URLs fetched (enclosures, companions, artwork, pages) stay as they are, and are
    /// redacted where written.
    static func keepText(of feed: inout Feed) {
        SecretValues.register(feed.logins.compactMap(\.password))
        func keep(_ text: inout String?) {
            guard let value = text else { return }
            let kept = TextSecrets.redactingText(value)
            if kept != value { text = kept }
        }
        keep(&feed.title)
        keep(&feed.author)
        keep(&feed.description)
        for position in feed.episodes.indices {
            keep(&feed.episodes[position].title)
            keep(&feed.episodes[position].description)
            if let link = feed.episodes[position].link { feed.episodes[position].link = URLSecrets.redacted(link) }
        }
        feed.titlesWithoutMedia = feed.titlesWithoutMedia.map(TextSecrets.redactingText)
    }

    /// Takes the userinfo out of every URL the feed gives into `feed.logins` (one per origin, the first wins),
    /// so that no URL kept, compared or shown carries a password.
    static func liftLogins(from feed: inout Feed) {
        var logins: [String: ShowCredentials] = [:]
        func lift(_ text: inout String) {
            guard let login = URLSecrets.userinfo(of: text) else { return }
            let bare = URLSecrets.withoutUserinfo(text)
            if let origin = Origin(bare), logins[origin.description] == nil {
                logins[origin.description] = ShowCredentials(
                    origin: origin, user: login.user, password: login.password)
            }
            text = bare
        }
        func lift(_ text: inout String?) {
            guard var value = text else { return }
            lift(&value)
            text = value
        }
        for position in feed.episodes.indices {
            lift(&feed.episodes[position].url)
            lift(&feed.episodes[position].imageURL)
            for companion in feed.episodes[position].companions.indices {
                lift(&feed.episodes[position].companions[companion].url)
            }
        }
        lift(&feed.imageURL)
        lift(&feed.links.next)
        lift(&feed.links.previousArchive)
        lift(&feed.links.newFeedURL)
        lift(&feed.links.selfURL)
        feed.logins = logins.keys.sorted().compactMap { logins[$0] }
    }

    enum Sniffed: Equatable {
        case empty
        case json
        /// XML, starting at this offset (after a UTF-8 byte-order mark).
        case xml(from: Int)
        case unknown
    }

    /// Looks past a UTF-8 byte-order mark and leading white space at the first significant character, without
    /// copying the document.
    static func sniff(_ data: Data) -> Sniffed {
        data.withUnsafeBytes { raw -> Sniffed in
            let bytes = raw.bindMemory(to: UInt8.self)
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            guard let first = bytes[start...].firstIndex(where: { !Ascii.isSpace($0) }) else { return .empty }
            switch bytes[first] {
            case UInt8(ascii: "{"), UInt8(ascii: "["): return .json
            case Ascii.lessThan: return .xml(from: start)
            default: return .unknown
            }
        }
    }

    /// XML declared in a single-byte encoding (ISO-8859-1, windows-1252), converted to UTF-8. Nil when the
    /// document can be read as it is.
    private static func transcodedToUTF8(_ data: Data, from start: Int) -> [UInt8]? {
        let head = [UInt8](data.prefix(start + 256).dropFirst(start))
        guard let declared = declaredEncoding(head) else { return nil }
        let windows1252: Bool
        switch declared {
        case "iso-8859-1", "latin1", "iso8859-1", "latin-1", "iso_8859-1": windows1252 = false
        case "windows-1252", "cp1252": windows1252 = true
        default: return nil
        }
        let bytes = [UInt8](data.dropFirst(start))
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 8)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
                continue
            }
            var scalar = UInt32(byte)
            if windows1252, (0x80...0x9F).contains(byte), let mapped = Self.windows1252High[Int(byte - 0x80)] {
                scalar = mapped
            }
            UTF8.encode(Unicode.Scalar(scalar)!) { output.append($0) }
        }
        return output
    }

    /// windows-1252's printable characters at 0x80-0x9F (nil where it has none, kept as the C1 code).
    private static let windows1252High: [UInt32?] = [
        0x20AC, nil, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, nil,
        0x017D, nil, nil, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A,
        0x0153, nil, 0x017E, 0x0178,
    ]

    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(256), as: UTF8.self)
        guard let declaration = head.range(of: "<?xml"), let end = head.range(of: "?>"),
            declaration.upperBound <= end.lowerBound
        else { return nil }
        let text = head[declaration.upperBound..<end.lowerBound]
        guard let key = text.range(of: "encoding") else { return nil }
        let rest = text[key.upperBound...].drop(while: { $0 == " " || $0 == "=" })
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        return String(rest.dropFirst().prefix(while: { $0 != quote })).lowercased()
    }
}
