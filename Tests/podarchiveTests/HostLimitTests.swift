import Foundation
import TestSupport
import XCTest

// The per-host limit as a user meets it: every request to one host counts (feeds, pages, episodes), at most 4 at
// once by default, across all the shows of a run, whatever `--feed-jobs` and `--jobs` say.
@testable import ArchiverCore
@testable import podarchive

final class HostLimitTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }

    /// Show `name` at /<name>.xml with one episode at /<name>/1.mp3, and with `paged` a second page,
    /// /<name>-2.xml, with a second episode; the feed or its second page held as `hold` says.
    private func serveShow(_ name: String, paged: Bool = false, hold: ((inout TestResponse) -> Void)? = nil) {
        func item(_ number: Int) -> String {
            server.route("/\(name)/\(number).mp3", .ok(Data("audio of \(name)".utf8)))
            return "<item><title>\(name) \(number)</title><guid>\(name)-\(number)</guid>"
                + "<enclosure url=\"/\(name)/\(number).mp3\" type=\"audio/mpeg\"/></item>"
        }
        let head =
            "<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\"><channel><title>Show \(name)</title>"
        let next = paged ? "<atom:link rel=\"next\" href=\"/\(name)-2.xml\"/>" : ""
        var feed = TestResponse.ok(head + next + item(1) + "</channel></rss>", type: "application/rss+xml")
        var page = TestResponse.ok(head + item(2) + "</channel></rss>", type: "application/rss+xml")
        if paged { hold?(&page) } else { hold?(&feed) }
        server.route("/\(name).xml", feed)
        if paged { server.route("/\(name)-2.xml", page) }
    }

    /// Each response held once four requests are served at once (the cap is reached, not merely kept), and then
    /// half a second more unless a fifth joins (the time the cap is given to be broken).
    private static func heldAtTheCap(_ response: inout TestResponse) {
        response.holdUntilActive = 4
        response.holdForMore = 0.5
    }

    func test_sixShowsOnOneHost_theirFeedsGoAtMost4AtOnce_andEveryShowSyncs() async throws {
        let names = ["a", "b", "c", "d", "e", "f"]
        for name in names { serveShow(name) }
        let added = await run(["add"] + names.map { server.url("/\($0).xml").absoluteString } + ["--to", root])
        XCTAssertEqual(added, .success, errors.text)
        output.clear()
        for name in names { serveShow(name, hold: Self.heldAtTheCap) }

        let code = await run("sync", "--to", root, "--feed-jobs", "8", "--jobs", "8")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.maximumConcurrentRequests, 4, "4 requests to one host at once, never more")
        XCTAssertEqual(
            output.lines.filter { $0.hasPrefix("Show ") }.sorted(),
            names.map { "Show \($0): 1 archived, 0 already archived" })
    }

    func test_sixShowsOnOneHost_theirFurtherPagesGoAtMost4AtOnce_andEveryEpisodeIsArchived() async throws {
        let names = ["a", "b", "c", "d", "e", "f"]
        for name in names { serveShow(name, paged: true) }
        let added = await run(["add"] + names.map { server.url("/\($0).xml").absoluteString } + ["--to", root])
        XCTAssertEqual(added, .success, errors.text)
        output.clear()
        for name in names { serveShow(name, paged: true, hold: Self.heldAtTheCap) }

        let code = await run("sync", "--to", root, "--feed-jobs", "8", "--jobs", "8")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.maximumConcurrentRequests, 4, "4 requests to one host at once, never more")
        XCTAssertEqual(
            Set(server.requestedPaths),
            Set(names.flatMap { ["/\($0).xml", "/\($0)-2.xml", "/\($0)/1.mp3", "/\($0)/2.mp3"] }))
        XCTAssertEqual(
            output.lines.filter { $0.hasPrefix("Show ") }.sorted(),
            names.map { "Show \($0): 2 archived, 0 already archived (2 pages)" })
    }
}
