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
}
