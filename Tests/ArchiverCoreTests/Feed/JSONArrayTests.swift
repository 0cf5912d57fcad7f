import Foundation
import XCTest

// The plain JSON array of episodes: its shape (as the README documents it), and items in another shape, which
// are skipped with a reason, never dropped without a word.
@testable import ArchiverCore

final class JSONArrayTests: XCTestCase {
    private func parse(_ text: String) throws -> Feed {
        try FeedParser.parse(Data(text.utf8), url: URL(string: "https://example.com/episodes.json"))
    }

    func test_theDocumentedShape_isRead() throws {
        // The README's example, as it is there.
        let feed = try parse(
            """
            [
              {"url": "https://example.com/audio/2.mp3", "title": "Second", "published": "Fri, 17 Jan 2025 13:00:00 GMT",
               "guid": "episode-2", "type": "audio/mpeg", "length": 24000000},
              {"url": "audio/1.mp3", "title": "First", "published": "Fri, 10 Jan 2025 13:00:00 GMT"}
            ]
            """)
        XCTAssertEqual(feed.format, .jsonArray)
        XCTAssertEqual(
            feed.episodes.map(\.url), ["https://example.com/audio/2.mp3", "https://example.com/audio/1.mp3"])
        XCTAssertEqual(feed.episodes.first?.guid, "episode-2")
        XCTAssertEqual(feed.episodes.first?.length, 24_000_000)
        XCTAssertEqual(feed.episodes.last?.published, Date(timeIntervalSince1970: 1_736_514_000))
        XCTAssertEqual(feed.skippedItems, [])
    }

    func test_itemsWithAnEnclosureKey_areSkippedWithTheReason_notDropped() throws {
        let feed = try parse(
            """
            [{"url": "a.mp3", "title": "A"},
             {"title": "B", "enclosure": {"url": "b.mp3"}},
             {"title": "C", "enclosure": "c.mp3"},
             "not an episode",
             {"title": "Text post"}]
            """)
        XCTAssertEqual(feed.episodes.map(\.title), ["A"])
        let reason = "it has \"enclosure\", which a JSON array of episodes does not read (the file goes in \"url\")"
        XCTAssertEqual(
            feed.skippedItems,
            [
                SkippedItem(title: "B", reason: reason), SkippedItem(title: "C", reason: reason),
                SkippedItem(title: nil, reason: "it is not an object"),
            ])
        XCTAssertEqual(feed.itemsWithoutMedia, 1, "an item with nothing to download is left out, as in RSS")
    }

    func test_anArrayOfEnclosuresOnly_saysWhyItIsNotAFeed() {
        let text = "[{\"title\": \"B\", \"enclosure\": {\"url\": \"b.mp3\"}}]"
        XCTAssertThrowsError(try FeedParser.parse(Data(text.utf8), url: nil)) { error in
            XCTAssertEqual(
                error as? FeedError,
                .notAFeed(
                    url: "(input)",
                    reason: "its JSON array has no entries with a \"url\" (1 has \"enclosure\", which this format "
                        + "does not read)"))
        }
    }
}
