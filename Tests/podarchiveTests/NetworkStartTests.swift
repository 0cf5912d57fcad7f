import Foundation
import XCTest

// Which command lines bring the network up as the process starts: the commands that fetch feeds, before their
// options are even read, and no other.
@testable import ArchiverCore
@testable import podarchive

final class NetworkStartTests: XCTestCase {
    func test_commandsThatFetchFeeds_bringTheNetworkUpAtStart_andNoOtherCommandLineDoes() {
        let cases: [([String], Bool)] = [
            (["sync"], true), (["sync", "https://example.invalid/feed.xml", "--to", "archive"], true),
            (["sync", "--no-such-option"], true), (["add", "https://example.invalid/feed.xml"], true),
            (["list", "feed.xml"], true), (["search", "a show"], true),
            (["feeds"], false), (["verify"], false), (["site"], false), (["remove", "Show"], false),
            (["help", "sync"], false), (["--version"], false), (["synk"], false), ([], false),
        ]
        for (arguments, fetches) in cases {
            XCTAssertEqual(CommandLineTool.fetchesFeeds(arguments), fetches, "\(arguments)")
        }
    }
}
