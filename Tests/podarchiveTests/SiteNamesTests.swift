// The names the site writes are the site's: a show titled like a root page, and episodes whose title and
// extension make `feed.xml`, `index.html` or `cover.jpg`, synced with `--site` from loopback feeds.
import ArchiverCore
import Foundation
import TestSupport
import XCTest

@testable import podarchive

#if canImport(FoundationXML)
    import FoundationXML
#endif

final class SiteNamesTests: SiteTestCase {
    private let feedBytes = Data(repeating: 0x46, count: 2100)
    private let pageBytes = Data(repeating: 0x49, count: 2200)
    private let coverBytes = Data(repeating: 0x43, count: 2300)
    private let artBytes = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x41, count: 900))
    private let episodeArt = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 700))

    /// A show titled `index.html` whose episodes' names are `{title}` plus the extension of their URL (else of
    /// their type): `feed` + `f.xml`, `index` + `talk.html` (no type: a `.html` URL with a type would take the
    /// type's extension), `cover` + `c.jpg`; its artwork is `art.jpg`. A second show titled `FEEDS.OPML`, whose
    /// episode `cover.mp3` has artwork of its own (kept beside it as `cover.png`, were that not the show's).
    private func serveClashingShows() {
        server.route(
            "/a.xml",
            .ok(
                """
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
                <title>index.html</title><itunes:image href="art.jpg"/>
                <item><title>feed</title><guid>a-feed</guid><enclosure url="f.xml" type="audio/mpeg"/></item>
                <item><title>index</title><guid>a-index</guid><enclosure url="talk.html"/></item>
                <item><title>cover</title><guid>a-cover</guid><enclosure url="c.jpg" type="image/jpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route(
            "/b.xml",
            .ok(
                """
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
                <title>FEEDS.OPML</title>
                <item><title>Plain</title><guid>b-1</guid><enclosure url="p.mp3" type="audio/mpeg"/></item>
                <item><title>cover</title><guid>b-2</guid><enclosure url="p.mp3" type="audio/mpeg"/>
                <itunes:image href="e.png"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/f.xml", .ok(feedBytes))
        server.route("/talk.html", .ok(pageBytes))
        server.route("/c.jpg", .ok(coverBytes))
        server.route("/art.jpg", .ok(artBytes, type: "image/jpeg"))
        server.route("/p.mp3", .ok(Data(repeating: 7, count: 2000)))
        server.route("/e.png", .ok(episodeArt, type: "image/png"))
    }

    func test_showsAndEpisodesNamedLikeTheSitesFiles_takeASuffix_andEveryOneIsOnTheSite() async throws {
        serveClashingShows()

        let code = await run(
            "sync", server.url("/a.xml").absoluteString, server.url("/b.xml").absoluteString, "--to", root.path,
            "--site", "--metadata")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(errors.text, "")
        XCTAssertTrue(output.text.contains("site: 2 shows (2 written again)"), output.text)
        // The root's names are the site's pages; the shows are beside them.
        for page in ["index.html", "feeds.opml"] { XCTAssertTrue(isFile(root.appendingPathComponent(page)), page) }
        let home = try text("index.html")
        XCTAssertTrue(home.contains(#"<a href="index.html%20(2)/index.html">index.html</a>"#), home)
        XCTAssertTrue(home.contains(#"<a href="FEEDS.OPML%20(2)/index.html">FEEDS.OPML</a>"#), home)
        let opml = try text("feeds.opml")
        XCTAssertTrue(opml.contains(#"xmlUrl="index.html%20(2)/feed.xml""#), opml)
        XCTAssertTrue(opml.contains(#"xmlUrl="FEEDS.OPML%20(2)/feed.xml""#), opml)
        XCTAssertTrue(try text("FEEDS.OPML (2)/index.html").contains("Plain"))
        let other = root.appendingPathComponent("FEEDS.OPML (2)")
        XCTAssertEqual(try Data(contentsOf: other.appendingPathComponent("cover (2).png")), episodeArt)
        XCTAssertFalse(FileManager.default.fileExists(atPath: other.appendingPathComponent("cover.png").path))
        XCTAssertFalse(try text("FEEDS.OPML (2)/feed.xml").contains("itunes:image"), "the show has no artwork")

        // Each episode under its name with a suffix, its bytes intact; the show's names are the site's.
        let show = root.appendingPathComponent("index.html (2)")
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("feed (2).xml")), feedBytes)
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("index (2).html")), pageBytes)
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("cover (2).jpg")), coverBytes)
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("cover.jpg")), artBytes, "the show's artwork")
        let page = try text("index.html (2)/index.html")
        for href in ["feed%20(2).xml", "index%20(2).html", "cover%20(2).jpg"] {
            XCTAssertTrue(page.contains(#"<a href="\#(href)" download>Download</a>"#), "\(href) in \(page)")
        }
        let feed = try text("index.html (2)/feed.xml")
        XCTAssertTrue(XMLParser(data: Data(feed.utf8)).parse(), "feed.xml is the site's podcast feed")
        XCTAssertEqual(feed.components(separatedBy: "<enclosure ").count - 1, 3, feed)
        XCTAssertTrue(feed.contains(#"<itunes:image href="cover.jpg"/>"#), feed)

        // The next run finds everything in place: nothing moved, nothing fetched again.
        let requests = server.requestedPaths.count
        output.clear()
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertFalse(output.text.contains("moved"), output.text)
        XCTAssertEqual(Set(server.requestedPaths.dropFirst(requests)), ["/a.xml", "/b.xml"])
    }

    private func isFile(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && !folder.boolValue
    }
}
