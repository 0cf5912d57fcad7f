// What podarchive says of feed items it left out because their shape is not their format's (a JSON array item
// with an "enclosure"): counted in the summary, named with --verbose, in --json, and by `list`.

/// What commands say of feed items left out because their shape is not their format's.
public enum SkippedItemsFormatter {
    /// `, 2 items skipped (--verbose says why)` for the summary line; empty when none were.
    public static func summaryPart(_ items: [SkippedItem]) -> String {
        guard !items.isEmpty else { return "" }
        return ", \(items.count) item\(items.count == 1 ? "" : "s") skipped (--verbose says why)"
    }

    /// `skipped item "B": it has "enclosure", ...`, for --verbose.
    public static func verboseLine(_ item: SkippedItem) -> String {
        "skipped item \(name(item)): \(item.reason)"
    }

    /// `item "B" skipped: ...`, for `list` on standard error.
    public static func listLine(_ item: SkippedItem) -> String {
        "item \(name(item)) skipped: \(item.reason)"
    }

    /// `"skippedItems": [{"title", "reason"}]`, after the object's other fields.
    public static func json(_ out: inout JSONWriter, _ items: [SkippedItem]) {
        out.raw(", \"skippedItems\": [")
        for (position, item) in items.enumerated() {
            out.raw(position == 0 ? "{\"title\": " : ", {\"title\": ")
            out.string(item.title)
            out.raw(", \"reason\": ")
            out.string(item.reason)
            out.raw("}")
        }
        out.raw("]")
    }

    private static func name(_ item: SkippedItem) -> String {
        item.title.map { "\"\(SyncFormatter.oneLine($0))\"" } ?? "(untitled)"
    }
}

/// What `site --out` and `export` say of the files they leave out because a private show's secret is in them.
public enum WithheldFormatter {
    /// `left out 2 files that hold a private show's secret (its token, login or header): Show/a.vtt, Show/b.json`,
    /// or nil when none was.
    public static func line(_ withheld: [String], from what: String) -> String? {
        guard !withheld.isEmpty else { return nil }
        let count = withheld.count
        let named = withheld.prefix(10).joined(separator: ", ")
        let more = count > 10 ? " and \(count - 10) more" : ""
        return "\(what): left out \(count) file\(count == 1 ? "" : "s") that hold\(count == 1 ? "s" : "") "
            + "a private show's secret (its token, login or header): \(named)\(more)\n"
    }
}
