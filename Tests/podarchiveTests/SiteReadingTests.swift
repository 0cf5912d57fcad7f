import Foundation
import TestSupport
import XCTest

// The site as a place to read the archive: the notes of episodes the publisher removed, found again in the feed's
// history, and said to be so.
@testable import ArchiverCore
@testable import podarchive

final class SiteReadingTests: SiteTestCase {
    private func serveGone(notes: String?) {
        let gone =
            notes.map {
                """
                <item><title>Gone</title><guid>gone-1</guid><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate>
                <description><![CDATA[\($0)]]></description><enclosure url="g.mp3" type="audio/mpeg"/></item>
                """
            } ?? ""
        server.route(
            "/show.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Kept Show</title>
                <item><title>Stays</title><guid>stays-1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
                <description>Still here.</description><enclosure url="s.mp3" type="audio/mpeg"/></item>
                \(gone)</channel></rss>
                """, type: "application/rss+xml"))
        for name in ["s", "g"] { server.route("/\(name).mp3", .ok(Data(repeating: 7, count: 2000))) }
    }

    private func expectSuccess(_ arguments: String..., line: UInt = #line) async throws {
        let code = await run(arguments)
        XCTAssertEqual(code, .success, errors.text, line: line)
    }

    func test_removedEpisode_showsTheNotesOfTheNewestRevisionThatHeldIt_madeSafe_andSaysSo() async throws {
        // Given: three revisions of the feed: the notes, the notes changed (hostile now), the episode removed.
        let feed = server.url("/show.xml").absoluteString
        serveGone(notes: "<p>First words.</p>")
        try await expectSuccess("sync", feed, "--to", root.path)
        serveGone(
            notes: """
                <p>Later words, <b>bold</b>.</p><script>document.title='PWNED'</script>\
                <img src="http://tracker.invalid/p.gif" onerror="alert(1)">
                """)
        try await expectSuccess("sync", feed, "--to", root.path)
        serveGone(notes: nil)
        try await expectSuccess("sync", feed, "--to", root.path)

        // When
        try await expectSuccess("site", "--to", root.path)

        // Then: the newest revision's notes, through the sanitiser, marked as removed with the date.
        let page = try text("Kept Show/index.html")
        XCTAssertTrue(page.contains("<p>Later words, <b>bold</b>.</p>"), page)
        XCTAssertFalse(page.contains("First words"), "an older revision's notes: \(page)")
        XCTAssertTrue(page.contains("removed upstream 1970-01-01"), page)
        XCTAssertTrue(page.contains("as the feed said them on 1970-01-01 before they were removed"), page)
        for bad in ["PWNED", "onerror", "<img src=\"http"] {
            XCTAssertFalse(page.contains(bad), "\(bad) in the page")
        }
        XCTAssertEqual(page.components(separatedBy: "as the feed said them").count, 2, "only the removed one")
        XCTAssertTrue(page.contains("<p>Still here.</p>"), page)
    }

    func test_showPage_jumpsToEachYear_marksAwayAndRemovedAsBadges_andWritesSizesAsTheCommandLineDoes() async throws {
        // Given: episodes of 2023 and 2025, one removed upstream, one offloaded.
        let feed = server.url("/show.xml").absoluteString
        serveGone(notes: "<p>Soon gone.</p>")
        try await expectSuccess("sync", feed, "--to", root.path)
        serveGone(notes: nil)
        server.route(
            "/show.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Kept Show</title>
                <item><title>Stays</title><guid>stays-1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="s.mp3" type="audio/mpeg"/></item>
                <item><title>Older</title><guid>older-1</guid><pubDate>Mon, 06 Feb 2023 08:00:00 GMT</pubDate>
                <enclosure url="s.mp3" type="audio/mpeg"/></item></channel></rss>
                """, type: "application/rss+xml"))
        try await expectSuccess("sync", feed, "--to", root.path)
        let cold = folder.url.appendingPathComponent("cold")
        try FileManager.default.createDirectory(at: cold, withIntermediateDirectories: true)
        try await expectSuccess(
            "offload", "--to", root.path, "Kept Show", "--before", "2024-01-01", "--into", cold.path)

        // When
        try await expectSuccess("site", "--to", root.path)

        // Then: a link per year to the newest episode of that year, each found on the page.
        let page = try text("Kept Show/index.html")
        let nav = try XCTUnwrap(
            page.range(of: #"<nav class="years" aria-label="Years">.*?</nav>"#, options: .regularExpression))
        let links = try NSRegularExpression(pattern: ##"<a href="#(e[0-9a-f]{12})">([0-9]{4})</a>"##)
        let found: [(year: String, anchor: String)] = links.matches(in: page, range: NSRange(nav, in: page)).map {
            let year = String(page[Range($0.range(at: 2), in: page)!])
            return (year, String(page[Range($0.range(at: 1), in: page)!]))
        }
        XCTAssertEqual(found.map(\.year), ["2025", "2023"], page)
        for (_, anchor) in found { XCTAssertTrue(page.contains("<li id=\"\(anchor)\""), anchor) }
        XCTAssertTrue(page.contains("<span class=\"badge removed\">removed upstream 1970-01-01</span>"), page)
        XCTAssertTrue(page.contains("<span class=\"badge away\">offloaded "), page)
        // 2,000 bytes, in the command line's words.
        XCTAssertTrue(page.contains(" · 2.0 kB"), page)
        XCTAssertFalse(page.contains("KB") || page.contains(" bytes"), page)
    }

    func test_everySync_keepsTheShowsCover_andTheSiteShowsNoBoxForAShowWithout() async throws {
        // Given: a show with artwork and one without, synced without --metadata.
        server.route(
            "/art.xml",
            .ok(
                """
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
                <title>Art Show</title><itunes:image href="/art.png"/>
                <item><title>One</title><guid>a-1</guid><enclosure url="s.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("art".utf8)
        server.route("/art.png", .ok(png, type: "image/png"))
        serveGone(notes: nil)

        try await expectSuccess(
            "sync", server.url("/art.xml").absoluteString, server.url("/show.xml").absoluteString, "--to", root.path)
        try await expectSuccess("site", "--to", root.path)

        // Then: the cover kept, shown with alt text; no image element for the show without one.
        XCTAssertEqual(
            FileManager.default.contents(atPath: root.appendingPathComponent("Art Show/cover.png").path), png)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: root.appendingPathComponent("Art Show/One.info.json").path))
        let home = try text("index.html")
        XCTAssertTrue(home.contains(#"<img src="Art%20Show/cover.png" alt="" width="80" height="80">"#), home)
        XCTAssertEqual(home.components(separatedBy: "<img").count, 2, "one show has a cover: \(home)")
        XCTAssertTrue(try text("Art Show/index.html").contains(#"<img src="cover.png" alt=""#))
        XCTAssertFalse(try text("Kept Show/index.html").contains("<img"))
    }
}
