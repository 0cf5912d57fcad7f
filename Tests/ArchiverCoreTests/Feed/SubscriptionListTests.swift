import Foundation
import TestSupport
import XCTest

// Feed lists: OPML as podcast apps export it, and plain files with one feed a line.
@testable import ArchiverCore

final class SubscriptionListTests: XCTestCase {
    func test_opml_readsEveryFeedInFoldersOnceInOrder() throws {
        let feeds = try SubscriptionList.feeds(fromOPML: Fixtures.data("feeds/subscriptions.opml"), path: "subs.opml")

        XCTAssertEqual(
            feeds,
            [
                "https://news.example.com/feed.xml", "https://lower.example.org/rss",
                "https://top.example.net/podcast.json",
            ])
    }

    func test_opml_thatIsNotOPML_isAnErrorNamingTheFile() {
        XCTAssertThrowsError(try SubscriptionList.feeds(fromOPML: Fixtures.data("feeds/rss.xml"), path: "x.opml")) {
            error in
            XCTAssertEqual(error as? SubscriptionList.Failure, .notOPML(path: "x.opml"))
            XCTAssertEqual(error.localizedDescription, "feed list x.opml is not an OPML document")
        }
    }

    func test_lines_skipBlankLinesAndComments() {
        let text = """
            # my podcasts
            https://a.example/feed.xml

              https://b.example/rss   # the good one
            ./local.xml
            https://a.example/feed.xml
            """

        XCTAssertEqual(
            SubscriptionList.feeds(fromLines: Data(text.utf8)),
            ["https://a.example/feed.xml", "https://b.example/rss", "./local.xml"])
    }
}
