// What the search finds an episode by: the distinct words of its notes and transcripts, folded as the page's
// script folds a query (NFC, lower case), each once, in the order first said. Transcripts are read in the forms
// feeds publish (WebVTT, SRT, Podcasting 2.0 JSON, HTML, plain text), within a size limit; a word of a language
// written without spaces (Japanese) is kept as its whole run, which a query finds as a part of it.
import Foundation

enum SearchWords {
    /// The most of a transcript file read; the rest is not searched.
    static let transcriptLimit = 4 << 20

    /// The distinct words of `text`, folded, joined by spaces.
    static func of(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return ofASCII(text) }
        var seen = Set<String>()
        var words: [String] = []
        var word = String.UnicodeScalarView()
        // Scalar by scalar (a `Character` test costs several times as much): a letter, a mark or a digit is part
        // of a word.
        func end() {
            guard !word.isEmpty else { return }
            let found = String(word)
            if seen.insert(found).inserted { words.append(found) }
            word.removeAll(keepingCapacity: true)
        }
        for scalar in text.precomposedStringWithCanonicalMapping.lowercased().unicodeScalars {
            if scalar.isASCII ? isASCIIWordPart(scalar.value) : isWordPart(scalar.properties) {
                word.append(scalar)
            } else {
                end()
            }
        }
        end()
        return words.joined(separator: " ")
    }

    /// `of` for ASCII text, byte by byte (folding and word tests need no Unicode tables).
    private static func ofASCII(_ text: String) -> String {
        var seen = Set<[UInt8]>()
        var out: [UInt8] = []
        var word: [UInt8] = []
        func end() {
            guard !word.isEmpty else { return }
            if seen.insert(word).inserted {
                if !out.isEmpty { out.append(0x20) }
                out += word
            }
            word.removeAll(keepingCapacity: true)
        }
        for byte in text.utf8 {
            if isASCIIWordPart(UInt32(byte)) {
                word.append((0x41...0x5A).contains(byte) ? byte + 0x20 : byte)
            } else {
                end()
            }
        }
        end()
        return String(decoding: out, as: UTF8.self)
    }

    private static func isASCIIWordPart(_ value: UInt32) -> Bool {
        (0x30...0x39).contains(value) || (0x61...0x7A).contains(value) || (0x41...0x5A).contains(value)
    }

    private static func isWordPart(_ properties: Unicode.Scalar.Properties) -> Bool {
        switch properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark: return true
        default: return properties.isAlphabetic || properties.numericType != nil
        }
    }

    /// The text of HTML (show notes made safe by `ShowNotes`, or a transcript): tags dropped, the references
    /// `HTMLText.escape` writes turned back.
    static func text(ofHTML html: String) -> String {
        var out = String.UnicodeScalarView()
        var inTag = false
        var reference: String.UnicodeScalarView?
        for scalar in html.unicodeScalars {
            if var named = reference {
                // Within `&...;`: the references `HTMLText.escape` writes are turned back, any other kept as is.
                if scalar == ";" {
                    named.append(scalar)
                    out.append(contentsOf: references[String(named)].map { [$0] } ?? Array(named))
                    reference = nil
                    continue
                }
                if named.count < 6, scalar == "#" || isASCIIWordPart(scalar.value) {
                    named.append(scalar)
                    reference = named
                    continue
                }
                out.append(contentsOf: named)
                reference = nil
            }
            if inTag {
                if scalar == ">" { inTag = false }
            } else if scalar == "&" {
                reference = "&".unicodeScalars
            } else if scalar == "<" {
                inTag = true
                out.append(" ")
            } else {
                out.append(scalar)
            }
        }
        if let named = reference { out.append(contentsOf: named) }
        return String(out)
    }

    private static let references: [String: Unicode.Scalar] = [
        "&lt;": "<", "&gt;": ">", "&quot;": "\"", "&#39;": "'", "&amp;": "&",
    ]

    /// What a transcript file says, by its name's extension (`Pilot.en.vtt`, `Pilot.de.json`...).
    static func transcript(_ data: Data, file: String) -> String {
        let said = String(decoding: data.prefix(transcriptLimit), as: UTF8.self)
        let ext = (file as NSString).pathExtension.lowercased()
        switch ext {
        case "vtt", "srt":
            // Cue numbers, timings and the header are no words anyone said; voice tags are dropped with the rest.
            return text(
                ofHTML:
                    said.split(whereSeparator: \.isNewline).filter { line in
                        !line.contains("-->") && !line.hasPrefix("WEBVTT") && !line.allSatisfy(\.isNumber)
                    }.joined(separator: "\n"))
        case "json":
            guard let object = try? JSONSerialization.jsonObject(with: data.prefix(transcriptLimit)) else { return "" }
            var parts: [String] = []
            collect(object, into: &parts, depth: 0)
            return parts.joined(separator: " ")
        default:
            return text(ofHTML: said)
        }
    }

    /// The `body` (or `text`) strings of a JSON transcript's segments, at most 16 levels down.
    private static func collect(_ value: Any, into parts: inout [String], depth: Int) {
        guard depth < 16 else { return }
        if let list = value as? [Any] {
            for item in list { collect(item, into: &parts, depth: depth + 1) }
        } else if let object = value as? [String: Any] {
            for key in ["body", "text"] { if let said = object[key] as? String { parts.append(said) } }
            for (key, item) in object where key != "body" && key != "text" {
                collect(item, into: &parts, depth: depth + 1)
            }
        }
    }
}
