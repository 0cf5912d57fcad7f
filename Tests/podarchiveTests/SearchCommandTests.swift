import Foundation
import TestSupport
import XCTest

// `podarchive search`, against a loopback directory serving recorded iTunes answers: what a person reads, the
// JSON a script reads, the request the directory gets, and a result passed straight to `add`.
@testable import ArchiverCore
@testable import podarchive

final class SearchCommandTests: CommandLineTestCase {
    private var directory: [String: String] { ["PODARCHIVE_DIRECTORY_URL": server.url("/dir").absoluteString] }

    private func serveAnswer(_ fixture: String) {
        server.route(
            "/dir/search",
            .ok(
                String(decoding: Fixtures.data("directory/\(fixture)"), as: UTF8.self)
                    .replacingOccurrences(of: "FEED_URL", with: server.url("/feed.xml").absoluteString),
                type: "text/javascript; charset=utf-8"))
    }

    func test_printsEachShowsTitleAuthorEpisodesAndFeed() async {
        serveAnswer("search-history.json")

        let code = await run("search", "history", "of", "loopback", variables: directory)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(
            output.text,
            """
            A History of Loopback (by Kate Archivist, 2 episodes)
                \(server.url("/feed.xml").absoluteString)
            History Hour Weekly (by Public Radio History Desk, 1 episode)
                https://feeds.example.org/history-hour.rss
            Subscribers' History (by Members Only Media, 48 episodes)
                no public feed

            """)
        XCTAssertEqual(
            server.requests.map(\.path),
            ["/dir/search?media=podcast&entity=podcast&term=history%20of%20loopback&limit=10"])
    }

    func test_json_andLimit() async throws {
        serveAnswer("search-history.json")

        let code = await run("search", "history", "--json", "--limit", "2", variables: directory)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.requests.first?.path, "/dir/search?media=podcast&entity=podcast&term=history&limit=2")
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let shows = try XCTUnwrap(object["shows"] as? [[String: Any]])
        XCTAssertEqual(shows.count, 2, "the directory answered 3; --limit 2 prints 2")
        XCTAssertEqual(shows[0]["title"] as? String, "A History of Loopback")
        XCTAssertEqual(shows[0]["author"] as? String, "Kate Archivist")
        XCTAssertEqual(shows[0]["episodes"] as? Int, 2)
        XCTAssertEqual(shows[0]["id"] as? Int, 1_223_767_856)
        XCTAssertEqual(shows[1]["feed"] as? String, "https://feeds.example.org/history-hour.rss")
    }

    func test_aResultGoesStraightToAdd() async throws {
        serveAnswer("search-history.json")
        serveFeed(episodes: [("One", "/one.mp3")])
        _ = await run("search", "loopback", "--json", "--limit", "1", variables: directory)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let feed = try XCTUnwrap((object?["shows"] as? [[String: Any]])?.first?["feed"] as? String)
        output.clear()

        let code = await run("add", feed, "--to", folder.url.appendingPathComponent("archive").path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(output.text, "subscribed \(feed) into CLI Show/\n")
    }

    func test_noShowFound_isSaid_exit0_andJSONIsAnEmptyList() async {
        serveAnswer("search-none.json")
        let code1 = await run("search", "zzzz", variables: directory)
        XCTAssertEqual(code1, .success)
        XCTAssertEqual(output.text, "")
        XCTAssertEqual(errors.text, "podarchive: the podcast directory finds no show for \"zzzz\"\n")
        let code2 = await run("search", "zzzz", "--json", variables: directory)
        XCTAssertEqual(code2, .success)
        XCTAssertEqual(output.text, "{\"shows\": []}\n")
    }

    func test_aDirectoryThatFails_isExit3InOneLine() async {
        let cases: [(TestResponse, String)] = [
            (.status(503, "busy"), "the podcast directory answered HTTP 503 to "),
            (.ok("<html><body>captcha</body></html>", type: "text/html"), "the podcast directory's answer from "),
            (
                .endless(type: "application/json") { _ in Data(repeating: 0x20, count: 65536) },
                "the podcast directory's answer from "
            ),
        ]
        for (answer, said) in cases {
            server.route("/dir/search", answer)
            errors.clear()
            let code3 = await run("search", "x", variables: directory)
            XCTAssertEqual(code3, .feedFailed, said)
            XCTAssertTrue(errors.text.hasPrefix("podarchive: \(said)"), errors.text)
            XCTAssertEqual(errors.text.filter { $0 == "\n" }.count, 1, errors.text)
        }
        XCTAssertTrue(errors.text.contains("is larger than 8388608 bytes"), errors.text)
    }

    func test_usageErrors() async {
        let code4 = await run("search", variables: directory)
        XCTAssertEqual(code4, .usage)
        XCTAssertTrue(errors.text.hasPrefix("podarchive: missing the words to search for\n"), errors.text)
        errors.clear()
        let code5 = await run("search", "x", "--limit", "500", variables: directory)
        XCTAssertEqual(code5, .usage)
        XCTAssertTrue(
            errors.text.hasPrefix("podarchive: option '--limit' of search takes 1 to 200 shows, got 500\n"),
            errors.text)
        XCTAssertTrue(server.requests.isEmpty)
    }

    func test_aDirectoryURLThatIsNotHTTP_isAUsageError_andConfigShowsIt_butARunThatNeverAsksIsNotRefused() async throws
    {
        let bad = ["PODARCHIVE_DIRECTORY_URL": "file:///etc/passwd"]

        let search = await run("search", "x", variables: bad)
        XCTAssertEqual(search, .usage)
        XCTAssertEqual(
            errors.text, "podarchive: PODARCHIVE_DIRECTORY_URL is not an http(s) URL: \"file:///etc/passwd\"\n")
        errors.clear()
        let add = await run(
            "add", "https://podcasts.apple.com/us/podcast/loopback-stories/id1200361736", "--to", "archive",
            variables: bad)
        XCTAssertEqual(add, .usage, errors.text)
        XCTAssertTrue(errors.text.contains("PODARCHIVE_DIRECTORY_URL is not an http(s) URL"), errors.text)
        XCTAssertTrue(server.requests.isEmpty, "nothing was asked, not Apple's directory in its place either")

        let config = await run("config", variables: bad)
        XCTAssertEqual(config, .success, errors.text)
        XCTAssertTrue(
            output.text.contains(
                "# podcast directory: PODARCHIVE_DIRECTORY_URL is not an http(s) URL: \"file:///etc/passwd\"; "),
            output.text)
        output.clear()
        let json = await run("config", "--json", variables: directory)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let shown = try XCTUnwrap(object["directory"] as? [String: Any])
        XCTAssertEqual(json, .success)
        XCTAssertEqual(shown["url"] as? String, server.url("/dir").absoluteString)
        XCTAssertEqual(shown["source"] as? String, "environment")

        serveFeed(episodes: [])
        let list = await run("list", server.url("/feed.xml").absoluteString, variables: bad)
        XCTAssertEqual(list, .success, "a run that never asks the directory is not refused for it: " + errors.text)
    }
}
