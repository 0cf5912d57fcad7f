// How command results read: the episode table, the JSON for `list --json`, and sync's lines.
import ArchiverCore
import Foundation

enum ListFormatter {
    /// The object `list --json` prints (see `podarchive help list`).
    static func json(_ feed: Feed) -> String {
        var text = "{\"title\": \(JSONText.string(feed.title)), \"episodes\": ["
        for (position, episode) in feed.episodes.enumerated() {
            if position > 0 { text += ", " }
            text += "\n  {\"title\": \(JSONText.string(episode.title)), \"guid\": \(JSONText.string(episode.guid)), "
            text += "\"url\": \(JSONText.string(episode.url)), \"type\": \(JSONText.string(episode.mimeType)), "
            text += "\"length\": \(episode.length.map { String($0) } ?? "null"), "
            text += "\"published\": \(JSONText.string(episode.published.map(FeedDate.iso8601)))}"
        }
        text += feed.episodes.isEmpty ? "]}\n" : "\n]}\n"
        return text
    }

    /// A readable table: date, size and title of each episode.
    static func table(_ feed: Feed) -> String {
        let count = feed.episodes.count
        var text = "\(feed.title ?? "(untitled feed)"): \(count) episode\(count == 1 ? "" : "s")\n"
        for episode in feed.episodes {
            let date = episode.published.map(FeedDate.day) ?? "----------"
            let size = episode.length.map(SyncFormatter.size) ?? ""
            let padded = String(repeating: " ", count: max(0, 9 - size.count)) + size
            text += "\(date)  \(padded)  \(SyncFormatter.oneLine(episode.title ?? "(untitled)"))\n"
        }
        return text
    }
}

enum SyncFormatter {
    static func summary(_ report: SyncReport) -> String {
        var parts = ["\(report.archived.count) archived"]
        if !report.failed.isEmpty { parts.append("\(report.failed.count) failed") }
        parts.append("\(report.alreadyArchived) already archived")
        let unchanged = report.feedUnchanged ? " (feed unchanged)" : ""
        return "\(oneLine(report.feedTitle)): " + parts.joined(separator: ", ") + unchanged
    }

    static func failureLine(_ episode: Episode, _ failure: EpisodeFailure) -> String {
        "episode \"\(oneLine(episode.title ?? "(untitled)"))\" <\(episode.url)>: \(failure.reason)"
    }

    static func relative(_ file: URL, to root: URL) -> String {
        let rootPath = root.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        return path.hasPrefix(rootPath + "/") ? String(path.dropFirst(rootPath.count + 1)) : path
    }

    /// Sizes as people read them: 980 B, 12.3 MB, 1.2 GB (powers of 1000).
    static func size(_ bytes: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000, unit < units.count - 1 {
            value /= 1000
            unit += 1
        }
        return unit == 0 ? "\(bytes) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// Keeps messages to one line whatever a feed put in a title.
    static func oneLine(_ text: String) -> String {
        String(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : Character($0) })
    }
}

enum VerifyFormatter {
    static func path(_ problem: VerifyProblem, root: URL) -> String {
        SyncFormatter.relative(problem.folder.appendingPathComponent(problem.file), to: root)
    }

    static func line(_ problem: VerifyProblem, root: URL) -> String {
        let name = path(problem, root: root)
        switch problem.kind {
        case .missing: return "missing  \(name)"
        case .resized(let actual, let recorded): return "resized  \(name): \(actual) bytes, the index says \(recorded)"
        case .changed: return "changed  \(name): SHA-256 differs from the index"
        }
    }

    static func summary(_ report: VerifyReport) -> String {
        let feeds = report.feeds == 1 ? "1 feed" : "\(report.feeds) feeds"
        var text = "verified \(report.files) file\(report.files == 1 ? "" : "s") in \(feeds): "
        text +=
            report.problems.isEmpty
            ? "all intact" : "\(report.problems.count) problem\(report.problems.count == 1 ? "" : "s")"
        if !report.repaired.isEmpty { text += ", \(report.repaired.count) repaired" }
        return text
    }
}

/// Minimal JSON string encoding for output written by hand.
enum JSONText {
    static func string(_ value: String?) -> String {
        guard let value else { return "null" }
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
