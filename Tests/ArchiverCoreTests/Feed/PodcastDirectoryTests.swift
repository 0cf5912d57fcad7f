import XCTest

@testable import ArchiverCore

final class PodcastDirectoryTests: XCTestCase {
    private let base = URL(string: "http://127.0.0.1:9/dir")!

    func testReadsTheShowNumberOfShowAndEpisodeLinks() {
        XCTAssertEqual(
            PodcastDirectory.showID(inLink: "https://podcasts.apple.com/us/podcast/the-show/id123456789"), 123_456_789)
        XCTAssertEqual(
            PodcastDirectory.showID(inLink: "https://podcasts.apple.com/gb/podcast/x/id42?i=1000650000000"), 42)
        XCTAssertEqual(PodcastDirectory.showID(inLink: "https://itunes.apple.com/podcast/id77"), 77)
        XCTAssertNil(PodcastDirectory.showID(inLink: "https://podcasts.example/us/podcast/x/id42"))
        XCTAssertNil(PodcastDirectory.showID(inLink: "https://podcasts.apple.com/us/podcast/x/idea"))
        XCTAssertNil(PodcastDirectory.showID(inLink: "ftp://podcasts.apple.com/us/podcast/x/id42"))
        XCTAssertNil(
            PodcastDirectory.showID(inLink: "https://podcasts.apple.com/us/podcast/x/id99999999999999999999999"))
    }

    func testBuildsTheLookupAndSearchRequests() {
        let directory = PodcastDirectory(base: base)
        XCTAssertEqual(directory.lookupURL(id: 42).absoluteString, "http://127.0.0.1:9/dir/lookup?id=42&entity=podcast")
        XCTAssertEqual(
            directory.searchURL(term: "a+b & c", limit: 500).absoluteString,
            "http://127.0.0.1:9/dir/search?media=podcast&entity=podcast&term=a%2Bb%20%26%20c&limit=200")
    }

    func testTheEnvironmentNamesAnotherDirectory() {
        XCTAssertEqual(PodcastDirectory.from(environment: [:]).base.absoluteString, "https://itunes.apple.com")
        XCTAssertEqual(
            PodcastDirectory.from(environment: ["PODARCHIVE_DIRECTORY_URL": "http://127.0.0.1:8080"]).base
                .absoluteString, "http://127.0.0.1:8080")
    }

    func testReadsShowsFromAnAnswerKeepingOnlyWebFeeds() throws {
        let answer = """
            {"resultCount": 3, "results": [
              {"wrapperType": "track", "kind": "podcast", "collectionId": 1, "collectionName": "One\\nShow",
               "artistName": "Ann", "trackCount": 12, "feedUrl": "https://one.example/feed.xml"},
              {"wrapperType": "track", "kind": "podcast", "collectionId": 2, "collectionName": "Two",
               "feedUrl": "file:///etc/passwd"},
              {"wrapperType": "track", "kind": "song", "collectionId": 3, "collectionName": "A song"}
            ]}
            """
        let shows = try PodcastDirectory.shows(inAnswer: Data(answer.utf8), from: base)
        XCTAssertEqual(
            shows,
            [
                DirectoryShow(
                    id: 1, title: "One Show", author: "Ann", episodes: 12,
                    feedURL: URL(string: "https://one.example/feed.xml")),
                DirectoryShow(id: 2, title: "Two", author: nil, episodes: nil, feedURL: nil),
            ])
    }

    func testALookupWithoutTheShowOrItsFeedSaysWhich() {
        let link = "https://podcasts.apple.com/us/podcast/x/id5"
        XCTAssertThrowsError(
            try PodcastDirectory.feed(
                ofShow: 5, link: link, inAnswer: Data(#"{"resultCount":0,"results":[]}"#.utf8), from: base)
        ) { error in
            XCTAssertEqual(error as? DirectoryError, .noSuchShow(id: 5, link: link))
            XCTAssertEqual("\(error)", "the podcast directory knows no show numbered 5 (from \(link))")
        }
        let noFeed = #"{"results":[{"kind":"podcast","collectionId":5,"collectionName":"Paid"}]}"#
        XCTAssertThrowsError(try PodcastDirectory.feed(ofShow: 5, link: link, inAnswer: Data(noFeed.utf8), from: base))
        {
            XCTAssertEqual($0 as? DirectoryError, .noFeed(title: "Paid", link: link))
        }
        XCTAssertThrowsError(
            try PodcastDirectory.feed(ofShow: 5, link: link, inAnswer: Data("<html>".utf8), from: base)
        ) {
            XCTAssertEqual($0 as? DirectoryError, .unreadableAnswer(url: self.base.absoluteString))
        }
    }
}
