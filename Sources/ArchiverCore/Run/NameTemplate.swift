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
        /// The publication date as YYYY-MM-DD (UTC); empty when the feed gives none.
        case date
        /// The feed's title.
        case feed
        /// The iTunes episode number; empty when the feed gives none.
        case episode
        /// The iTunes season number; empty when the feed gives none.
        case season
        /// A short, stable hash of the episode's GUID (else its URL): 8 hexadecimal digits.
        case guid

        var isNumeric: Bool { self == .episode || self == .season }
    }

    enum Piece: Sendable, Equatable {
        case literal(String)
        /// A field, zero-padded to `width` digits when given (`{episode:03}`).
        case field(Field, width: Int?)
    }

    /// The template as the user wrote it.
    public let text: String
    /// The pieces of each `/`-separated part.
    let parts: [[Piece]]

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
            var width: Int?
            if nameAndFormat.count == 2 {
                let format = nameAndFormat[1]
                guard field.isNumeric, format.count >= 2, format.first == "0", let digits = Int(format.dropFirst()),
                    (1...9).contains(digits)
                else {
                    throw fail(
                        "{\(body)} has an unknown format; only {episode} and {season} take one, as in {episode:03}")
                }
                width = digits
            }
            if !literal.isEmpty { pieces.append(.literal(literal)) }
            literal = ""
            pieces.append(.field(field, width: width))
            index = part.index(after: close)
        }
        if !literal.isEmpty { pieces.append(.literal(literal)) }
        return pieces
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
                guard case .field(let field, let width) = piece else { return nil }
                return Self.value(of: field, width: width, episode, feedTitle)
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
            let name = FileNamer.sanitize(text, maximumBytes: isLast ? 200 : FileNamer.maximumNameBytes)
            if !name.isEmpty { names.append(name) } else if isLast { names.append(ArchiveNames.stem(for: episode)) }
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

    private static func value(of field: Field, width: Int?, _ episode: Episode, _ feedTitle: String) -> String {
        func padded(_ number: Int?) -> String {
            guard let number else { return "" }
            let digits = String(number)
            guard let width, digits.count < width, number >= 0 else { return digits }
            return String(repeating: "0", count: width - digits.count) + digits
        }
        switch field {
        case .title: return ArchiveNames.stem(for: episode)
        case .date: return episode.published.map { String(FeedDate.iso8601($0).prefix(10)) } ?? ""
        case .feed: return feedTitle
        case .episode: return padded(episode.episodeNumber)
        case .season: return padded(episode.seasonNumber)
        case .guid: return String(StableName.of(episode.identity).prefix(8))
        }
    }
}

/// A `--name` template podarchive cannot use.
public struct NameTemplateError: Error, Equatable, Sendable, LocalizedError {
    /// The template as given.
    public var template: String
    /// What is wrong with it, for people.
    public var problem: String

    public var errorDescription: String? { "name template '\(template)' cannot be used: \(problem)" }
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
