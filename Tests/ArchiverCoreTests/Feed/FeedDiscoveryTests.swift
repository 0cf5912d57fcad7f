import XCTest

@testable import ArchiverCore

final class FeedDiscoveryTests: XCTestCase {
    private let page = URL(string: "https://show.example/podcast/index.html")!

    private func feeds(_ html: String, at url: URL? = nil) -> [String] {
        FeedDiscovery.feeds(inPage: Data(html.utf8), at: url ?? page).map(\.url.absoluteString)
    }

    func testFindsEachKindOfFeedLinkAndResolvesRelativeHrefs() {
        let html = """
            <!DOCTYPE html><html><head><title>A show</title>
            <link rel="stylesheet" href="/style.css">
            <link rel="alternate" type="application/rss+xml" title="RSS" href="feed.xml">
            <link rel=alternate type=application/atom+xml href=/atom.xml>
            <LINK REL="Alternate" TYPE="application/feed+json" HREF="https://cdn.example/feed.json">
            </head><body></body></html>
            """
        XCTAssertEqual(
            feeds(html),
            [
                "https://show.example/podcast/feed.xml", "https://show.example/atom.xml",
                "https://cdn.example/feed.json",
            ])
    }

    func testTheShowsFeedComesBeforeABlogsCommentsFeed() {
        let html = """
            <head>
            <link rel="alternate" type="application/rss+xml" title="Show &raquo; Comments Feed" href="/comments/feed/">
            <link rel="alternate" type="application/rss+xml" title="Show &raquo; Feed" href="/feed/">
            </head>
            """
        let found = FeedDiscovery.feeds(inPage: Data(html.utf8), at: page)
        XCTAssertEqual(
            found.map(\.url.absoluteString), ["https://show.example/feed/", "https://show.example/comments/feed/"])
        XCTAssertEqual(found.first?.title, "Show \u{BB} Feed")
    }

    func testHonoursBaseHrefAndTakesEachFeedOnce() {
        let html = """
            <head><base href="https://other.example/shows/">
            <link rel="alternate" type="application/rss+xml" href="one.xml">
            <link rel="alternate home" type="application/rss+xml; charset=utf-8" href="one.xml">
            </head>
            """
        XCTAssertEqual(feeds(html), ["https://other.example/shows/one.xml"])
    }

    func testIgnoresLinksThatAreNotHTTPFeedsOrHideInCommentsScriptsAndTheBody() {
        let html = """
            <head>
            <!-- <link rel="alternate" type="application/rss+xml" href="/commented.xml"> -->
            <script>var s = '<link rel="alternate" type="application/rss+xml" href="/scripted.xml">';</script>
            <link rel="alternate" type="text/html" href="/fr/">
            <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
            <link rel="alternate" type="application/rss+xml" href="file:///etc/passwd">
            <link rel="alternate" type="application/rss+xml" href="">
            <link rel="feed" type="application/rss+xml" href="/not-alternate.xml">
            </head><body>
            <link rel="alternate" type="application/rss+xml" href="/in-body.xml">
            </body>
            """
        XCTAssertEqual(feeds(html), [])
    }

    func testAPageWithoutFeedsAndGarbageFindNothingAndEndQuickly() {
        XCTAssertEqual(feeds("<html><head><title>Nothing</title></head></html>"), [])
        XCTAssertEqual(feeds("<<<<< <link rel=\"alternate\" <a href='"), [])
        let unterminated = "<head>" + String(repeating: "<link rel=\"alternate\" type=\"", count: 20_000)
        XCTAssertEqual(feeds(unterminated), [])
    }

    func testTellsAnHTMLPageFromAFeed() {
        XCTAssertTrue(FeedDiscovery.isHTML(Data("\u{FEFF}<!DOCTYPE html>\n<html lang=en>".utf8)))
        XCTAssertTrue(FeedDiscovery.isHTML(Data("<!-- built by x -->\n<html><head>".utf8)))
        XCTAssertFalse(FeedDiscovery.isHTML(Data("<?xml version=\"1.0\"?><rss version=\"2.0\">".utf8)))
        XCTAssertFalse(FeedDiscovery.isHTML(Data("<feed xmlns=\"http://www.w3.org/2005/Atom\">".utf8)))
        XCTAssertFalse(FeedDiscovery.isHTML(Data("{\"version\": \"https://jsonfeed.org/version/1.1\"}".utf8)))
    }
}
