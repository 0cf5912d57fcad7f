// Redacting the URLs inside text and documents (messages, `--json`, feed documents kept in the history), byte by
// byte: the scanning half of `URLSecrets`, whose rule (`redacted`) it applies to each URL it finds.
import Foundation

/// Redacts the URLs inside text and documents, by `URLSecrets`' rule.
public enum TextSecrets {
    /// `message` with every http(s) URL in it redacted: the last guard on what podarchive prints. Reads bytes,
    /// so a `list --json` of 20,000 episodes costs milliseconds; a URL with none of `@ ? ; #` is copied as is.
    /// Under a private show's `Taint`, every value of every URL but its feed's; and every known secret value
    /// (`SecretValues`) masked.
    public static func redactingURLs(in message: String) -> String {
        let bytes = Array(message.utf8)
        guard let redacted = redactingURLs(in: bytes) else { return SecretValues.masking(message) }
        return String(decoding: SecretValues.masking(redacted) ?? redacted, as: UTF8.self)
    }

    /// Makes the address `text` (a notification URL) secret as a whole in everything redacted from now on: see
    /// `URLSecrets.registerSecretAddress`.
    public static func registerSecretAddress(_ text: String) {
        URLSecrets.registerSecretAddress(text)
    }

    /// `document` with every http(s) URL in it redacted, and the secret parameters of relative ones too
    /// (`href="/cover.png?token=…"`), its other bytes (in whatever encoding) untouched: how a feed document is
    /// kept in the history.
    /// Under a private show's `Taint`, relative ones lose every value, and every known secret value is masked.
    public static func redactingURLs(in document: Data) -> Data {
        let bytes = Array(document)
        let absolute = redactingURLs(in: bytes)
        let relative = redactingParameters(in: absolute ?? bytes, everyValue: Taint.current.isPrivate)
        let kept = relative ?? absolute ?? bytes
        if let masked = SecretValues.masking(kept) { return Data(masked) }
        return relative.map { Data($0) } ?? absolute.map { Data($0) } ?? document
    }

    /// Text a feed supplies (a title, show notes) as it is kept and shown: its URLs redacted, the secret
    /// parameters of relative ones too, and every known secret value masked (see `redactingURLs(in:)`).
    public static func redactingText(_ text: String) -> String {
        let data = Data(text.utf8)
        let kept = redactingURLs(in: data)
        return kept == data ? text : String(decoding: kept, as: UTF8.self)
    }

    /// The bytes with the value of every secret parameter redacted wherever one stands after `?`, `&`, `;` or
    /// `#` (so `&amp;token=` too), URL or not; nil when nothing changed. A document's relative URLs have no
    /// scheme to find them by, so every such parameter in it is taken for one.
    static func redactingParameters(in bytes: [UInt8], everyValue: Bool) -> [UInt8]? {
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "%")
        }
        func endsValue(_ byte: UInt8) -> Bool {
            endsURL(byte) || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: "#")
        }
        let marker = Array(URLSecrets.redaction.utf8)
        var result: [UInt8] = []
        var copied = 0
        var position = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if byte == UInt8(ascii: "\\"), URLSecrets.isEscapedAmpersand(bytes[position...]) {
                position += 5
            } else {
                guard
                    byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: ";")
                        || byte == UInt8(ascii: "#")
                else { continue }
            }
            var equals = position
            while equals < bytes.count, equals - position < 64, isNameByte(bytes[equals]) { equals += 1 }
            guard equals > position, equals < bytes.count, bytes[equals] == UInt8(ascii: "="),
                everyValue
                    || URLSecrets.isSecretName(Substring(String(decoding: bytes[position..<equals], as: UTF8.self)))
            else { continue }
            var end = equals + 1
            while end < bytes.count, !endsValue(bytes[end]) || isEscapedSlash(bytes, at: end) {
                end += isEscapedSlash(bytes, at: end) ? 2 : 1
            }
            guard end > equals + 1, !bytes[(equals + 1)..<end].elementsEqual(marker) else { continue }
            result += bytes[copied...equals]
            result += marker
            copied = end
            position = end
        }
        guard copied > 0 else { return nil }
        result += bytes[copied...]
        return result
    }

    /// The bytes with every URL in them redacted; nil when nothing changed.
    static func redactingURLs(in bytes: [UInt8]) -> [UInt8]? {
        var result: [UInt8] = []
        var copied = 0
        var position = 0
        while position + 2 < bytes.count {
            guard bytes[position] == UInt8(ascii: ":"), bytes[position + 1] == UInt8(ascii: "/"),
                bytes[position + 2] == UInt8(ascii: "/"), let start = schemeStart(bytes, colon: position)
            else {
                position += 1
                continue
            }
            var end = position + 3
            while end < bytes.count, !endsURL(bytes[end]) || isEscapedSlash(bytes, at: end) {
                end += isEscapedSlash(bytes, at: end) ? 2 : 1
            }
            let url = bytes[start..<end]
            if url.contains(where: {
                $0 == UInt8(ascii: "@") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "#")
            }) {
                let shown = URLSecrets.redacted(String(decoding: url, as: UTF8.self))
                if shown.utf8.count != url.count || !shown.utf8.elementsEqual(url) {
                    result += bytes[copied..<start]
                    result += shown.utf8
                    copied = end
                }
            }
            position = end
        }
        guard copied > 0 else { return nil }
        result += bytes[copied...]
        return result
    }

    /// Whether `bytes` hold a JSON string's `\/` at `position` (PHP's encoder writes every `/` so): part of the
    /// URL or value it stands in, not its end.
    static func isEscapedSlash(_ bytes: [UInt8], at position: Int) -> Bool {
        bytes[position] == UInt8(ascii: "\\") && position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "/")
    }

    /// Where `http` or `https` (any case) starts right before the colon at `colon`, when one does and no letter
    /// runs into it.
    static func schemeStart(_ bytes: [UInt8], colon: Int) -> Int? {
        for length in [5, 4] where colon >= length {
            let start = colon - length
            let word = bytes[start..<colon].map { $0 | 0x20 }
            guard word.elementsEqual(length == 5 ? Array("https".utf8) : Array("http".utf8)) else { continue }
            if start > 0, (bytes[start - 1] | 0x20) >= UInt8(ascii: "a"), (bytes[start - 1] | 0x20) <= UInt8(ascii: "z")
            {
                return nil
            }
            return start
        }
        return nil
    }

    /// Bytes that end a URL inside a message, a JSON string or an XML attribute: white space, quotes, angle
    /// brackets, a backslash, a backtick.
    static func endsURL(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "`") || byte == UInt8(ascii: "\\")
    }
}
