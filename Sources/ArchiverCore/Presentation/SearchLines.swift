// What `search` prints: two lines a show for people, or one JSON document.
import Foundation

extension SearchReport {
    /// Two lines a show: its title, author and episode count; then its feed, ready for `add` or `sync`.
    public var lines: String {
        shows.map { show in
            var facts: [String] = []
            if let author = show.author { facts.append("by \(author)") }
            if let episodes = show.episodes { facts.append("\(episodes) episode\(episodes == 1 ? "" : "s")") }
            let head =
                SyncFormatter.oneLine(show.title.isEmpty ? "(untitled)" : show.title)
                + (facts.isEmpty ? "" : " (\(SyncFormatter.oneLine(facts.joined(separator: ", "))))")
            return head + "\n    " + (show.feedURL?.absoluteString ?? "no public feed") + "\n"
        }.joined()
    }

    /// `{"shows": [{"title", "author", "episodes", "feed", "id"}]}`, in the directory's order.
    public var json: String {
        var out = JSONWriter()
        out.raw("{\"shows\": [")
        for (position, show) in shows.enumerated() {
            out.raw(position == 0 ? "\n  {\"title\": " : ",\n  {\"title\": ")
            out.string(show.title)
            out.raw(", \"author\": ")
            out.string(show.author)
            out.raw(", \"episodes\": ")
            out.number(show.episodes.map(Int64.init))
            out.raw(", \"feed\": ")
            out.string(show.feedURL?.absoluteString)
            out.raw(", \"id\": ")
            out.number(show.id.map(Int64.init))
            out.raw("}")
        }
        out.raw(shows.isEmpty ? "]}\n" : "\n]}\n")
        return out.text
    }
}
