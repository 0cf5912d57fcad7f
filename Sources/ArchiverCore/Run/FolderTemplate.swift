// `--folder-name` templates: what the folder of a show seen for the first time is called. One folder level only
// (a show's folder is a name in the archive's root), filled in and then made one safe name, as each part of a
// `--name` template is; a show already archived keeps its folder.
import Foundation

/// A show-folder template such as `{author} - {title}`.
public struct FolderTemplate: Sendable, Equatable {
    /// The values a folder template can use.
    enum Field: String, CaseIterable {
        /// The feed's title (else a name made of its URL).
        case title
        /// Who makes the show (`itunes:author`, JSON Feed's first author); empty when the feed does not say.
        case author
        /// The feed URL's host (`feeds.example.com`); empty for a feed read from a file.
        case host
    }

    /// The template as the user wrote it.
    public let text: String
    /// The fields and the literal text between them, in order (a field is `nil` text).
    private let pieces: [(field: Field?, text: String)]

    public static func == (lhs: FolderTemplate, rhs: FolderTemplate) -> Bool { lhs.text == rhs.text }

    /// The template podarchive uses without `--folder-name`: the feed's title.
    public static let standard = try! FolderTemplate("{title}")

    /// Parses `text`.
    /// - Throws: `NameTemplateError` naming what is wrong and the template.
    public init(_ text: String) throws {
        self.text = text
        func fail(_ problem: String) -> NameTemplateError {
            NameTemplateError(template: text, problem: problem, kind: "folder template")
        }
        guard !text.contains("/") else { throw fail("a show's folder is one name: it cannot hold '/'") }
        var pieces: [(field: Field?, text: String)] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { pieces.append((nil, String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else { throw fail("it has a '{' without '}'") }
            let name = rest[rest.index(after: open)..<close]
            guard let field = Field(rawValue: String(name)) else {
                let known = Field.allCases.map { "{\($0.rawValue)}" }.joined(separator: " ")
                throw fail("it has an unknown field {\(name)}; the fields are \(known)")
            }
            pieces.append((field, ""))
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { pieces.append((nil, String(rest))) }
        guard pieces.contains(where: { $0.field != nil }) else {
            throw fail("it has no field, so every show would get the same folder")
        }
        guard !pieces.contains(where: { $0.field == nil && $0.text.contains("}") }) else {
            throw fail("it has a '}' without '{'")
        }
        self.pieces = pieces
    }

    /// The folder name for `feed` read from `source` (before any counter): filled in, folded to ASCII with
    /// `ascii`, made safe. A field with no value takes the literal text beside it along (`{author} - {title}` is
    /// just the title without an author); when nothing is left, the feed's title, else a name made of its URL.
    public func name(for feed: Feed, source: FeedSource, ascii: Bool) -> String {
        let fallback = ArchiveNames.fallbackTitle(for: source)
        let values = pieces.map { piece -> String? in
            switch piece.field {
            case nil: return nil
            case .title: return feed.title.flatMap { FileNamer.sanitize($0).isEmpty ? nil : $0 } ?? fallback
            case .author: return feed.author ?? ""
            case .host:
                guard case .remote(let url) = source else { return "" }
                return url.host ?? ""
            }
        }
        func filled(_ index: Int) -> Bool { values.indices.contains(index) ? values[index] != "" : true }
        var text = ""
        for (index, piece) in pieces.enumerated() {
            if piece.field != nil {
                text += values[index] ?? ""
            } else if filled(index - 1), filled(index + 1) {
                text += piece.text
            }
        }
        func safe(_ text: String) -> String { FileNamer.sanitize(ascii ? FileNamer.ascii(text) : text) }
        let name = safe(text)
        if !name.isEmpty { return name }
        let title = safe(feed.title ?? "")
        return title.isEmpty ? safe(fallback) : title
    }
}
