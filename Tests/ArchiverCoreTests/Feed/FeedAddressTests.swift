import XCTest

// The rule that makes every spelling of one feed address one subscription, as a table.
@testable import ArchiverCore

final class FeedAddressTests: XCTestCase {
    func test_normalized_givesEverySpellingOfOneAddressOneForm() {
        let cases: [(given: String, normalized: String)] = [
            ("http://example.com/feed.xml", "http://example.com/feed.xml"),
            ("HTTP://Example.COM/feed.xml", "http://example.com/feed.xml"),
            ("http://example.com:80/feed.xml", "http://example.com/feed.xml"),
            ("https://example.com:443/feed.xml", "https://example.com/feed.xml"),
            ("https://example.com:8443/feed.xml", "https://example.com:8443/feed.xml"),
            ("http://example.com", "http://example.com/"),
            ("http://example.com/a/./b/../feed.xml", "http://example.com/a/feed.xml"),
            ("http://example.com/feed.xml?", "http://example.com/feed.xml"),
            ("http://example.com/feed.xml#top", "http://example.com/feed.xml"),
            ("http://example.com/feed.xml?utm_source=x&utm_medium=y", "http://example.com/feed.xml"),
            ("http://example.com/feed.xml?id=3&utm_source=x&fbclid=z", "http://example.com/feed.xml?id=3"),
            ("http://example.com/%7euser/feed%2fx.xml", "http://example.com/~user/feed%2Fx.xml"),
            ("http://example.com/Feed.XML?ID=3", "http://example.com/Feed.XML?ID=3"),
            ("http://[::1]:80/feed", "http://[::1]/feed"),
            ("http://[::1]:8080/feed", "http://[::1]:8080/feed"),
            ("https://example.com/feed?token=abc", "https://example.com/feed?token=abc"),
            ("/local/feed.xml", "/local/feed.xml"),
            ("ftp://example.com/feed", "ftp://example.com/feed"),
        ]
        for (given, normalized) in cases {
            XCTAssertEqual(FeedAddress.normalized(given), normalized, given)
            XCTAssertEqual(FeedAddress.normalized(normalized), normalized, "idempotent: \(normalized)")
        }
    }

    func test_feedSource_isNormalised_soEverySpellingIsOneSource() throws {
        let spellings = [
            "http://example.com/feed.xml", "HTTP://EXAMPLE.com:80/./feed.xml", "http://example.com/feed.xml?#x",
            "http://example.com/feed.xml?utm_campaign=nightly",
        ]
        let sources = try spellings.map { try FeedSource($0, currentDirectory: "/") }
        XCTAssertEqual(Set(sources.map(\.displayName)), ["http://example.com/feed.xml"])
    }
}
