import Foundation
import TestSupport
import XCTest

// Finding a show (issue 28), through the command line against loopback servers: a show's web page followed to
// its feed (what is saved is the feed; credentials never go to the page), an Apple Podcasts link
// looked up in a directory serving recorded answers, and the errors a user sees when either leads nowhere.
@testable import ArchiverCore
@testable import podarchive

final class FindShowTests: CommandLineTestCase {
    private var other: TestHTTPServer!
    private var root: URL { folder.url.appendingPathComponent("archive") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        other = try TestHTTPServer(address: "127.0.0.2")
    }

    override func tearDown() {
        other.stop()
        super.tearDown()
    }

    private var directory: [String: String] { ["PODARCHIVE_DIRECTORY_URL": server.url("/dir").absoluteString] }

    private func page(_ links: String) -> TestResponse {
        .ok(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>The Show</title>\(links)"
                + "<script>var x = '<link rel=\"alternate\" href=\"/trap.xml\">';</script></head>"
                + "<body><h1>The Show</h1></body></html>", type: "text/html; charset=utf-8")
    }

    private func link(_ href: String, type: String = "application/rss+xml", title: String? = nil) -> String {
        "<link rel=\"alternate\" type=\"\(type)\"\(title.map { " title=\"\($0)\"" } ?? "") href=\"\(href)\">"
    }

    private func feeds() async -> String {
        output.clear()
        _ = await run("feeds", "--json", "--to", root.path)
        return output.text
    }

    func test_syncOfAPage_archivesItsFeed_andSavesTheFeedNotThePage() async throws {
        serveFeed(episodes: [("One", "/one.mp3")])
        server.route("/one.mp3", .ok(Data(repeating: 1, count: 100)))
        server.route("/", page(link("feed.xml")))
        let pageURL = server.url("/").absoluteString
        let feedURL = server.url("/feed.xml").absoluteString

        let code = await run("sync", pageURL, "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.hasPrefix("\(pageURL) is a web page; its feed is <\(feedURL)>\n"), output.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("CLI Show/One.mp3").path))
        let saved = await feeds()
        XCTAssertTrue(saved.contains("\"feed\": \"\(feedURL)\""), saved)
        XCTAssertFalse(saved.contains("\"feed\": \"\(pageURL)\""), saved)
        XCTAssertFalse(server.requestedPaths.contains("/trap.xml"), "a link inside a script is not one")

        // The nightly run syncs the feed saved, without the page.
        let before = server.requestedPaths.filter { $0 == "/" }.count
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(server.requestedPaths.filter { $0 == "/" }.count, before)
    }

    func test_aPageIsToldFromItsBytes_notItsURL() async throws {
        server.route("/feed.xml", page(link("/real/podcast.rss")))
        server.route(
            "/real/podcast.rss",
            .ok("<rss version=\"2.0\"><channel><title>Real</title></channel></rss>", type: "text/html"))
        server.route(
            "/index.html", .ok("<rss version=\"2.0\"><channel><title>Plain</title></channel></rss>", type: "text/html"))

        let code = await run(
            "add", server.url("/feed.xml").absoluteString, server.url("/index.html").absoluteString, "--to",
            root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.contains("subscribed \(server.url("/real/podcast.rss").absoluteString) into Real/"))
        XCTAssertTrue(output.text.contains("subscribed \(server.url("/index.html").absoluteString) into Plain/"))
    }

    func test_aHeaderGivenWithAPage_goesToAFeedOnItsOrigin_neverThePage() async throws {
        try await headerGoesToTheFeedsHost(command: "add")
    }

    func test_syncOfAPage_withAHeader_sendsItToAFeedOnItsOrigin_neverThePage() async throws {
        try await headerGoesToTheFeedsHost(command: "sync")
    }

    func test_severalPagesSyncedSideBySide_eachFollowedToItsFeed() async throws {
        for show in ["a", "b"] {
            server.route(
                "/\(show)/feed.xml",
                .ok(
                    "<rss version=\"2.0\"><channel><title>Show \(show)</title><item><title>One</title>"
                        + "<enclosure url=\"one.mp3\" type=\"audio/mpeg\"/></item></channel></rss>",
                    type: "application/rss+xml"))
            server.route("/\(show)/one.mp3", .ok(Data(show.utf8)))
            other.route("/\(show)/", page(link(server.url("/\(show)/feed.xml").absoluteString)))
        }

        let code = await run(
            "sync", other.url("/a/").absoluteString, other.url("/b/").absoluteString, "--feed-jobs", "2", "--to",
            root.path)

        XCTAssertEqual(code, .success, errors.text)
        for show in ["a", "b"] {
            XCTAssertEqual(
                FileManager.default.contents(atPath: root.appendingPathComponent("Show \(show)/One.mp3").path),
                Data(show.utf8))
            XCTAssertTrue(output.text.contains("\(other.url("/\(show)/").absoluteString) is a web page"), output.text)
        }
    }

    private func headerGoesToTheFeedsHost(command: String) async throws {
        let token = "Bearer t0ken-for-feeds"
        let xml =
            "<rss version=\"2.0\"><channel><title>Paid Show</title><item><title>One</title>"
            + "<enclosure url=\"/one.mp3\" type=\"audio/mpeg\"/></item></channel></rss>"
        server.route(
            "/feed.xml",
            handler: { request, _ in
                request.headers["authorization"] == token ? .ok(xml, type: "application/rss+xml") : .status(401)
            })
        server.route(
            "/one.mp3",
            handler: { request, _ in
                request.headers["authorization"] == token ? .ok(Data(repeating: 1, count: 100)) : .status(401)
            })
        // A feed on another origin than the page gets nothing given with it: see `PageOriginTests`.
        server.route("/show", page(link(server.url("/feed.xml").absoluteString)))

        let code = await run(
            command, server.url("/show").absoluteString, "--header", "Authorization: \(token)", "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.requestedPaths.filter { $0 == "/show" }, ["/show"])
        for request in server.requests where request.path == "/show" {
            XCTAssertNil(request.headers["authorization"], "the page got the header: \(request)")
        }
        XCTAssertEqual(server.requests.last?.headers["authorization"], token)
        XCTAssertTrue(
            output.text.contains("its feed is <\(server.url("/feed.xml").absoluteString)>"), output.text)
        // Saved for the feed's origin: the run that names no show reaches the feed with it.
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(server.requestedPaths.filter { $0 == "/show" }, ["/show"])
    }

    func test_ofSeveralFeedLinks_thePodcastIsSubscribed_andVerboseListsTheOthers() async throws {
        serveFeed(episodes: [("One", "/one.mp3")])
        server.route(
            "/posts.xml",
            .ok("<rss version=\"2.0\"><channel><title>Posts</title></channel></rss>", type: "application/rss+xml"))
        server.route(
            "/blog",
            page(
                link("/comments/feed/", title: "Comments Feed") + link("/posts.xml", title: "Posts")
                    + link("/feed.xml", title: "The Show (podcast)")))
        let feedURL = server.url("/feed.xml").absoluteString

        let code = await run("add", server.url("/blog").absoluteString, "--verbose", "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(
            output.text,
            """
            \(server.url("/blog").absoluteString) is a web page; its feed is <\(feedURL)>
                also links to <\(server.url("/posts.xml").absoluteString)> (Posts)
                also links to <\(server.url("/comments/feed/").absoluteString)> (Comments Feed)
            subscribed \(feedURL) into CLI Show/

            """)
        XCTAssertFalse(server.requestedPaths.contains("/comments/feed/"), "found before the comments were tried")
    }

    func test_aPageWithoutAFeedLink_isOneLineNamingIt_exit3_andNothingElseSyncs() async throws {
        serveFeed(episodes: [])
        let code1 = await run("add", server.url("/feed.xml").absoluteString, "--to", root.path)
        XCTAssertEqual(code1, .success)
        server.route("/about", page("<link rel=\"stylesheet\" href=\"/style.css\">"))
        let feedRequests = server.requestedPaths.filter { $0 == "/feed.xml" }.count
        errors.clear()

        let code = await run("sync", server.url("/about").absoluteString, "--to", root.path)

        XCTAssertEqual(code, .feedFailed)
        XCTAssertEqual(
            errors.text,
            "podarchive: \(server.url("/about").absoluteString) is a web page that links to no feed (no <link "
                + "rel=\"alternate\"> to RSS, Atom or JSON Feed in its head); give the show's feed URL\n")
        XCTAssertEqual(server.requestedPaths.filter { $0 == "/feed.xml" }.count, feedRequests, "no other show synced")
        let saved = await feeds()
        XCTAssertFalse(saved.contains("/about"), saved)
    }

    func test_syncJSON_namesAPageThatLedNowhere() async throws {
        server.route("/about", page(""))
        let code = await run("sync", server.url("/about").absoluteString, "--json", "--to", root.path)
        XCTAssertEqual(code, .feedFailed)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let entry = try XCTUnwrap((object?["feeds"] as? [[String: Any]])?.first)
        XCTAssertEqual(entry["feed"] as? String, server.url("/about").absoluteString)
        XCTAssertEqual(entry["exit"] as? Int, 3)
        XCTAssertTrue((entry["error"] as? String)?.contains("links to no feed") == true, "\(entry)")
    }

    func test_anAppleLink_isLookedUp_andItsFeedSubscribed() async throws {
        serveFeed(episodes: [("One", "/one.mp3")])
        let feedURL = server.url("/feed.xml").absoluteString
        server.route(
            "/dir/lookup",
            .ok(
                String(decoding: Fixtures.data("directory/lookup-show.json"), as: UTF8.self)
                    .replacingOccurrences(of: "FEED_URL", with: feedURL), type: "text/javascript; charset=utf-8"))
        let apple = "https://podcasts.apple.com/us/podcast/loopback-stories/id1200361736?i=1000650000000"

        let code = await run("add", apple, "--to", root.path, variables: directory)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.requests.first?.path, "/dir/lookup?id=1200361736&entity=podcast")
        XCTAssertTrue(output.text.contains("\(apple) is a show of the podcast directory; its feed is <\(feedURL)>"))
        XCTAssertTrue(output.text.contains("subscribed \(feedURL) into CLI Show/"), output.text)
    }

    func test_anAppleLinkTheDirectoryCannotResolve_isExit3NamingTheLink() async throws {
        let apple = "https://podcasts.apple.com/us/podcast/subscribers-hour/id1500000001"
        let answers: [(TestResponse, String)] = [
            (
                .ok(Fixtures.data("directory/lookup-empty.json"), type: "text/javascript"),
                "the podcast directory knows no show numbered 1500000001 (from \(apple))"
            ),
            (
                .ok(Fixtures.data("directory/lookup-no-feed.json"), type: "text/javascript"),
                "the podcast directory lists no public feed for \"Subscribers' Hour\" (from \(apple))"
            ),
            (.status(500, "oops"), "the podcast directory answered HTTP 500 to "),
            (.ok("<html>busy</html>", type: "text/html"), "the podcast directory's answer from "),
        ]
        for (answer, said) in answers {
            server.route("/dir/lookup", answer)
            errors.clear()
            let code = await run("add", apple, "--to", root.path, variables: directory)
            XCTAssertEqual(code, .feedFailed, said)
            XCTAssertTrue(errors.text.hasPrefix("podarchive: \(said)"), errors.text)
            XCTAssertEqual(errors.text.filter { $0 == "\n" }.count, 1, errors.text)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(".podarchive/feeds").path))
    }
}
