// What `list --archived` prints: a show as its archive holds it, episodes the feed no longer lists marked.
import Foundation

extension ListFormatter {
    /// One line per archived episode, newest first (undated ones last, in the order archived), as the site and
    /// podcast apps list them: date, size, title, file; removed-upstream ones marked, with when.
    public static func archivedTable(title: String, _ unordered: [ArchiveIndex.Entry]) -> String {
        let episodes = unordered.enumerated().sorted { lhs, rhs in
            switch (
                lhs.element.published.flatMap(FeedDate.parseRFC3339),
                rhs.element.published.flatMap(FeedDate.parseRFC3339)
            ) {
            case (let left?, let right?): return left != right ? left > right : lhs.offset < rhs.offset
            case (_?, nil): return true
            case (nil, _?): return false
            case (nil, nil): return lhs.offset < rhs.offset
            }
        }.map(\.element)
        let removed = episodes.count { $0.removedUpstream != nil }
        var text =
            "\(SyncFormatter.oneLine(title)): \(episodes.count) archived episode\(episodes.count == 1 ? "" : "s")"
        text += removed > 0 ? ", \(removed) removed upstream" : ""
        for state in AwayRecord.State.allCases {
            let count = episodes.count { $0.away?.state == state }
            if count > 0 { text += ", \(count) \(awayWords(state))" }
        }
        text += "\n"
        for entry in episodes {
            let date = entry.published.map { String($0.prefix(10)) } ?? "----------"
            let size = SyncFormatter.size(entry.size)
            let padded = String(repeating: " ", count: max(0, 9 - size.count)) + size
            var line = "\(date)  \(padded)  \(SyncFormatter.oneLine(entry.title ?? "(untitled)"))  [\(entry.file)]"
            if let since = entry.removedUpstream {
                line += "  removed upstream (not in the feed since \(since.prefix(10))"
                line += entry.lastSeen.map { "; last seen \($0.prefix(10)))" } ?? ")"
            }
            if let away = entry.away { line += "  " + awayNote(away) }
            text += line + "\n"
        }
        return text
    }

    /// How an episode away on purpose is counted: `offloaded`, `deleted by retention`, `handed off by a hook`.
    static func awayWords(_ state: AwayRecord.State) -> String {
        switch state {
        case .offloaded: "offloaded"
        case .deleted: "deleted by retention"
        case .handedOff: "handed off by a hook"
        }
    }

    /// Where an episode away on purpose is: `offloaded to /mnt/cold/Show on 2026-11-29`.
    static func awayNote(_ away: AwayRecord) -> String {
        let day = away.since.prefix(10)
        return switch away.state {
        case .offloaded: "offloaded to \(away.into ?? "?") on \(day)"
        case .deleted: "deleted by retention on \(day)"
        case .handedOff: "handed off by a hook on \(day)"
        }
    }

    /// `{"title", "episodes": [{"title", "guid", "url", "file", "size", "sha256", "published", "archived",
    /// "removedUpstream", "lastSeen", "away": null or {"state", "since", "into"}}]}`, in index order.
    public static func archivedJSON(title: String, _ episodes: [ArchiveIndex.Entry]) -> String {
        var out = JSONWriter()
        out.raw("{\"title\": ")
        out.string(title)
        out.raw(", \"episodes\": [")
        for (position, entry) in episodes.enumerated() {
            out.raw(position == 0 ? "\n  {\"title\": " : ",\n  {\"title\": ")
            out.string(entry.title)
            out.raw(", \"guid\": ")
            out.string(entry.guid)
            out.raw(", \"url\": ")
            out.string(entry.url)
            out.raw(", \"file\": ")
            out.string(entry.file)
            out.raw(", \"size\": ")
            out.number(entry.size)
            out.raw(", \"sha256\": ")
            out.string(entry.sha256)
            out.raw(", \"published\": ")
            out.string(entry.published)
            out.raw(", \"archived\": ")
            out.string(entry.archived)
            out.raw(", \"removedUpstream\": ")
            out.string(entry.removedUpstream)
            out.raw(", \"lastSeen\": ")
            out.string(entry.lastSeen)
            out.raw(", \"away\": ")
            if let away = entry.away {
                out.raw("{\"state\": ")
                out.string(away.state.rawValue)
                out.raw(", \"since\": ")
                out.string(away.since)
                out.raw(", \"into\": ")
                out.string(away.into)
                out.raw("}")
            } else {
                out.raw("null")
            }
            out.raw("}")
        }
        out.raw(episodes.isEmpty ? "]}\n" : "\n]}\n")
        return out.text
    }
}

extension VerifyFormatter {
    /// `N episodes asked upstream: X still online, Y only in this archive, Z without an answer`.
    public static func upstreamSummary(_ report: UpstreamReport) -> String {
        let count = report.checks.count
        return "\(count) episode\(count == 1 ? "" : "s") asked upstream: \(report.online) still online, "
            + "\(report.gone.count) only in this archive, \(report.unknown) without an answer\n"
    }

    /// The `verify --upstream --json` object.
    public static func upstreamJSON(_ report: UpstreamReport, root: URL) -> String {
        var out = JSONWriter()
        out.raw("{\"checked\": \(report.checks.count), \"online\": \(report.online), ")
        out.raw("\"gone\": \(report.gone.count), \"unknown\": \(report.unknown), \"episodes\": [")
        for (position, check) in report.checks.enumerated() {
            out.raw(position == 0 ? "\n  {\"folder\": " : ",\n  {\"folder\": ")
            out.string(SyncFormatter.relative(check.folder, to: root))
            out.raw(", \"file\": ")
            out.string(check.file)
            out.raw(", \"title\": ")
            out.string(check.title)
            out.raw(", \"url\": ")
            out.string(check.url)
            switch check.state {
            case .online: out.raw(", \"state\": \"online\", \"reason\": null}")
            case .gone(let reason):
                out.raw(", \"state\": \"gone\", \"reason\": ")
                out.string(reason)
                out.raw("}")
            case .unknown(let reason):
                out.raw(", \"state\": \"unknown\", \"reason\": ")
                out.string(reason)
                out.raw("}")
            }
        }
        out.raw(report.checks.isEmpty ? "]}\n" : "\n]}\n")
        return out.text
    }
}
