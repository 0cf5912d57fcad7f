// How each kind of option value is read: numbers in a range, sizes, dates, templates, headers, URLs. Each option's
// declaration names one of these; a value that does not read is one line naming the option and the value.
import ArchiverCore
import Foundation

extension ValueParser where Value == String {
    /// Any text.
    static let text = ValueParser { $0 }

    /// A file's path, not empty (a `.netrc` file).
    static let path = rule(ShowSettings.checkNetrcFile)

    /// A regular expression (for `--match`).
    static let pattern = rule(ShowSettings.checkMatch)

    /// Preferences among an episode's files, comma-separated (for `--prefer`: `opus`, `video/mp4;height<=480`, `smallest`).
    static let preferences = rule(ShowSettings.checkPrefer)

    /// One line of printable text (a User-Agent).
    static let userAgent = rule(ShowSettings.checkUserAgent)

    /// An http(s) URL with a host.
    static let webURL = checked("an http(s) URL such as http://nas.local/podcasts/") { WebURL.isWeb($0) ? $0 : nil }

    /// One header line, `Name: value`; a refused one is shown redacted and cut short (it may hold a secret).
    static let header = ValueParser { text throws(ValueProblem) in
        guard ShowCredentials.parseHeader(text) != nil else {
            throw ValueProblem(
                text: " needs one header line such as 'Authorization: Bearer TOKEN', got "
                    + "'\(TextSecrets.redactingURLs(in: String(text.prefix(40))))'")
        }
        return text
    }
}

extension ValueParser where Value == Int {
    /// A whole number in `range`.
    static func number(in range: ClosedRange<Int>) -> ValueParser {
        checked("a whole number from \(range.lowerBound) to \(range.upperBound)") { text in
            Int(text).flatMap { range.contains($0) ? $0 : nil }
        }
    }
}

extension ValueParser where Value == Int {
    /// A count of episodes, 1 or more.
    static let episodes = ValueParser<Int> { text throws(ValueProblem) in
        guard let count = Int(text) else {
            throw ValueProblem(SettingProblem.needs(ShowSettings.limitNeeds), given: text)
        }
        return try RuleReader(check: ShowSettings.checkLimit).read(count)
    }
}

extension ValueParser where Value == Int64? {
    /// A rate in bytes a second such as 500K or 2M (at least 1K), or 0 for none (over the configuration file's).
    static let rate = ValueParser<Int64?>.checked("bytes a second such as 500K or 2M (at least 1K), or 0 for no limit")
    {
        text in
        guard let bytes = ByteSize.parse(text), bytes == 0 || bytes >= 1024 else { return nil }
        return .some(bytes == 0 ? nil : bytes)
    }
}

extension ValueParser where Value == TimeInterval {
    /// Seconds, from `minimum` (excluded when `positive`) to a year.
    static func seconds(positive: Bool) -> ValueParser {
        checked("a number of seconds") { text in
            guard let value = TimeInterval(text), value.isFinite, value >= 0, value <= 31_536_000,
                !positive || value > 0
            else { return nil }
            return value
        }
    }
}

extension ValueParser {
    /// A size such as 500K or 2G, at least 1K, as `what` says.
    static func bytes(_ what: String) -> ValueParser<Value> where Value == Int64 {
        checked(what) { text in ByteSize.parse(text).flatMap { $0 >= 1024 ? $0 : nil } }
    }

    /// `--since`: a date such as 2025-01-31 or RFC 3339, kept as written.
    static var date: ValueParser<Written<Date>> {
        ValueParser<Written<Date>> { text throws(ValueProblem) in
            Written(text: text, value: try RuleReader(check: ShowSettings.checkSince).read(text))
        }
    }

    /// `--name`: a file name template, kept as written.
    static var template: ValueParser<Written<NameTemplate>> {
        ValueParser<Written<NameTemplate>> { text throws(ValueProblem) in
            Written(text: text, value: try RuleReader(check: ShowSettings.checkName).read(text))
        }
    }

    /// `--shard K/N`: K from 0 to N - 1.
    static var shard: ValueParser<Shard> {
        .checked("K/N with K from 0 to N-1 (such as 0/4)") { text in
            let parts = text.split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]), count >= 1,
                count <= 100_000, index >= 0, index < count
            else { return nil }
            return Shard(index: index, count: count)
        }
    }
}

/// A show setting's rule (`ShowSettings`' checks, which a saved record is held to too), as a parser reads it: its
/// problem said after the option's name.
struct RuleReader<Input, Value>: Sendable {
    let check: @Sendable (Input) throws(SettingProblem) -> Value

    func read(_ input: Input) throws(ValueProblem) -> Value {
        do {
            return try check(input)
        } catch {
            throw ValueProblem(error, given: "\(input)")
        }
    }
}

extension ValueParser where Value == String {
    /// A show setting's text, read with its rule.
    static func rule(_ check: @escaping @Sendable (String) throws(SettingProblem) -> String) -> ValueParser {
        ValueParser { text throws(ValueProblem) in try RuleReader(check: check).read(text) }
    }
}

extension ValueProblem {
    /// A rule's problem with `text`: " needs one line of text, got 'x'", or ": unknown field {x}".
    init(_ problem: SettingProblem, given text: String) {
        switch problem {
        case .needs(let what): self.init(text: " needs \(what), got '\(text)'")
        case .invalid(let why): self.init(text: ": \(why)")
        }
    }
}

/// Whether a text is an http(s) URL with a host.
enum WebURL {
    static func isWeb(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https"
        else { return false }
        return url.host?.isEmpty == false
    }
}

extension ByteSize {
    /// `268435456` as `256M`: the largest unit that divides it.
    static func text(_ bytes: Int64) -> String {
        for (unit, power) in [("G", 3), ("M", 2), ("K", 1)] where bytes % (Int64(1) << (10 * power)) == 0 {
            return "\(bytes >> (10 * power))\(unit)"
        }
        return "\(bytes)"
    }
}
