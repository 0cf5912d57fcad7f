// An XML feed past its limits (elements open at once, items) is refused at the element that passes them, in one
// line naming the limit; one within them is read as before. A billion laughs costs nothing: the reader never
// expands an entity a DOCTYPE declares (`FeedParserTests.test_parse_entityBomb_isNeverExpanded`).
import Foundation
import XCTest

@testable import ArchiverCore

final class BoundedXMLFeedTests: XCTestCase {
    private let url = URL(string: "https://example.com/deep.xml")!

    private func feed(nesting levels: Int, closed: Bool = true) -> Data {
        var text =
            #"<rss version="2.0"><channel><title>Deep</title><item><title>A</title>"#
            + #"<enclosure url="https://example.com/a.mp3" type="audio/mpeg"/>"#
        text += String(repeating: "<x>", count: levels)
        if closed { text += String(repeating: "</x>", count: levels) }
        return Data((text + "</item></channel></rss>").utf8)
    }

    func test_aFeedNested100000Deep_isRefusedAtTheDepthLimit_namingTheURL() {
        XCTAssertThrowsError(try FeedParser.parse(feed(nesting: 100_000), url: url)) {
            XCTAssertEqual(
                $0 as? FeedError, .notAFeed(url: url.absoluteString, reason: "it nests deeper than 256 levels"))
        }
        // Left open (a document cut short, or never closed): refused all the same.
        XCTAssertThrowsError(try FeedParser.parse(feed(nesting: 100_000, closed: false), url: url)) {
            XCTAssertEqual(
                $0 as? FeedError, .notAFeed(url: url.absoluteString, reason: "it nests deeper than 256 levels"))
        }
    }

    func test_aFeedAtTheDepthLimit_isRead_oneLevelMoreIsRefused() throws {
        // rss, channel, item: 3 levels before the <x>s, so 253 of them open the 256th level.
        XCTAssertEqual(try FeedParser.parse(feed(nesting: 253), url: url).episodes.map(\.title), ["A"])
        XCTAssertThrowsError(try FeedParser.parse(feed(nesting: 254), url: url))
    }

    func test_aFeedPastItsItems_isRefused_oneWithinThemIsRead() {
        let item = #"<item><title>A</title><enclosure url="https://example.com/a.mp3"/></item>"#
        func read(_ count: Int) -> XMLFeedResult {
            let text =
                #"<rss version="2.0"><channel><title>Many</title>"#
                + String(repeating: item, count: count) + "</channel></rss>"
            return XMLFeedReader.read(Array(text.utf8), documentURL: nil, limits: XMLLimits(depth: 256, items: 100))
        }
        guard case .notAFeed(let reason) = read(101) else { return XCTFail("read past its limits") }
        XCTAssertEqual(reason, "it holds more than 100 items")
        guard case .feed(let feed) = read(100) else { return XCTFail("not read within its limits") }
        XCTAssertEqual(feed.episodes.count, 100)
    }

    func test_aFeedOfItemsWithoutMedia_pastTheItemLimit_isRefused() {
        // `<item/>` is seven bytes: a 256 MB feed of them would hold 36 million titles of items without media.
        let text =
            #"<rss version="2.0"><channel><title>Empty</title>"#
            + String(repeating: "<item/>", count: XMLLimits.feed.items + 1) + "</channel></rss>"
        XCTAssertThrowsError(try FeedParser.parse(Data(text.utf8), url: url)) {
            XCTAssertEqual(
                $0 as? FeedError, .notAFeed(url: url.absoluteString, reason: "it holds more than 100000 items"))
        }
    }

    func test_anAtomFeedPastItsEntries_isRefused() {
        let entry = #"<entry><title>A</title><link rel="enclosure" href="https://example.com/a.mp3"/></entry>"#
        let text =
            #"<feed xmlns="http://www.w3.org/2005/Atom"><title>Many</title>"#
            + String(repeating: entry, count: 11) + "</feed>"
        guard
            case .notAFeed(let reason) = XMLFeedReader.read(
                Array(text.utf8), documentURL: nil, limits: XMLLimits(depth: 256, items: 10))
        else { return XCTFail("read past its limits") }
        XCTAssertEqual(reason, "it holds more than 10 items")
    }
}
