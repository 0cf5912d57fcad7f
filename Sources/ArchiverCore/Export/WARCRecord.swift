// One WARC 1.1 record (ISO 28500:2017) as bytes: `WARC/1.1`, its named fields, a blank line, the block, and two
// CRLFs. The block's bytes are not held here: `WARCWriter` streams them after the header this file makes.
import Foundation

/// The kinds of record an export writes.
enum WARCRecordType: String, Sendable {
    /// What the file holds and what wrote it (the first record).
    case warcinfo
    /// A file as it was fetched, without the HTTP exchange (the archive keeps no status or headers).
    case resource
    /// Something said about another record (an episode's sidecar JSON).
    case metadata
}

/// The header of one record: its fields in the order they are written.
struct WARCRecordHeader: Equatable, Sendable {
    /// One named field.
    public struct Field: Equatable, Sendable {
        /// `WARC-Type`.
        public var name: String
        /// Its value, one line.
        public var value: String
    }

    /// The fields, `WARC-Type` first.
    public private(set) var fields: [Field]

    /// A header for a record of `type` with `id` (`<urn:uuid:…>`) made at `date` (`YYYY-MM-DDThh:mm:ssZ`).
    public init(type: WARCRecordType, id: String, date: String) {
        fields = [
            Field(name: "WARC-Type", value: type.rawValue), Field(name: "WARC-Record-ID", value: id),
            Field(name: "WARC-Date", value: date),
        ]
    }

    /// Adds a field; a line break in `value` (which would end the header) becomes a space.
    public mutating func add(_ name: String, _ value: String) {
        guard value.utf8.contains(where: { $0 == 13 || $0 == 10 }) else {
            return fields.append(Field(name: name, value: value))
        }
        let line = value.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        fields.append(Field(name: name, value: line))
    }

    /// The value of the first field named `name`.
    public func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// `WARC/1.1`, each field, and the blank line that ends the header, every line ended by CRLF.
    public func serialized() -> [UInt8] {
        // Gathered as bytes: a string built by interpolation was a tenth of a small file's record.
        var bytes: [UInt8] = []
        bytes.reserveCapacity(fields.reduce(12) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 })
        bytes += "WARC/1.1\r\n".utf8
        for field in fields {
            bytes += field.name.utf8
            bytes += ": ".utf8
            bytes += field.value.utf8
            bytes += "\r\n".utf8
        }
        bytes += "\r\n".utf8
        return bytes
    }

    /// What follows a record's block: two CRLFs.
    public static let trailer: [UInt8] = Array("\r\n\r\n".utf8)
}

/// The values a record's fields take.
enum WARCValues {
    /// `sha1:` and the base32 of `digest`, as the web archives index payloads (`WARC-Payload-Digest`).
    public static func sha1(_ digest: [UInt8]) -> String { "sha1:" + Base32.encode(digest) }

    /// `<urn:uuid:…>`, lower case, as `WARC-Record-ID` wants it.
    public static func recordID(_ uuid: UUID) -> String {
        // Written out here: `uuidString` formats each byte with printf, then `lowercased` copies it again.
        let digits = Array("0123456789abcdef".utf8)
        var text = Array("<urn:uuid:".utf8)
        text.reserveCapacity(47)
        withUnsafeBytes(of: uuid.uuid) { bytes in
            for (position, byte) in bytes.enumerated() {
                if position == 4 || position == 6 || position == 8 || position == 10 { text.append(UInt8(ascii: "-")) }
                text.append(digits[Int(byte >> 4)])
                text.append(digits[Int(byte & 0x0F)])
            }
        }
        text.append(UInt8(ascii: ">"))
        return String(decoding: text, as: UTF8.self)
    }

    /// A `WARC-Date`: `YYYY-MM-DDThh:mm:ssZ`, UTC.
    public static func date(_ date: Date) -> String { FeedDate.iso8601(date) }

    /// `url` as a `WARC-Target-URI`: with the archive's redaction (no login, no token), and never with a space or
    /// a character a URI cannot hold as it is.
    public static func targetURI(_ url: String) -> String { uriSafe(URLSecrets.redacted(url)) }

    private static let unsafeInURI = Set(#""<>\^`{|}"#.utf8)

    /// `text` with each byte a URI cannot hold as it is (a space, a control, a quote, angle brackets, braces, non-ASCII)
    /// percent-encoded; `%` escapes already there are kept.
    static func uriSafe(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !unsafeInURI.contains($0) }) { return text }
        var out = ""
        for byte in text.utf8 {
            if byte > 0x20, byte < 0x7F, !unsafeInURI.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += String(format: "%%%02X", byte)
            }
        }
        return out
    }

    /// The URI of a file the archive keeps without the URL it came from (chapters the feed gave inline, a cover
    /// from before the origin was kept): `urn:podarchive:<show folder>/<file>`, percent-encoded.
    public static func localURI(show: String, file: String) -> String {
        "urn:podarchive:" + uriSafe(escapingPercent("\(show)/\(file)"))
    }

    /// The URI of an episode's sidecar (a `metadata` record): `metadata://podarchive/<show folder>/<file>`,
    /// percent-encoded. Not an http(s) URI, as wget names its metadata records, so that a replay tool never serves
    /// the sidecar in place of the capture it describes (which it names with `WARC-Refers-To`).
    public static func metadataURI(show: String, file: String) -> String {
        var path = escapingPercent("\(show)/\(file)")
        if path.utf8.contains(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            path = path.replacingOccurrences(of: "?", with: "%3F").replacingOccurrences(of: "#", with: "%23")
        }
        return "metadata://podarchive/" + uriSafe(path)
    }

    /// `text` with each `%` written `%25`.
    private static func escapingPercent(_ text: String) -> String {
        text.utf8.contains(UInt8(ascii: "%")) ? text.replacingOccurrences(of: "%", with: "%25") : text
    }
}
