// The search across every show, static: `site` writes the data, the root page's own script searches it in the
// browser, no server asked anything. The titles of every episode are one script at the root (`search-index.js`,
// loaded with the page, so titles are found opened as a file too); each show's notes are a script in its folder
// (`search-notes.js`), loaded when the first query is typed; each show's transcripts are JSON
// (`search-transcripts.json`), fetched then when the site is served (a browser fetches nothing from `file://`).
// Every text is data in a JSON string, shown by the script as text, never as markup.
import Foundation

enum SiteSearch {
    /// An episode's anchor on its show's page (`e` and 12 hex digits of its key's SHA-256): the same while it is
    /// archived, whatever else the show gains.
    static func anchor(_ entry: ArchiveIndex.Entry) -> String {
        var hasher = SHA256()
        hasher.update(Data(entry.key.utf8))
        return "e" + hasher.hexDigest().prefix(12)
    }

    /// `<root>/search-index.js`: each show's folder (as a link), title, whether it keeps transcripts, and its
    /// episodes' anchors, titles and days.
    static func index(_ shows: [SiteShow]) -> String {
        var out = "window.podarchiveTitles=[\n"
        for show in shows {
            let transcripts = show.episodes.contains { $0.entry.transcripts.isEmpty == false }
            out += "[\(string(SitePath.href(show.folder.lastPathComponent) + "/")),\(string(show.title)),"
            out += "\(transcripts ? 1 : 0),["
            out += show.episodes.map { episode in
                "[\(string(anchor(episode.entry))),\(string(episode.title)),"
                    + "\(string(episode.published.map(SiteFormat.day) ?? ""))]"
            }.joined(separator: ",")
            out += "]],\n"
        }
        return out + "];\n"
    }

    /// `<show>/search-notes.js`: the words of each episode's notes, by anchor, handed to the root page's script.
    static func notes(_ show: SiteShow) -> String {
        let rows = show.episodes.compactMap { episode -> String? in
            let words = SearchWords.of(SearchWords.text(ofHTML: episode.notes))
            return words.isEmpty ? nil : "[\(string(anchor(episode.entry))),\(string(words))]"
        }
        let folder = string(SitePath.href(show.folder.lastPathComponent) + "/")
        return "window.podarchiveNotes&&podarchiveNotes(\(folder),[\n\(rows.joined(separator: ",\n"))]);\n"
    }

    /// `<show>/search-transcripts.json`: the words of each episode's transcripts (in `folder`), by anchor.
    static func transcripts(_ show: SiteShow, in folder: URL, files: any FileReading) -> String {
        let rows = show.episodes.compactMap { episode -> String? in
            let said = episode.entry.transcripts.compactMap { file in
                files.contents(atPath: folder.appendingPathComponent(file).path).map {
                    SearchWords.transcript($0, file: file)
                }
            }
            let words = SearchWords.of(said.joined(separator: " "))
            return words.isEmpty ? nil : "[\(string(anchor(episode.entry))),\(string(words))]"
        }
        return "[\n\(rows.joined(separator: ",\n"))]\n"
    }

    /// `text` as a JSON string (valid JavaScript too): quotes, backslashes, controls, line and paragraph
    /// separators and `<` escaped.
    static func string(_ text: String) -> String {
        var out = "\""
        out.reserveCapacity(text.utf8.count + 2)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "<": out += "\\u003c"
            case "\n": out += "\\n"
            default:
                if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
                    out += String(format: "\\u%04x", scalar.value)
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }
}

extension ArchiveIndex.Entry {
    /// The files of the transcripts kept with the episode.
    var transcripts: [String] { (companions ?? []).filter { $0.kind == "transcript" }.map(\.file) }
}
