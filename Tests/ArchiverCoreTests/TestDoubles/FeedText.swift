// Small RSS documents for tests, built from (title, enclosure URL, GUID) triples.
import Foundation

enum FeedText {
    static func rss(_ items: [(title: String, url: String, guid: String?)], title: String = "Show") -> Data {
        var text = "<rss version=\"2.0\"><channel><title>\(title)</title>"
        for item in items {
            text += "<item><title>\(item.title)</title>" + (item.guid.map { "<guid>\($0)</guid>" } ?? "")
            text += "<enclosure url=\"\(item.url)\" type=\"audio/mpeg\"/></item>"
        }
        return Data((text + "</channel></rss>").utf8)
    }
}
