// Whose secrets the text being written may hold. A show whose feed needs a secret (a token or login in its URL,
// saved or given credentials, a `.netrc` login for its host) is private, and everything it supplies is tainted:
// the work of its sync (or list, or verify) runs under its `Taint` as a task-local value, so every redaction made on
// its behalf (`URLSecrets.redacted`, `TextSecrets.redactingURLs`: the one rule every writer of feed-derived text goes through)
// redacts every value of its documents' URLs, whatever the parameter's name, not only those whose names look
// secret. The secret values themselves (the feed's token, the login, the header values) are registered with the
// process once known, and masked in every encoding a document can hold them in, in everything redacted and
// printed, whichever task writes it (as CI systems mask registered secrets in every log line).
import Foundation

/// How the show being worked on taints what it supplies (see the file's comment).
public struct Taint: Sendable, Equatable {
    /// True for a private show: every value in the query, matrix, fragment and userinfo of a URL it supplies is
    /// redacted, whatever its name.
    public var isPrivate: Bool
    /// The show's own feed URLs, as the name rule shows them: given by the user, not by a document, they keep that
    /// rule (their secret values are known and masked), so the records that name a show by its feed keep naming it.
    public var feeds: Set<String>

    /// A public show's taint: the name rule alone.
    public static let none = Taint(isPrivate: false, feeds: [])

    /// The taint of the work running now (`none` outside any show's).
    @TaskLocal public static var current = Taint.none

    /// A taint; `feeds` are the show's feed URLs as the name rule shows them (made once, by `ShowTaint`).
    public init(isPrivate: Bool, feeds: Set<String>) {
        self.isPrivate = isPrivate
        self.feeds = feeds
    }

    /// Runs `body` under this taint.
    public func run<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        try await Self.$current.withValue(self, operation: body)
    }
}

/// The secret values the process knows (feed tokens, passwords, header values), in every encoding a document can
/// hold them in: masked as `REDACTED` in everything redacted and printed.
enum SecretValues {
    /// What a redacted value is shown as (`URLSecrets.redaction`).
    public static let marker = "REDACTED"

    /// Values shorter than this are not searched for: they would mask ordinary words (the URL rule still redacts
    /// them where they stand as a parameter's value).
    public static let shortest = 4

    /// The values registered, and their forms, longest first (so a longer form is masked before one inside it).
    private static let known = Locked<(values: Set<String>, forms: [[UInt8]])>(([], []))

    /// Adds `values` (and their encodings) to what is masked.
    public static func register(_ values: [String]) {
        let fresh = values.filter { $0.utf8.count >= shortest }
        guard !fresh.isEmpty else { return }
        known.withLock { known in
            let new = Set(fresh).subtracting(known.values)
            guard !new.isEmpty else { return }
            known.values.formUnion(new)
            let forms = new.flatMap(encodings).map { Array($0.utf8) }
            known.forms = Array(Set(known.forms + forms)).sorted { $0.count > $1.count }
        }
    }

    /// Every form `value` takes in a document: as is, percent-encoded (both cases of hex, `+` for a space),
    /// escaped for XML or HTML, and escaped as JSON encoders write it (`\/`, `\u0026`, `\u003c`, `\u003e`).
    public static func encodings(of value: String) -> [String] {
        var forms: Set<String> = [value]
        var unreserved = CharacterSet.alphanumerics
        unreserved.insert(charactersIn: "-._~")
        if let percent = value.addingPercentEncoding(withAllowedCharacters: unreserved) {
            forms.insert(percent)
            forms.insert(lowercasingHex(percent))
            forms.insert(percent.replacingOccurrences(of: "%20", with: "+"))
        }
        let xml = value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
        forms.insert(xml)
        forms.insert(xml.replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;"))
        var json = value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        forms.insert(json)
        json = json.replacingOccurrences(of: "/", with: "\\/")
        forms.insert(json)
        forms.insert(
            json.replacingOccurrences(of: "&", with: "\\u0026").replacingOccurrences(of: "<", with: "\\u003c")
                .replacingOccurrences(of: ">", with: "\\u003e"))
        forms.insert(
            value.replacingOccurrences(of: "&", with: "\\u0026").replacingOccurrences(of: "<", with: "\\u003c")
                .replacingOccurrences(of: ">", with: "\\u003e"))
        return forms.filter { $0.utf8.count >= shortest }.sorted()
    }

    /// The parts of a header's value that are secret: the value, each word of it but the scheme (`Bearer`,
    /// `Basic`), and the value of each cookie (`name=value`; a base64 token's trailing `=` is its own).
    static func parts(ofHeader value: String) -> [String] {
        let schemes: Set<String> = ["bearer", "basic", "digest", "token", "negotiate"]
        var parts = [value]
        for piece in value.split(whereSeparator: { $0 == " " || $0 == ";" || $0 == "," }) {
            guard !schemes.contains(piece.lowercased()) else { continue }
            parts.append(String(piece))
            if let equals = piece.firstIndex(of: "="), equals != piece.startIndex,
                piece[..<equals].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }),
                piece.index(after: equals) != piece.endIndex,
                !piece[piece.index(after: equals)...].allSatisfy({ $0 == "=" })
            {
                parts.append(String(piece[piece.index(after: equals)...]))
            }
        }
        return parts
    }

    /// `bytes` with every known secret form replaced by the redaction marker; nil when none is in them.
    static func masking(_ bytes: [UInt8]) -> [UInt8]? {
        let forms = known.withLock { $0.forms }
        guard !forms.isEmpty else { return nil }
        let marker = Array(marker.utf8)
        var current = bytes
        var changed = false
        for form in forms {
            var result: [UInt8] = []
            var copied = 0
            while let found = current[copied...].firstRange(of: form) {
                result += current[copied..<found.lowerBound]
                result += marker
                copied = found.upperBound
            }
            guard copied > 0 else { continue }
            result += current[copied...]
            current = result
            changed = true
        }
        return changed ? current : nil
    }

    /// `text` with every known secret form masked.
    public static func masking(_ text: String) -> String {
        guard !known.withLock({ $0.forms.isEmpty }) else { return text }
        return masking(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) } ?? text
    }

    /// Whether `bytes` hold a known secret form.
    public static func occur(in bytes: [UInt8]) -> Bool {
        known.withLock { $0.forms }.contains { bytes.firstRange(of: $0) != nil }
    }

    private static func lowercasingHex(_ text: String) -> String {
        var result = ""
        var afterPercent = 0
        for character in text {
            if character == "%" {
                afterPercent = 2
                result.append(character)
            } else if afterPercent > 0 {
                afterPercent -= 1
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
