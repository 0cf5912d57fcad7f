import Foundation

// Looking for a private show's secrets in everything podarchive wrote, in every spelling a writer or a document
// could give them (as is, percent-encoded, `&amp;`, `\u0026`, `\/`), and naming where each was found and how it was
// spelt: a file's contents (decompressed when gzip), one of its extended attributes, or a command's output.
@testable import ArchiverCore

/// A value that must never be written, with the spellings it could be written in.
struct SoughtSecret: Sendable {
    /// What it is, for a failure's message ("the feed's token").
    let label: String
    let value: String
    /// Spellings of its own beyond the usual ones (a login's `Basic` base64), by name.
    var ownForms: [(name: String, text: String)] = []

    init(_ label: String, _ value: String, ownForms: [(name: String, text: String)] = []) {
        precondition(Self.distinctivePart(of: value).count >= 8, "\(value): too short to be found without doubt")
        self.label = label
        self.value = value
        self.ownForms = ownForms
    }

    /// The value percent-encoded as a URL's query or userinfo may hold it (every byte outside RFC 3986's unreserved set).
    var percentEncoded: String { value.addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? value }

    /// Each spelling, named, with those that spell the same text said once (under the first name).
    var forms: [(name: String, text: String)] {
        let upper = percentEncoded
        let lower = Self.lowercasingHex(upper)
        let candidates: [(name: String, text: String)] =
            [
                ("as is", value),
                ("percent-encoded (upper-case hex)", upper),
                ("percent-encoded (lower-case hex)", lower),
                ("&amp;-escaped", value.replacingOccurrences(of: "&", with: "&amp;")),
                ("\\u0026-escaped", value.replacingOccurrences(of: "&", with: "\\u0026")),
                ("\\/-escaped", value.replacingOccurrences(of: "/", with: "\\/")),
                ("\\u002f-escaped", value.replacingOccurrences(of: "/", with: "\\u002f")),
            ] + ownForms + [("in part (its first letters and digits)", Self.distinctivePart(of: value))]
            + (tail.map { [("in part (what follows its first /)", $0)] } ?? [])
        var seen: Set<String> = []
        return candidates.filter { seen.insert($0.text).inserted }
    }

    private static let unreserved = CharacterSet(
        charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The distinctive part of what follows the value's first `/`, when it is long enough to be found without
    /// doubt: what a redaction that stops at an escaped `\/` leaves behind.
    private var tail: String? {
        guard let slash = value.firstIndex(of: "/") else { return nil }
        let part = Self.distinctivePart(of: String(value[value.index(after: slash)...]))
        return part.count >= 8 ? part : nil
    }

    /// The longest run of ASCII letters and digits the value starts with: found whatever escaping the rest got.
    static func distinctivePart(of value: String) -> String {
        String(value.prefix { $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    private static func lowercasingHex(_ text: String) -> String {
        var result = ""
        var hexLeft = 0
        for character in text {
            if character == "%" {
                hexLeft = 2
                result.append(character)
            } else if hexLeft > 0 {
                hexLeft -= 1
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}

/// One secret found: where, which, and in which spellings.
struct SecretFound: CustomStringConvertible {
    let place: String
    let secret: String
    let forms: [String]

    var description: String { "\(place): \(secret) (\(forms.joined(separator: "; ")))" }
}

enum SecretSpellingSearch {
    /// The secrets `text` holds, each with the spellings found, as found at `place`.
    static func hits(in text: String, place: String, secrets: [SoughtSecret]) -> [SecretFound] {
        secrets.compactMap { secret in
            let found = secret.forms.filter { text.contains($0.text) }.map(\.name)
            return found.isEmpty ? nil : SecretFound(place: place, secret: secret.label, forms: found)
        }
    }

    /// The secrets held by the regular files under `folder` (links not followed): each file's contents (and what
    /// they decompress to, for gzip) unless `keepsContents` says they are the publisher's, and each of its extended
    /// attributes. Files `skipping` names are not read at all. Places are named relative to `folder`, prefixed with
    /// `name`.
    static func hits(
        under folder: URL, name: String, secrets: [SoughtSecret],
        skipping: (String) -> Bool = { _ in false }, keepsContents: (String, Data) -> Bool = { _, _ in false }
    ) throws -> [SecretFound] {
        var hits: [SecretFound] = []
        for path in try SecretSearch.allFiles(under: folder) where !skipping(path) {
            let place = name + "/" + String(path.dropFirst(folder.path.count + 1))
            let data = FileManager.default.contents(atPath: path) ?? Data()
            if !keepsContents(path, data) {
                var readable = data
                // What a reader sees once it is decompressed; gzip that cannot be is no proof of anything.
                if data.starts(with: [0x1F, 0x8B]) {
                    if let plain = try? Gzip.decompress(data) {
                        readable += plain
                    } else {
                        hits.append(SecretFound(place: place, secret: "gzip that cannot be decompressed", forms: []))
                    }
                }
                // What a player reads of an ID3 tag (a library's copies): every text frame decoded, UTF-16 too.
                if data.starts(with: Array("ID3".utf8)) {
                    readable += Data(ID3Text.texts(of: data).joined(separator: "\n").utf8)
                }
                hits += self.hits(in: String(decoding: readable, as: UTF8.self), place: place, secrets: secrets)
            }
            for (attribute, value) in extendedAttributes(of: path) {
                hits += self.hits(
                    in: String(decoding: value, as: UTF8.self), place: "\(place) [attribute \(attribute)]",
                    secrets: secrets)
            }
        }
        return hits
    }

    /// The file's extended attributes by name (read through the key podarchive writes them with).
    static func extendedAttributes(of path: String) -> [(String, Data)] {
        let key = FileAttributeKey("NSFileExtendedAttributes")
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path))?[key] as? [String: Data] ?? [:]
        return attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    /// The hits as a failure's message: one line each, sorted by place.
    static func report(_ hits: [SecretFound]) -> String {
        "\(hits.count) secret(s) written:\n" + hits.map(\.description).sorted().joined(separator: "\n")
    }
}

/// The texts of the ID3v2 tag a file starts with, as a player decodes them: each frame whose ID starts with `T`,
/// `COMM`, `USLT` and the sub-frames of `CHAP` and `CTOC`, in its declared encoding (Latin-1, UTF-16 with a BOM,
/// UTF-16BE, UTF-8). Sizes syncsafe in v2.4, plain in v2.3.
enum ID3Text {
    static func texts(of data: Data) -> [String] {
        let bytes = [UInt8](data)
        guard bytes.count >= 10 else { return [] }
        let size = bytes[6..<10].reduce(0) { $0 << 7 | Int($1 & 0x7F) }
        return frames(Array(bytes[10..<min(bytes.count, 10 + size)]), syncsafe: bytes[3] >= 4)
    }

    private static func frames(_ bytes: [UInt8], syncsafe: Bool) -> [String] {
        var texts: [String] = []
        var offset = 0
        while offset + 10 <= bytes.count, bytes[offset] != 0 {
            let id = String(decoding: bytes[offset..<(offset + 4)], as: UTF8.self)
            let size = bytes[(offset + 4)..<(offset + 8)].reduce(0) {
                syncsafe ? $0 << 7 | Int($1 & 0x7F) : $0 << 8 | Int($1)
            }
            let body = Array(bytes[(offset + 10)..<min(bytes.count, offset + 10 + size)])
            if id.hasPrefix("T") || id == "COMM" || id == "USLT" || id == "APIC", let encoding = body.first {
                texts.append(decode(Array(body.dropFirst()), encoding: encoding))
            }
            if id == "CHAP" || id == "CTOC" {
                // After the element ID (and CHAP's 16 bytes of times, CTOC's flags and children), its sub-frames.
                texts.append(String(decoding: body, as: UTF8.self))
                if let end = body.firstIndex(of: 0) {
                    var start = end + 1 + (id == "CHAP" ? 16 : 0)
                    if id == "CTOC", start + 2 <= body.count {
                        var count = Int(body[start + 1])
                        start += 2
                        while count > 0, let next = body[start...].firstIndex(of: 0) {
                            (start, count) = (next + 1, count - 1)
                        }
                    }
                    if start < body.count { texts += frames(Array(body[start...]), syncsafe: syncsafe) }
                }
            }
            offset += 10 + size
        }
        return texts
    }

    private static func decode(_ bytes: [UInt8], encoding: UInt8) -> String {
        switch encoding {
        case 0: return String(bytes.map { Character(Unicode.Scalar($0)) })
        case 1, 2:
            var units: [UInt16] = []
            var bigEndian = encoding == 2
            var index = 0
            if encoding == 1, bytes.count >= 2 {
                bigEndian = bytes[0] == 0xFE
                index = 2
            }
            while index + 1 < bytes.count {
                let unit =
                    bigEndian
                    ? UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1])
                    : UInt16(bytes[index + 1]) << 8 | UInt16(bytes[index])
                units.append(unit == 0xFEFF || unit == 0xFFFE ? 0x20 : unit)
                index += 2
            }
            return String(decoding: units.map { $0 == 0 ? 0x20 : $0 }, as: UTF16.self)
        default: return String(decoding: bytes, as: UTF8.self)
        }
    }
}
