import Foundation
import TestSupport
import XCTest

// `podarchive site` and `sync --site` on archives made from loopback feeds: the pages and feeds it writes, what a
// podcast app reads back from feed.xml, hostile titles and notes kept inside their elements, and only what
// changed written again. The pages in a real browser: BrowserTests.
@testable import ArchiverCore
@testable import podarchive

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// An archive of two loopback shows, a plain one and a hostile one, for the site's tests.
class SiteTestCase: CommandLineTestCase {
    var root: URL { folder.url.appendingPathComponent("archive") }

    /// Two shows: a plain one with notes, durations and a transcript, and a hostile one.
    func serveShows(withSecondEpisode: Bool = true) {
        let plain = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Plain Show</title>
            <link>https://plain.example/</link><description>A plain &lt;b&gt;show&lt;/b&gt;.</description>
            <item><title>First &amp; Best</title><guid>plain-1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
            <itunes:duration>1:02:03</itunes:duration><description>Notes of the first.</description>
            <enclosure url="p1.mp3" type="audio/mpeg"/><podcast:transcript url="p1.vtt" type="text/vtt" language="en"/></item>
            \(withSecondEpisode ? """
            <item><title>Second</title><guid>plain-2</guid><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate>
            <enclosure url="p2.mp3" type="audio/mpeg"/></item>
            """ : "")
            </channel></rss>
            """
        let hostile = """
            <rss version="2.0"><channel><title>Evil &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>
            <link>javascript:alert(1)</link><description>&lt;script&gt;document.title='PWNED'&lt;/script&gt;</description>
            <item><title>&lt;img src=x onerror=alert(1)&gt;</title><guid>evil-1</guid>
            <pubDate>Tue, 07 Jan 2025 08:00:00 GMT</pubDate>
            <description><![CDATA[<p>Hi</p><script>document.title='PWNED'</script><img src="http://tracker.invalid/p.gif"
            onerror="document.body.dataset.pwned='1'"><a href="javascript:document.body.dataset.pwned='1'">click</a>
            <iframe src="http://evil.invalid/"></iframe></li></ol>]]></description>
            <enclosure url="e1.mp3" type="audio/mpeg"/></item></channel></rss>
            """
        server.route("/plain.xml", .ok(plain, type: "application/rss+xml"))
        server.route("/evil.xml", .ok(hostile, type: "application/rss+xml"))
        server.route("/p1.vtt", .ok("WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n", type: "text/vtt"))
        for name in ["p1", "p2", "e1"] { server.route("/\(name).mp3", .ok(Data(repeating: 9, count: 3000))) }
    }

    func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func makeArchive() async throws {
        serveShows()
        let code = await run(
            "sync", server.url("/plain.xml").absoluteString, server.url("/evil.xml").absoluteString,
            "--to", root.path)
        XCTAssertEqual(code, .success, errors.text)
    }
}

final class SiteTests: SiteTestCase {
    func test_site_writesPagesAndFeeds_thatNameEveryArchivedFile() async throws {
        try await makeArchive()
        serveShows(withSecondEpisode: false)  // the publisher removes "Second"
        _ = await run("sync", server.url("/plain.xml").absoluteString, "--to", root.path)

        output.clear()
        let code = await run("site", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.contains("site: 2 shows (2 written)"), "the first time: \(output.text)")
        let home = try text("index.html")
        XCTAssertTrue(home.contains(#"<a href="Plain%20Show/index.html">Plain Show</a>"#), home)
        XCTAssertTrue(home.contains("2 episodes"), home)
        let page = try text("Plain Show/index.html")
        XCTAssertTrue(page.contains(#"<audio controls preload="none" src="First%20%26%20Best.mp3"></audio>"#), page)
        XCTAssertTrue(page.contains(#"<audio controls preload="none" src="Second.mp3"></audio>"#), page)
        XCTAssertTrue(page.contains("1:02:03"), page)
        XCTAssertTrue(page.contains("<p>Notes of the first.</p>"), page)
        XCTAssertTrue(page.contains(#"<a href="First%20%26%20Best.en.vtt">Transcript (en)</a>"#), page)
        XCTAssertTrue(page.contains("removed upstream"), page)
        XCTAssertLessThan(
            try XCTUnwrap(page.range(of: "Second")).lowerBound, try XCTUnwrap(page.range(of: "First &amp;")).lowerBound,
            "newest first")
        let opml = try text("feeds.opml")
        XCTAssertTrue(opml.contains(#"xmlUrl="Plain%20Show/feed.xml""#), opml)
        let feed = try text("Plain Show/feed.xml")
        XCTAssertTrue(feed.contains("<pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>"), feed)
        XCTAssertTrue(feed.contains("<pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate>"), feed)
        XCTAssertTrue(feed.contains("<description>&lt;p&gt;Notes of the first.&lt;/p&gt;</description>"), feed)
        // The show page says what the show says of itself, made safe, and links its web site (http(s) only).
        let showPage = try text("Plain Show/index.html")
        XCTAssertTrue(showPage.contains("A plain <b>show</b>."), showPage)
        XCTAssertTrue(showPage.contains(#"<a href="https://plain.example/" rel="noopener noreferrer">"#), showPage)
        let evilFolder = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: root.path).first { $0.hasPrefix("Evil") })
        let evilPage = try text("\(evilFolder)/index.html")
        XCTAssertFalse(evilPage.contains("javascript:"), evilPage)
        XCTAssertFalse(evilPage.contains("PWNED"), evilPage)
        // The transcript the archive keeps is in the feed too, served from the archive.
        XCTAssertTrue(
            feed.contains(#"<podcast:transcript url="First%20%26%20Best.en.vtt" type="text/vtt" language="en"/>"#),
            feed)

        // A podcast app reading feed.xml finds the archived episodes, with their original GUIDs.
        output.clear()
        let listed = await run("list", root.appendingPathComponent("Plain Show/feed.xml").path, "--json")
        XCTAssertEqual(listed, .success, errors.text)
        let json = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let episodes = try XCTUnwrap(json?["episodes"] as? [[String: Any]])
        XCTAssertEqual(episodes.compactMap { $0["guid"] as? String }.sorted(), ["plain-1", "plain-2"])
        XCTAssertEqual(episodes.compactMap { $0["title"] as? String }.sorted(), ["First & Best", "Second"])
        let urls = episodes.compactMap { $0["url"] as? String }
        XCTAssertTrue(
            urls.allSatisfy { $0.hasPrefix(root.appendingPathComponent("Plain Show").absoluteString) }, "\(urls)")
    }

    func test_hostileTitlesAndNotes_stayInsideTheirElements() async throws {
        try await makeArchive()
        _ = await run("site", "--to", root.path)
        let folder = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: root.path).first { $0.hasPrefix("Evil") })
        let page = try text("\(folder)/index.html")
        XCTAssertTrue(page.contains("<title>Evil &lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;</title>"), page)
        XCTAssertTrue(page.contains("<h2>&lt;img src=x onerror=alert(1)&gt;</h2>"), page)
        for bad in ["PWNED", "onerror=\"", "javascript:", "<iframe", "src=\"http", "tracker.invalid/p.gif\">"] {
            XCTAssertFalse(page.contains(bad), "\(bad) in the page")
        }
        XCTAssertEqual(page.components(separatedBy: "<script>").count, 2, "one script: the page's own filter")
        XCTAssertTrue(page.contains("[image]</a>"), page)
        let feed = try text("\(folder)/feed.xml")
        XCTAssertFalse(feed.contains("PWNED"), feed)
        XCTAssertTrue(XMLParser(data: Data(feed.utf8)).parse(), "feed.xml is well-formed XML")
    }

    func test_onlyWhatChanged_isWrittenAgain_andBaseURLMakesEnclosuresAbsolute() async throws {
        try await makeArchive()
        _ = await run("site", "--to", root.path)
        output.clear()
        _ = await run("site", "--to", root.path)
        XCTAssertTrue(output.text.contains("(0 written again)"), output.text)

        output.clear()
        _ = await run("site", "--to", root.path, "--base-url", "http://nas.local/podcasts")
        XCTAssertTrue(output.text.contains("(2 written again)"), output.text)
        let feed = try text("Plain Show/feed.xml")
        XCTAssertTrue(feed.contains(#"url="http://nas.local/podcasts/Plain%20Show/Second.mp3""#), feed)

        // sync --site: saved for the archive; the next sync of one show rewrites that show only.
        output.clear()
        let code = await run("sync", server.url("/plain.xml").absoluteString, "--to", root.path, "--site")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertFalse(output.text.contains("site:"), "nothing changed, nothing said: \(output.text)")
        output.clear()
        _ = await run("sync", server.url("/plain.xml").absoluteString, "--to", root.path, "-v")
        XCTAssertTrue(output.text.contains("site: 2 shows (0 written again)"), "said with -v: \(output.text)")
        server.route(
            "/plain.xml",
            .ok(
                try String(contentsOf: root.appendingPathComponent("Plain Show/.podarchive/history/current.xml"))
                    .replacingOccurrences(
                        of: "</channel>",
                        with:
                            "<item><title>Third</title><guid>plain-3</guid><enclosure url=\"p2.mp3\"/></item></channel>"
                    ),
                type: "application/rss+xml"))
        output.clear()
        _ = await run("sync", "--to", root.path)
        XCTAssertTrue(output.text.contains("site: 2 shows (1 written again)"), output.text)
        XCTAssertTrue(try text("Plain Show/index.html").contains("Third"))
        XCTAssertTrue(try text("Plain Show/feed.xml").contains("http://nas.local/podcasts/Plain%20Show/Third.mp3"))
    }

    func test_badBaseURL_isAUsageError_andNoArchiveIsSaidSo() async throws {
        let code = await run("site", "--to", root.path, "--base-url", "nas.local/podcasts")
        XCTAssertEqual(code, .usage)
        XCTAssertTrue(errors.text.contains("option '--base-url' needs an http(s) URL"), errors.text)
        errors.clear()
        let empty = await run("site", "--to", root.path)
        XCTAssertEqual(empty, .usage)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("index.html").path))
    }
}
