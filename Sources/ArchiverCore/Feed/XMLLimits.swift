// What an XML document a feed supplies (the feed and each of its pages) may hold, judged as its elements open,
// never once it is read whole: a document nested 100,000 deep or listing millions of items is refused at the
// element that passes the limit, in one line naming it, before anything is built of what follows.
import Foundation

/// The limits an XML feed is read within.
struct XMLLimits: Sendable, Equatable {
    /// Elements open at once.
    var depth: Int
    /// Items (RSS's `<item>`, Atom's `<entry>`) in the document.
    var items: Int

    /// What a feed may hold: 256 levels (libxml2's own default, `xmlParserMaxDepth`; a real feed is a few levels
    /// deep, and a forgiving read closes what an item left open when the item closes), 100,000 items (five times
    /// the largest feed of the benchmarks; every item becomes an episode held in memory).
    static let feed = XMLLimits(depth: 256, items: 100_000)

    /// Why an element opened at `depth` (0: the root) is refused, or nil.
    func refusal(openingAt depth: Int) -> String? {
        depth < self.depth ? nil : "it nests deeper than \(self.depth) levels"
    }

    /// Why the `count`th item is refused, or nil.
    func refusal(item count: Int) -> String? {
        count <= items ? nil : "it holds more than \(items) items"
    }
}
