// The per-host limit as a user meets it: every request to one host counts (feeds, pages, episodes), at most 4 at
// once by default, across all the shows of a run, whatever `--feed-jobs` and `--jobs` say.
import ArchiverCore
import Foundation
import TestSupport
import XCTest

@testable import podarchive

final class HostLimitTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }

    /// Show `name` at /<name>.xml with one episode at /<name>/1.mp3; its feed held as `hold` says.
    private func serveShow(_ name: String, hold: ((inout TestResponse) -> Void)? = nil) {
        let xml =
            "<rss version=\"2.0\"><channel><title>Show \(name)</title><item><title>\(name) 1</title>"
            + "<guid>\(name)-1</guid><enclosure url=\"/\(name)/1.mp3\" type=\"audio/mpeg\"/></item></channel></rss>"
        var feed = TestResponse.ok(xml, type: "application/rss+xml")
        hold?(&feed)
        server.route("/\(name).xml", feed)
        server.route("/\(name)/1.mp3", .ok(Data("audio of \(name)".utf8)))
    }

    func test_sixShowsOnOneHost_theirFeedsGoAtMost4AtOnce_andEveryShowSyncs() async throws {
        let names = ["a", "b", "c", "d", "e", "f"]
        for name in names { serveShow(name) }
        let added = await run(["add"] + names.map { server.url("/\($0).xml").absoluteString } + ["--to", root])
        XCTAssertEqual(added, .success, errors.text)
        output.clear()
        // Each feed is answered once four requests are served at once (the cap is reached, not merely kept), and
        // then only after half a second more unless a fifth joins (the time the cap is given to be broken).
        for name in names {
            serveShow(name) {
                $0.holdUntilActive = 4
                $0.holdForMore = 0.5
            }
        }

        let code = await run("sync", "--to", root, "--feed-jobs", "8", "--jobs", "8")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.maximumConcurrentRequests, 4, "4 requests to one host at once, never more")
        XCTAssertEqual(
            output.lines.filter { $0.hasPrefix("Show ") }.sorted(),
            names.map { "Show \($0): 1 archived, 0 already archived" })
    }
}
