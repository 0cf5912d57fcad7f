// One preference of `--prefer`, as written (`video/mp4;height<=480`, `opus`, `smallest`): a media type or codec, any
// number of bounds on the file's height, bitrate or length, and at most one of `smallest` or `largest`, joined by `;`.
// A file matches when it has every attribute the preference names, within its bounds; a value a feed gives that no
// real file has (a height of 0 or of a million, a length past 16 TiB) is no value, so it never matches and never
// wins. Among the files one preference matches, `smallest`/`largest` order by length; otherwise the first bound
// orders them nearest to it first (`height<=480`: 480, then 360; `height>=720`: 720, then 1080); otherwise the feed's
// order, the enclosure first. `PreferredFile` applies the list; `ShowSettings.checkPrefer` checks it.
import Foundation

/// One preference of `--prefer`.
struct RenditionPreference: Equatable, Sendable {
    /// An attribute of a file a bound names.
    enum Attribute: String, CaseIterable, Sendable {
        case height, bitrate, length

        /// The largest value taken as real: beyond it (and at or below 0) the feed's value is no value.
        var ceiling: Int64 {
            switch self {
            case .height: 32_768  // 16K video is 8640 lines
            case .bitrate: 10_000_000_000  // 10 Gbit/s
            case .length: 1 << 44  // 16 TiB
            }
        }
    }

    /// A comparison a bound makes.
    enum Comparison: String, CaseIterable, Sendable {
        // Longest first: `<=` is read before `<`.
        case atMost = "<="
        case atLeast = ">="
        case below = "<"
        case above = ">"
        case exactly = "="
    }

    /// `height<=480`: the attribute, the comparison, the value.
    struct Bound: Equatable, Sendable {
        var attribute: Attribute
        var comparison: Comparison
        var value: Int64

        /// Whether `actual` is within the bound.
        func holds(_ actual: Int64) -> Bool {
            switch comparison {
            case .atMost: actual <= value
            case .atLeast: actual >= value
            case .below: actual < value
            case .above: actual > value
            case .exactly: actual == value
            }
        }
    }

    /// The media type (`video/mp4`) or codec or subtype (`opus`) a file must have; nil: any.
    var type: String?
    /// Every bound a file must be within.
    var bounds: [Bound] = []
    /// `smallest` (true) or `largest` (false) by length; nil: neither.
    var smallest: Bool?

    /// The preference `text` says (lower case, no spaces: as `ShowSettings.checkPrefer` writes it), or nil when it
    /// says none.
    init?(_ text: String) {
        guard let parsed = try? Self.parse(text) else { return nil }
        self = parsed
    }

    private init() {}

    /// The preference `text` says (lower case, no spaces), or what is wrong with it, naming the part.
    static func parse(_ text: String) throws(SettingProblem) -> RenditionPreference {
        var preference = RenditionPreference()
        let parts = text.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        for part in parts {
            if part == "smallest" || part == "largest" {
                guard preference.smallest == nil else { throw .invalid("\(text) says smallest or largest twice") }
                preference.smallest = part == "smallest"
            } else if let comparison = Comparison.allCases.first(where: { part.contains($0.rawValue) }) {
                preference.bounds.append(try bound(part, comparison))
            } else {
                guard preference.type == nil, isType(part) else {
                    throw .invalid(
                        "\(part.isEmpty ? "an empty part" : part) is not a media type, a codec, smallest, largest "
                            + "or a bound such as height<=480")
                }
                preference.type = part
            }
        }
        return preference
    }

    /// `height<=480` read, or what is wrong with it.
    private static func bound(_ part: String, _ comparison: Comparison) throws(SettingProblem) -> Bound {
        let sides = part.components(separatedBy: comparison.rawValue)
        guard sides.count == 2, let attribute = Attribute(rawValue: sides[0]) else {
            throw .invalid("\(part) bounds none of height, bitrate or length")
        }
        guard let value = number(sides[1], scaled: attribute != .height), value > 0, value <= attribute.ceiling
        else {
            throw .invalid(
                "\(part) needs a whole number above 0 and at most \(attribute.ceiling)"
                    + (attribute == .height ? "" : " (k, m or g for thousands, millions, billions)"))
        }
        return Bound(attribute: attribute, comparison: comparison, value: value)
    }

    /// `text` as a whole number, with a decimal `k`, `m` or `g` when `scaled`; nil when it is none or too large.
    private static func number(_ text: String, scaled: Bool) -> Int64? {
        var digits = Substring(text)
        var factor: Int64 = 1
        if scaled, let last = digits.last, let scale = ["k": 1_000, "m": 1_000_000, "g": 1_000_000_000][last] {
            factor = Int64(scale)
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ ("0"..."9").contains($0) }),
            let value = Int64(digits)
        else { return nil }
        let (scaledValue, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? nil : scaledValue
    }

    /// Whether `part` is a media type (`audio/opus`) or a bare token (`opus`): letters, digits and `+-.`.
    private static func isType(_ part: String) -> Bool {
        let halves = part.split(separator: "/", omittingEmptySubsequences: false)
        return halves.count <= 2
            && halves.allSatisfy { half in
                !half.isEmpty
                    && half.unicodeScalars.allSatisfy {
                        CharacterSet.alphanumerics.contains($0) || "+-.".unicodeScalars.contains($0)
                    }
            }
    }

    /// The attribute whose value orders the files this preference matches: length for `smallest`/`largest`, else
    /// the first bound's; nil: the feed's order.
    var orderedBy: Attribute? { smallest != nil ? .length : bounds.first?.attribute }

    /// Whether `rendition` matches: of the type, and with every attribute a bound or `smallest`/`largest` needs, each
    /// within its bounds.
    func matches(_ rendition: Rendition) -> Bool {
        if let type, !Self.names(type, type: rendition.type, codecs: rendition.codecs) { return false }
        if smallest != nil, rendition[.length] == nil { return false }
        return bounds.allSatisfy { bound in rendition[bound.attribute].map(bound.holds) ?? false }
    }

    /// Whether `first` comes before `second` among the files this preference matches (both match): the smaller
    /// first for `smallest`, `<=` and `<`; the larger first for `largest`; the one nearer the bound for `>=` and `>`.
    /// Equal (or no order): false, so the feed's order stays.
    func comesBefore(_ first: Rendition, _ second: Rendition) -> Bool {
        guard let attribute = orderedBy, let one = first[attribute], let other = second[attribute] else { return false }
        let ascending: Bool
        if let smallest {
            ascending = smallest
        } else {
            switch bounds.first?.comparison {
            case .atLeast, .above: ascending = true
            default: ascending = false
            }
        }
        return ascending ? one < other : one > other
    }

    /// Whether `preference` (a bare token or a media type) names `type` (parameters aside), or, as a bare token, one
    /// of `codecs` (`mp4a.40.2` is `mp4a` too) or the subtype of `type` (`opus` is `audio/opus`, `flac` is
    /// `audio/x-flac`).
    static func names(_ preference: String, type: String?, codecs: String?) -> Bool {
        let wanted = preference.lowercased()
        let bare = type.map(MediaTypes.bare)
        if wanted.contains("/") { return bare == wanted }
        let listed = (codecs ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        if listed.contains(where: { $0 == wanted || $0.hasPrefix(wanted + ".") }) { return true }
        let subtype = bare?.split(separator: "/", maxSplits: 1).dropFirst().first.map(String.init)
        return subtype == wanted || subtype == "x-" + wanted
    }
}

/// What `--prefer` knows of one file of an episode: its type and codecs, and its height, bitrate and length where the
/// feed gives a real value (see `RenditionPreference.Attribute.ceiling`).
struct Rendition: Equatable, Sendable {
    var type: String?
    var codecs: String?
    private var values: [RenditionPreference.Attribute: Int64] = [:]

    /// The file the feed describes as `alternate`.
    init(_ alternate: AlternateEnclosure) {
        self.init(
            type: alternate.type, codecs: alternate.codecs, height: alternate.height.map(Int64.init),
            bitrate: Self.whole(alternate.bitrate), length: alternate.length)
    }

    /// The enclosure of `episode`: its type and length, and what the alternate marked `default` says of it.
    init(enclosureOf episode: Episode) {
        let described = episode.alternates.first(where: \.isDefault)
        self.init(
            type: episode.mimeType ?? described?.type, codecs: described?.codecs,
            height: described?.height.map(Int64.init),
            bitrate: Self.whole(described?.bitrate),
            length: episode.length ?? described?.length)
    }

    init(type: String?, codecs: String?, height: Int64?, bitrate: Int64?, length: Int64?) {
        self.type = type
        self.codecs = codecs
        let given: [(RenditionPreference.Attribute, Int64?)] = [
            (.height, height), (.bitrate, bitrate), (.length, length),
        ]
        for (attribute, value) in given {
            if let value, value > 0, value <= attribute.ceiling { values[attribute] = value }
        }
    }

    /// `bitrate` as a whole number, when it is a finite one an `Int64` holds.
    private static func whole(_ bitrate: Double?) -> Int64? {
        guard let bitrate, bitrate.isFinite, abs(bitrate) < 1e18 else { return nil }
        return Int64(bitrate.rounded())
    }

    /// The value of `attribute`, when the feed gives a real one.
    subscript(_ attribute: RenditionPreference.Attribute) -> Int64? { values[attribute] }
}
