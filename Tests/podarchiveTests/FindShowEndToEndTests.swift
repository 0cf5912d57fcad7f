import Foundation
import TestSupport
import XCTest

// Finding a show through the built binary, as a person would: search a directory (a loopback server serving
// recorded iTunes answers, named by PODARCHIVE_DIRECTORY_URL), subscribe with the Apple Podcasts link, sync; and
// pages that are hostile (endless, huge, linking to other schemes) end in one line and an exit code.
@testable import ArchiverCore

final class FindShowEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        folder = try TemporaryFolder("find-e2e")
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments,
            environment: ProcessRunner.isolatedEnvironment(
                home: folder.url, extra: ["PODARCHIVE_DIRECTORY_URL": server.url("/itunes").absoluteString]),
            currentDirectory: folder.url)
    }

    private func recorded(_ fixture: String) -> TestResponse {
        .ok(
            String(decoding: Fixtures.data("directory/\(fixture)"), as: UTF8.self)
                .replacingOccurrences(of: "FEED_URL", with: server.url("/show/feed.xml").absoluteString),
            type: "text/javascript; charset=utf-8")
    }

    func test_binary_searchThenAddTheAppleLinkThenSync() throws {
        server.route("/itunes/search", recorded("search-history.json"))
        server.route("/itunes/lookup", recorded("lookup-show.json"))
        server.route(
            "/show/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Loopback Stories</title><item><title>Pilot</title>"
                    + "<enclosure url=\"pilot.mp3\" type=\"audio/mpeg\"/></item></channel></rss>",
                type: "application/rss+xml"))
        server.route("/show/pilot.mp3", .ok(Data("ID3 pilot".utf8)))
        let feed = server.url("/show/feed.xml").absoluteString

        let search = try podarchive("search", "loopback", "--limit", "1")
        XCTAssertEqual(search.status, 0, search.stderr)
        XCTAssertEqual(search.stdout, "A History of Loopback (by Kate Archivist, 2 episodes)\n    \(feed)\n")

        let link = "https://podcasts.apple.com/us/podcast/loopback-stories/id1200361736"
        let add = try podarchive("add", link, "--to", "archive")
        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(
            add.stdout,
            "\(link) is a show of the podcast directory; its feed is <\(feed)>\nsubscribed \(feed) into "
                + "Loopback Stories/\n")

        let sync = try podarchive("sync", "--to", "archive")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let pilot = folder.url.appendingPathComponent("archive/Loopback Stories/Pilot.mp3")
        XCTAssertEqual(FileManager.default.contents(atPath: pilot.path), Data("ID3 pilot".utf8))
        XCTAssertEqual(server.requestedPaths.filter { $0.hasPrefix("/itunes/lookup") }.count, 1, "looked up once")
    }

    func test_binary_hostilePages_endInOneLineAndAnExitCode() throws {
        // A page whose head never ends: read up to the page cap, then as the feed it is not, up to the feed cap.
        let meta = Data(String(repeating: "<meta name=\"x\" content=\"y\">", count: 2048).utf8)
        server.route(
            "/endless",
            .endless(type: "text/html") { number in number == 0 ? Data("<!DOCTYPE html><html><head>".utf8) : meta })
        // Feed links only to other schemes, and one in the body: none is a feed link.
        server.route(
            "/schemes",
            .ok(
                "<html><head><link rel=\"alternate\" type=\"application/rss+xml\" href=\"file:///etc/passwd\">"
                    + "<link rel=\"alternate\" type=\"application/rss+xml\" href=\"javascript:alert(1)\"></head>"
                    + "<body><link rel=\"alternate\" type=\"application/rss+xml\" href=\"/late.xml\"></body></html>",
                type: "text/html"))

        let endless = try podarchive(
            "sync", server.url("/endless").absoluteString, "--to", "archive", "--max-feed-size", "16M")
        let schemes = try podarchive("sync", server.url("/schemes").absoluteString, "--to", "archive")

        XCTAssertEqual(endless.status, 3, endless.stderr)
        XCTAssertEqual(endless.stderr.filter { $0 == "\n" }.count, 1, endless.stderr)
        XCTAssertEqual(
            endless.stderr,
            "podarchive: feed \(server.url("/endless").absoluteString) is larger than 16777216 bytes (once "
                + "decompressed); stopped reading there\n")
        XCTAssertEqual(schemes.status, 3, schemes.stderr)
        XCTAssertEqual(
            schemes.stderr,
            "podarchive: \(server.url("/schemes").absoluteString) is a web page that links to no feed (no <link "
                + "rel=\"alternate\"> to RSS, Atom or JSON Feed in its head); give the show's feed URL\n")
        XCTAssertFalse(server.requestedPaths.contains("/late.xml"))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("archive/.podarchive/feeds").path))
    }
}
