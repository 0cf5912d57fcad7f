// `--name` templates: how an episode's file is named (and, with `/`, in which subfolder of the feed folder).
//
// A template is checked once, before anything is fetched: unknown fields, unbalanced braces and parts that could
// leave the feed folder (`/x`, `a//b`, `..`) are errors. Each `/`-separated part is filled in and then sanitised
// as one name, so a field's value can never add a folder level or climb out: a title of `../../x` becomes `x`.
import Foundation

/// A file-name template such as `{date} {title}` or `Season {season}/{episode:03} {title}`.
public struct NameTemplate: Sendable, Equatable {
    /// The values a template can use.
    public enum Field: String, Sendable, CaseIterable {
        /// The episode title (else the enclosure's file name, else its GUID).
        case title
        /// The publication date as YYYY-MM-DD (UTC), or as a format says (`{date:%Y.%m.%d}`); empty when the feed
        /// gives none.
        case date
        /// The feed's title.
        case feed
        /// The iTunes episode number; empty when the feed gives none.
        case episode
        /// The iTunes season number; empty when the feed gives none.
        case season
        /// A short, stable hash of the episode's GUID (else its URL): 8 hexadecimal digits.
        case guid
        /// The publication year, month (01-12) and day (01-31), UTC; empty when the feed gives no date.
        case year, month, day
        /// The episode's number in the archive: given once, when podarchive first sees the episode (a back
        /// catalogue, and the episodes of an archive first named so, in publication order), never changed by what
        /// the publisher deletes or renumbers.
        case number

        var isNumeric: Bool { self == .episode || self == .season || self == .number }
    }

    /// How a field is written: zero-padded (`{episode:03}`), or a date by its format (`{date:%Y-%m-%d}`).
    enum Format: Sendable, Equatable {
        case width(Int)
        case date(String)
    }

    enum Piece: Sendable, Equatable {
        case literal(String)
        /// A field, written as `format` says when given.
        case field(Field, format: Format?)
    }

    /// The date codes a `{date:...}` format takes (strftime's, in UTC; month names in English).
    static let dateCodes: Set<Character> = ["Y", "y", "m", "d", "H", "M", "S", "j", "b", "B", "%"]

    /// The template as the user wrote it.
    public let text: String
    /// Names in ASCII only (`--ascii-names`): each filled-in part folded by `FileNamer.ascii` before it is made safe.
    public var ascii = false
    /// The pieces of each `/`-separated part.
    let parts: [[Piece]]
    /// The show's episode numbers, for `{number}`: set for the show being named (see `ShowRecords.numbered`).
    var numbers: EpisodeNumbers?

    /// Whether the template uses `{number}`, so the show's episodes must be numbered before it names one.
    var usesNumbers: Bool {
        parts.joined().contains { if case .field(.number, _) = $0 { return true } else { return false } }
    }

    /// The template podarchive uses without `--name`: the episode title.
    public static let standard = try! NameTemplate("{title}")

    /// Parses `text`.
    /// - Throws: `NameTemplateError` naming what is wrong and the template.
    public init(_ text: String) throws {
        self.text = text
        func fail(_ problem: String) -> NameTemplateError { NameTemplateError(template: text, problem: problem) }
        guard !text.isEmpty else { throw fail("it is empty") }
        guard !text.hasPrefix("/") else { throw fail("it starts with '/'; names stay inside the feed folder") }
        var parts: [[Piece]] = []
        for rawPart in text.split(separator: "/", omittingEmptySubsequences: false) {
            let part = try Self.pieces(of: rawPart, fail: fail)
            let literal = part.allSatisfy { if case .literal = $0 { return true } else { return false } }
            let joined = part.map { if case .literal(let text) = $0 { return text } else { return "" } }.joined()
            if part.isEmpty { throw fail("it has an empty folder name ('//' or a trailing '/')") }
            if literal, FileNamer.sanitize(joined).isEmpty {
                throw fail("the folder name '\(joined)' is not usable ('.', '..' or only spaces and symbols)")
            }
            parts.append(part)
        }
        guard parts.last?.contains(where: { if case .field = $0 { return true } else { return false } }) == true else {
            throw fail("its file name has no field, so every episode would get the same name")
        }
        self.parts = parts
    }

    private static func pieces(
        of part: Substring, fail: (String) -> NameTemplateError
    ) throws -> [Piece] {
        var pieces: [Piece] = []
        var literal = ""
        var index = part.startIndex
        while index < part.endIndex {
            let character = part[index]
            let next = part.index(after: index)
            if character == "{" || character == "}", next < part.endIndex, part[next] == character {
                literal.append(character)  // "{{" and "}}" are literal braces
                index = part.index(after: next)
                continue
            }
            if character == "}" { throw fail("it has a '}' without '{' (write '}}' for a brace)") }
            guard character == "{" else {
                literal.append(character)
                index = next
                continue
            }
            guard let close = part[next...].firstIndex(of: "}") else {
                throw fail("it has a '{' without '}' (write '{{' for a brace)")
            }
            let body = part[next..<close]
            let nameAndFormat = body.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(nameAndFormat[0])
            guard let field = Field(rawValue: name) else {
                let known = Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")
                throw fail("it has an unknown field {\(body)}; the fields are \(known)")
            }
            var format: Format?
            if nameAndFormat.count == 2 {
                format = try Self.format(String(nameAndFormat[1]), of: field, body: body, fail: fail)
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            pieces.append(.field(field, format: format))
            index = part.index(after: close)
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
    }

    /// The format `text` of `field`: a width for a number, strftime's codes for a date.
    private static func format(
        _ text: String, of field: Field, body: Substring, fail: (String) -> NameTemplateError
    ) throws -> Format {
        if field == .date {
            var codes = text.split(separator: "%", omittingEmptySubsequences: false).dropFirst().makeIterator()
            var sawCode = false
            while let after = codes.next() {
                // "%%" splits into an empty piece: the next piece is literal text after a literal %.
                guard let code = after.first else {
                    _ = codes.next()
                    continue
                }
                guard dateCodes.contains(code) else {
                    throw fail(
                        "{\(body)} has an unknown date code %\(code); the codes are %Y %y %m %d %H %M %S %j %b %B %%")
                }
                sawCode = true
            }
            guard sawCode else { throw fail("{\(body)} has no date code, as in {date:%Y-%m-%d}") }
            return .date(text)
        }
        guard field.isNumeric, text.count >= 2, text.first == "0", let digits = Int(text.dropFirst()),
            (1...9).contains(digits)
        else {
            throw fail(
                "{\(body)} has an unknown format; {episode}, {season} and {number} take a width ({episode:03}), {date} "
                    + "a date format ({date:%Y.%m.%d})")
        }
        return .width(digits)
    }

    /// The episode's path inside the feed folder, without the extension: each part filled in and sanitised.
    ///
    /// A field with no value takes the literal text around it along (up to the neighbouring field or the end of
    /// its part): `Season {season}/` makes no folder for an episode without a season, `{episode:03} - {title}`
    /// is just the title without an episode number. Parts that come out empty are left out; when the file name
    /// itself comes out empty, the standard name (the title) is used. A file name ending in an extension
    /// (`{title}.mp3`) loses it: the file gets its real extension, once.
    public func path(for episode: Episode, feedTitle: String) -> (folders: [String], stem: String) {
        var names: [String] = []
        for (position, part) in parts.enumerated() {
            let isLast = position == parts.count - 1
            let values = part.map { piece -> String? in
                guard case .field(let field, let format) = piece else { return nil }
                return Self.value(of: field, format: format, episode, feedTitle, numbers)
            }
            func filled(_ index: Int) -> Bool { values.indices.contains(index) ? values[index] != "" : true }
            var text = ""
            for (index, piece) in part.enumerated() {
                switch piece {
                case .field: text += values[index] ?? ""
                case .literal(var literal):
                    guard filled(index - 1), filled(index + 1) else { continue }
                    if isLast, index == part.count - 1 { literal = Self.droppingExtension(literal) }
                    text += literal
                }
            }
            // The file name leaves room for " (n)" and the extension.
            let name = FileNamer.sanitize(
                ascii ? FileNamer.ascii(text) : text, maximumBytes: isLast ? 200 : FileNamer.maximumNameBytes)
            if !name.isEmpty {
                names.append(name)
            } else if isLast {
                let stem = ArchiveNames.stem(for: episode)
                let folded = ascii ? FileNamer.sanitize(FileNamer.ascii(stem)) : stem
                names.append(folded.isEmpty ? "episode" : folded)
            }
        }
        // A folder never takes a name the site writes in the show's folder (`{title}/` of an episode `feed.xml`).
        if names.count > 1, ArchiveLayout.isReservedInShow(names[0]) {
            names[0] = FileNamer.fileName(stem: names[0], extension: nil, counter: 2)
        }
        let stem = names.removeLast()
        return (names, stem)
    }

    /// What a new file of `episode` is called before any counter. `NameAllocator` counts on from here.
    func newFile(for episode: Episode, feedTitle: String) -> NewFileName {
        let (folders, stem) = path(for: episode, feedTitle: feedTitle)
        let ext = FileNamer.fileExtension(url: episode.url, mimeType: episode.mimeType)
        return NewFileName(prefix: folders.map { $0 + "/" }.joined(), stem: stem, ext: ext)
    }

    /// `.mp3` (a dot and 2 to 4 letters or digits) at the end of the template's last literal, taken away.
    private static func droppingExtension(_ literal: String) -> String {
        guard let dot = literal.lastIndex(of: "."), literal.index(after: dot) < literal.endIndex else { return literal }
        let ext = literal[literal.index(after: dot)...]
        guard (2...4).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            return literal
        }
        return String(literal[..<dot])
    }

    private static func value(
        of field: Field, format: Format?, _ episode: Episode, _ feedTitle: String, _ numbers: EpisodeNumbers?
    ) -> String {
        func padded(_ number: Int?) -> String {
            guard let number else { return "" }
            let digits = String(number)
            guard case .width(let width)? = format, digits.count < width, number >= 0 else { return digits }
            return String(repeating: "0", count: width - digits.count) + digits
        }
        let iso = episode.published.map(FeedDate.iso8601)
        func part(_ range: Range<Int>) -> String {
            guard let iso else { return "" }
            let characters = Array(iso)
            return String(characters[range])
        }
        switch field {
        case .title: return ArchiveNames.stem(for: episode)
        case .date:
            guard case .date(let pattern)? = format else { return part(0..<10) }
            return episode.published.map { formatted($0, pattern) } ?? ""
        case .year: return part(0..<4)
        case .month: return part(5..<7)
        case .day: return part(8..<10)
        case .feed: return feedTitle
        case .episode: return padded(episode.episodeNumber)
        case .season: return padded(episode.seasonNumber)
        case .number: return padded(numbers?.number(of: episode.identity))
        case .guid: return String(StableName.of(episode.identity).prefix(8))
        }
    }
}

extension NameTemplate {
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November",
        "December",
    ]

    /// `date` written by `pattern`'s strftime codes (checked when the template was read), in UTC.
    static func formatted(_ date: Date, _ pattern: String) -> String {
        let iso = Array(FeedDate.iso8601(date))  // YYYY-MM-DDTHH:MM:SSZ
        func text(_ range: Range<Int>) -> String { String(iso[range]) }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let month = min(12, max(1, Int(text(5..<7)) ?? 1))
        var out = ""
        var code = false
        for character in pattern {
            guard code else {
                if character == "%" { code = true } else { out.append(character) }
                continue
            }
            code = false
            switch character {
            case "Y": out += text(0..<4)
            case "y": out += text(2..<4)
            case "m": out += text(5..<7)
            case "d": out += text(8..<10)
            case "H": out += text(11..<13)
            case "M": out += text(14..<16)
            case "S": out += text(17..<19)
            case "j":
                let day = calendar.ordinality(of: .day, in: .year, for: date) ?? 1
                out += String(repeating: "0", count: max(0, 3 - String(day).count)) + String(day)
            case "b": out += String(months[month - 1].prefix(3))
            case "B": out += months[month - 1]
            default: out.append(character)  // "%%"
            }
        }
        return out
    }
}

/// A `--name` template podarchive cannot use.
public struct NameTemplateError: Error, Equatable, Sendable, LocalizedError {
    /// The template as given.
    public var template: String
    /// What is wrong with it, for people.
    public var problem: String
    /// What kind of template it is, for people.
    var kind = "name template"

    public var errorDescription: String? { "\(kind) '\(template)' cannot be used: \(problem)" }
}

/// The name a template gives a new file, before any counter.
struct NewFileName: Equatable {
    /// The subfolders, each followed by `/` (`Season 2/`), or empty.
    var prefix: String
    var stem: String
    /// From the enclosure's URL or type; nil when neither gives one.
    var ext: String?

    /// The name with counter `n`: `Season 2/Pilot.mp3`, then `Season 2/Pilot (2).mp3`...
    func numbered(_ counter: Int) -> String {
        prefix + FileNamer.fileName(stem: stem, extension: ext, counter: counter)
    }

    /// The name before any counter.
    var first: String { numbered(1) }

}

extension NewFileName {
    /// `name`, or when the site writes that name in the show's folder, the first of `name (2)`, `name (3)`... that
    /// it does not: the name a file named after another (a companion beside its episode) gets without a
    /// `NameAllocator`. `cover.jpg` beside `cover.mp3` is `cover (2).jpg`.
    static func allowed(_ name: String) -> String {
        guard ArchiveLayout.isReservedInShow(name) else { return name }
        let parts = NewFileName(parsing: name)
        var counter = 2
        while ArchiveLayout.isReservedInShow(parts.numbered(counter)) { counter += 1 }
        return parts.numbered(counter)
    }

    /// `name` (a path inside the show's folder) taken apart: `Season 1/feed.xml` is `Season 1/`, `feed`, `xml`.
    init(parsing name: String) {
        let slash = name.lastIndex(of: "/")
        let last = slash.map { name[name.index(after: $0)...] } ?? name[...]
        let prefix = slash.map { String(name[...$0]) } ?? ""
        guard let dot = last.lastIndex(of: "."), dot != last.startIndex else {
            self.init(prefix: prefix, stem: String(last), ext: nil)
            return
        }
        self.init(prefix: prefix, stem: String(last[..<dot]), ext: String(last[last.index(after: dot)...]))
    }
}
