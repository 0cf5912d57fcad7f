import Foundation
import XCTest

// Trimming that skips Foundation when no end can be white space must still trim exactly what Foundation trims.
@testable import ArchiverCore

final class SpaceTrimmingTests: XCTestCase {
    private let samples = [
        "", " ", "\t\n", "https://example.com/feed.xml", "  https://example.com/feed.xml\n", "\u{00A0}nbsp\u{00A0}",
        "\u{2003}em space", "ideographic\u{3000}", "\r\nline\r\n", "élan", "café", "日本", "a b", "\u{0085}next line",
        "\u{200B}zero width",
    ]

    func test_trimsWhatFoundationTrims_withAndWithoutNewlines() {
        for text in samples {
            XCTAssertEqual(
                text.trimmingSpace(), text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.debugDescription)")
            XCTAssertEqual(
                text.trimmingSpace(newlines: false), text.trimmingCharacters(in: .whitespaces),
                "\(text.debugDescription)")
        }
    }

    func test_aFeedAddressWithUnicodeSpaceAroundIt_isTheSameFeed() throws {
        let plain = try FeedSource("https://example.com/feed.xml", currentDirectory: "/")
        XCTAssertEqual(try FeedSource("\u{00A0}https://example.com/feed.xml\u{2003}\n", currentDirectory: "/"), plain)
        XCTAssertEqual(try FeedSource("\thttps://example.com/feed.xml ", currentDirectory: "/"), plain)
        XCTAssertThrowsError(try FeedSource(" \u{00A0}\n", currentDirectory: "/"))
    }
}
