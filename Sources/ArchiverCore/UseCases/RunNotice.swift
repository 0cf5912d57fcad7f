// What an unattended run tells once it has ended (`--notify URL`, `--exec-after-run CMD`): one summary of the whole
// run (every show), as JSON or as an ntfy-style plain text, built here and nowhere else. The summary names shows,
// episode titles, files and reasons, never a URL: what a feed or the command line holds of a secret stays out of it,
// and the whole body passes the one redaction rule (`TextSecrets`) as every printed line does.
import Foundation

extension SyncRequest {
    /// What to tell once the run has ended, and whom: from the command line or the configuration file only, never
    /// saved with a show or the archive (as `--exec`).
    public struct Notice: Sendable, Equatable {
        /// When a notification is sent.
        public enum When: String, Sendable, CaseIterable {
            /// The run's status is not success (episodes or feeds failed, the archive, interrupted).
            case failure
            /// Something was archived, or something failed.
            case new
            /// After every run.
            case always
        }

        /// How the body is written.
        public enum Format: String, Sendable, CaseIterable {
            /// `application/json`, the schema `RunSummary.json` writes.
            case json
            /// Plain text with a `Title` header, as ntfy takes it.
            case text
        }

        /// Where the summary is posted; nil for none.
        public var url: URL?
        /// When it is posted (the command is run after every run).
        public var when: When = .failure
        /// The body's form.
        public var format: Format = .json
        /// Seconds the post may take, connection included.
        public var timeout: TimeInterval = Notice.defaultTimeout
        /// Run once after the run with the JSON summary on its standard input (`--exec-after-run`).
        public var command: EpisodeHook?

        /// `--notify-timeout`'s default.
        public static let defaultTimeout: TimeInterval = 10

        /// Nothing to tell.
        public init() {}

        /// Whether a run that came to `summary` is told, by `when`.
        func wants(_ summary: RunSummary) -> Bool {
            switch when {
            case .always: true
            case .failure: summary.status != .success
            case .new: summary.status != .success || !summary.archived.isEmpty
            }
        }
    }
}

/// What a run came to, as a notification tells it: episodes archived, failed and gone upstream, the shows that
/// failed, and the exit status. Lists past `shown` entries are cut, their count kept.
struct RunSummary: Sendable {
    struct Item: Sendable {
        var show: String
        var title: String
        /// The file archived (relative to the root), why it failed, or since when it has been gone.
        var detail: String
    }

    var status: RunStatus
    var archived: [Item] = []
    var failed: [Item] = []
    var gone: [Item] = []
    /// Shows that failed as a whole: the show, and the reason.
    var showsFailed: [Item] = []

    /// Entries of each list the body holds at most (a notification is read on a phone; ntfy keeps 4 KB).
    static let shown = 100

    init(_ report: SyncRunReport, root: URL) {
        status = report.status
        for outcome in report.outcomes ?? [] {
            switch outcome.result {
            case .synced(let show):
                let name = show.feedTitle
                archived += show.archived.map { Item(show: name, title: "", detail: Self.relative($0, root)) }
                failed += show.failed.map { Item(show: name, title: $0.episode.title ?? "", detail: $0.failure.reason) }
                gone += show.gone.map { Item(show: name, title: $0.episode.title ?? "", detail: $0.since) }
            case .failed(let error):
                showsFailed.append(
                    Item(show: outcome.feed, title: "", detail: Self.oneLine(error.localizedDescription)))
            case .interrupted:
                showsFailed.append(Item(show: outcome.feed, title: "", detail: "interrupted"))
            case .planned, .subscribed:
                break
            }
        }
    }

    /// The JSON body: `{"podarchive": 1, "status", "exit", "archived": [{"show", "file"}], "failed":
    /// [{"show", "title", "reason"}], "gone": [{"show", "title", "since"}], "showsFailed": [{"show", "reason"}],
    /// "more": {"archived", "failed", "gone", "showsFailed"}}`, redacted.
    var json: String {
        var out = JSONWriter()
        out.raw("{\"podarchive\": 1, \"status\": ")
        out.string(Self.word(status))
        out.raw(", \"exit\": \(status.rawValue)")
        list(&out, "archived", archived, detail: "file", titled: false)
        list(&out, "failed", failed, detail: "reason")
        list(&out, "gone", gone, detail: "since")
        list(&out, "showsFailed", showsFailed, detail: "reason", titled: false)
        out.raw(", \"more\": {\"archived\": \(more(archived)), \"failed\": \(more(failed)), ")
        out.raw("\"gone\": \(more(gone)), \"showsFailed\": \(more(showsFailed))}}\n")
        return TextSecrets.redactingURLs(in: out.text)
    }

    /// The plain-text body: a first line counting, then a line for each entry, redacted.
    var text: String {
        var lines = [title]
        func add(_ items: [Item], _ label: String, _ line: (Item) -> String) {
            lines += items.prefix(Self.shown).map { "\(label): \(line($0))" }
            if more(items) > 0 { lines.append("\(label): \(more(items)) more") }
        }
        // (The show may be a URL: a space, not a colon, ends it, as the redaction rule reads URLs in text.)
        add(showsFailed, "show failed") { "\($0.show) — \($0.detail)" }
        add(failed, "failed") { "\($0.show): \($0.title): \($0.detail)" }
        add(archived, "new") { "\($0.show): \($0.detail.split(separator: "/").last.map(String.init) ?? $0.detail)" }
        add(gone, "gone upstream") { "\($0.show): \($0.title)" }
        return TextSecrets.redactingURLs(in: lines.joined(separator: "\n") + "\n")
    }

    /// The notification's title (ntfy's `Title` header, the text's first line).
    var title: String {
        var counts = ["\(archived.count) new"]
        if !failed.isEmpty { counts.append("\(failed.count) failed") }
        if !gone.isEmpty { counts.append("\(gone.count) gone upstream") }
        if !showsFailed.isEmpty {
            counts.append("\(showsFailed.count) show\(showsFailed.count == 1 ? "" : "s") failed")
        }
        return "podarchive sync: \(Self.word(status)) (exit \(status.rawValue)): " + counts.joined(separator: ", ")
    }

    private func more(_ items: [Item]) -> Int { max(0, items.count - Self.shown) }

    private func list(_ out: inout JSONWriter, _ name: String, _ items: [Item], detail: String, titled: Bool = true) {
        out.raw(", \"\(name)\": [")
        for (position, item) in items.prefix(Self.shown).enumerated() {
            out.raw(position == 0 ? "{\"show\": " : ", {\"show\": ")
            out.string(item.show)
            if titled {
                out.raw(", \"title\": ")
                out.string(item.title)
            }
            out.raw(", \"\(detail)\": ")
            out.string(item.detail)
            out.raw("}")
        }
        out.raw("]")
    }

    /// The status as `--json` words it.
    static func word(_ status: RunStatus) -> String {
        switch status {
        case .success: "ok"
        case .episodesFailed: "episodes-failed"
        case .usage: "usage"
        case .feedFailed: "feed-failed"
        case .locked: "locked"
        case .archiveFailed: "archive-failed"
        case .interrupted, .terminated: "interrupted"
        }
    }

    private static func relative(_ file: URL, _ root: URL) -> String {
        let path = file.path
        let prefix = root.path.hasSuffix("/") ? root.path : root.path + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : file.lastPathComponent
    }

    private static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
