// What podarchive prints, in two kinds of parts: text, which may hold anything a feed, a page or a directory said,
// and podarchive's own terminal control (colours, clearing the live area). The output made inert at the one place
// everything printed passes (`RedactingOutput`): text loses every control and bidi character, so a title cannot
// move the cursor, clear the screen, ring the bell or reorder a line; control passes as written.
import ArchiverCore
import Foundation

/// A line (or lines) to print: text and podarchive's own control sequences.
struct Printed: Sendable, Equatable {
    /// A part: text (made inert where printed) or a control sequence of podarchive's own.
    enum Part: Sendable, Equatable {
        case text(String)
        case control(String)
    }

    var parts: [Part]

    /// `text` alone.
    init(_ text: String) { parts = [.text(text)] }

    init(parts: [Part]) { self.parts = parts }

    /// A control sequence of podarchive's own (never text that came from elsewhere).
    static func control(_ sequence: String) -> Printed { Printed(parts: [.control(sequence)]) }

    /// `text` in the SGR style `code` (`1` bold, `31` red, `32` green) where `on`, else plain.
    static func styled(_ text: String, _ code: String, on: Bool) -> Printed {
        on ? Printed(parts: [.control("\u{1B}[\(code)m"), .text(text), .control("\u{1B}[0m")]) : Printed(text)
    }

    static func + (left: Printed, right: Printed) -> Printed { Printed(parts: left.parts + right.parts) }
    static func + (left: Printed, right: String) -> Printed { left + Printed(right) }
    static func + (left: String, right: Printed) -> Printed { Printed(left) + right }

    /// Every part as written, text untouched (for outputs that only keep or pass on what they get).
    var raw: String {
        parts.map {
            switch $0 {
            case .text(let text): text
            case .control(let sequence): sequence
            }
        }.joined()
    }
}

/// Text made inert for a terminal.
enum InertText {
    /// `text` without the characters `UnprintableText` names: a feed's title or a directory's answer printed can
    /// neither drive the terminal nor show a line in another order than its bytes.
    static func of(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: UnprintableText.contains) else { return text }
        var kept = String.UnicodeScalarView()
        kept.append(contentsOf: text.unicodeScalars.lazy.filter { !UnprintableText.contains($0) })
        return String(kept)
    }
}
