// One text, three renderings: an option's or a command's help is written once, in a light markup, and made here into
// the terminal's plain text, the man page's roff and the completion menus' summary.
//
// The markup:
// - paragraphs are separated by a blank line; the lines of one are joined (and wrapped again where shown);
// - a line indented by two spaces or more is shown as it is, an example (`  source <(podarchive completions bash)`);
// - `` `text` `` is a literal: a command, an option, a file name, a value (plain as it is, bold in the man page);
// - `*text*` is emphasis: a name standing for something, a term (plain as it is, italic in the man page);
// - `<name>` is a placeholder, the value an option or a command takes: shown `<feed>` (or `N`, `DIR` for a name in
//   capitals, as help's option column says it) in the terminal, `feed` (`n`, `dir`) in italics in the man page;
// - a backslash shows the next character as it is (`\*`, `` \` ``, `\<`); any other character is just text.
//
// An option's help in the terminal is its first paragraph; the man page says every paragraph; a completion menu says
// the first clause of the first paragraph (up to a `;`, a `:`, a ` (` or a sentence's end).

/// A text in help's light markup (see the top of this file).
struct HelpMarkup: Equatable, Sendable {
    /// A run of text in one style.
    enum Span: Equatable, Sendable {
        case text(String)
        case literal(String)
        case emphasis(String)
        case placeholder(String)
    }

    /// A paragraph, or example lines shown as they are.
    enum Block: Equatable, Sendable {
        case paragraph([Span])
        case example([String])
    }

    let blocks: [Block]

    init(_ source: String) {
        var blocks: [Block] = []
        var words: [String] = []
        var example: [String] = []
        func close() {
            if !words.isEmpty { blocks.append(.paragraph(Self.spans(words.joined(separator: " ")))) }
            if !example.isEmpty { blocks.append(.example(example)) }
            words = []
            example = []
        }
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.allSatisfy(\.isWhitespace) {
                close()
            } else if line.hasPrefix("  ") {
                if !words.isEmpty { close() }
                example.append(String(line.dropFirst(2)))
            } else {
                if !example.isEmpty { close() }
                words.append(line.trimmingCharacters(in: .whitespaces))
            }
        }
        close()
        self.blocks = blocks
    }

    /// The spans of one paragraph's text.
    static func spans(_ text: String) -> [Span] {
        var spans: [Span] = []
        var plain = ""
        var rest = Substring(text)
        func flush() {
            if !plain.isEmpty { spans.append(.text(plain)) }
            plain = ""
        }
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "\\" where !rest.isEmpty:
                plain.append(rest.removeFirst())
            case "`", "*":
                guard let end = rest.firstIndex(of: character), end != rest.startIndex else {
                    plain.append(character)
                    continue
                }
                flush()
                let inside = String(rest[..<end])
                spans.append(character == "`" ? .literal(inside) : .emphasis(inside))
                rest = rest[rest.index(after: end)...]
            case "<":
                guard let match = rest.prefixMatch(of: /([A-Za-z][A-Za-z0-9 _-]*)>/) else {
                    plain.append(character)
                    continue
                }
                flush()
                spans.append(.placeholder(String(match.output.1)))
                rest = rest[match.range.upperBound...]
            default:
                plain.append(character)
            }
        }
        flush()
        return spans
    }
}

// MARK: - The terminal

extension HelpMarkup {
    /// The plain text of `spans`, as the terminal shows it.
    static func plain(_ spans: [Span]) -> String {
        spans.map { span in
            switch span {
            case .text(let text), .literal(let text), .emphasis(let text): return text
            case .placeholder(let name): return name == name.uppercased() ? name : "<\(name)>"
            }
        }.joined()
    }

    /// Every paragraph wrapped to `width` columns, examples indented as written, a blank line between them.
    func plain(width: Int = 108) -> String {
        blocks.map { block in
            switch block {
            case .paragraph(let spans):
                let words = Self.plain(spans).split(separator: " ").map(String.init)
                return Self.wrap(words, firstLine: "", indent: "", width: width, join: "")
            case .example(let lines):
                return lines.map { "  " + $0 }.joined(separator: "\n")
            }
        }.joined(separator: "\n\n")
    }

    /// `words` on lines of at most `width` characters (a longer word has a line of its own).
    static func wrap(
        _ words: [String], firstLine: String, indent: String, width: Int, join: String = " "
    ) -> String {
        var lines: [String] = []
        var line = firstLine
        var lineHasWord = false
        for word in words {
            let separator = lineHasWord || (join == " " && !line.hasSuffix(" ")) ? " " : ""
            if lineHasWord, line.count + separator.count + word.count > width {
                lines.append(line)
                line = indent + word
            } else {
                line += separator + word
            }
            lineHasWord = true
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The first paragraph on one line: what an option's help column wraps.
    var lead: String {
        guard case .paragraph(let spans) = blocks.first else { return "" }
        return Self.plain(spans)
    }

    /// The first clause of the first paragraph: up to a `;`, a `:`, a ` (` or the end of a sentence, without it.
    var summary: String {
        let lead = self.lead
        let ends = [";", ":", " (", ". "].compactMap { lead.range(of: $0)?.lowerBound }
        let clause = ends.min().map { String(lead[..<$0]) } ?? lead
        return clause.hasSuffix(".") ? String(clause.dropLast()) : clause
    }
}

// MARK: - The man page

extension HelpMarkup {
    /// roff for running text: a backslash printed as one, each hyphen a minus sign (as options and values are
    /// typed), nothing taken for a request or a font change.
    static func roffEscaped(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: #"\e"#).replacingOccurrences(of: "-", with: #"\-"#)
    }

    /// The roff of `spans`, one sentence a line (as roff wants, so it ends sentences as sentences), no line read as a
    /// request.
    static func roff(_ spans: [Span]) -> String {
        let text = spans.map { span in
            switch span {
            case .text(let text): return roffEscaped(text)
            case .literal(let text): return #"\fB"# + roffEscaped(text) + #"\fR"#
            case .emphasis(let text): return #"\fI"# + roffEscaped(text) + #"\fR"#
            case .placeholder(let name): return #"\fI"# + roffEscaped(name.lowercased()) + #"\fR"#
            }
        }.joined()
        return text.replacing(/([.?!]) +(?=[A-Z]|\\f|\\-)/) { "\($0.output.1)\n" }
            .split(separator: "\n").map { line in
                let line = line.trimmingCharacters(in: .whitespaces)
                return line.hasPrefix(".") || line.hasPrefix("'") ? #"\&"# + line : line
            }.joined(separator: "\n")
    }

    /// The man page's text: each paragraph (the first with a capital and a full stop, as the man page writes
    /// sentences), `.IP` between them, so they keep the indent of the heading they are under; examples unfilled.
    var roff: String {
        blocks.enumerated().map { index, block in
            switch block {
            case .paragraph(var spans):
                if index == 0 { spans = Self.sentence(spans) }
                return (index == 0 ? "" : ".IP\n") + Self.roff(spans)
            case .example(let lines):
                let shown = lines.map { line in
                    let line = Self.roffEscaped(line)
                    return line.hasPrefix(".") || line.hasPrefix("'") || line.hasPrefix(" ") ? #"\&"# + line : line
                }
                return ".IP\n.nf\n" + shown.joined(separator: "\n") + "\n.fi"
            }
        }.joined(separator: "\n")
    }

    /// `spans` starting with a capital and ending with a full stop.
    static func sentence(_ spans: [Span]) -> [Span] {
        var spans = spans
        if case .text(let first)? = spans.first, let letter = first.first {
            spans[0] = .text(letter.uppercased() + first.dropFirst())
        }
        if case .text(let last)? = spans.last {
            if !last.hasSuffix("."), !last.hasSuffix("!"), !last.hasSuffix("?"), !last.hasSuffix(":") {
                spans[spans.count - 1] = .text(last + ".")
            }
        } else {
            spans.append(.text("."))
        }
        return spans
    }
}
