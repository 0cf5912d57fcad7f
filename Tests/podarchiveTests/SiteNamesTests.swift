import Foundation
import TestSupport
import XCTest

// The names the site writes are the site's: a show titled like a root page, episodes whose title and extension make
// `feed.xml`, `index.html` or `cover.jpg`, and an archive an earlier version laid out with such names, each synced
// with `--site` from loopback feeds.
@testable import ArchiverCore
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
    /// their type): `feed` + `f.xml` and `index` + `talk.html` (kept as text, `feed.xml.txt`, never live: see
    /// LiveContentTests), `cover` + `c.jpg`; its artwork is `art.jpg`. A second show titled `FEEDS.OPML`, whose
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
        XCTAssertTrue(output.text.contains("site: 2 shows (2 written)"), output.text)
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
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("feed.xml.txt")), feedBytes)
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("index.html.txt")), pageBytes)
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("cover (2).jpg")), coverBytes)
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("cover.jpg")), artBytes, "the show's artwork")
        let page = try text("index.html (2)/index.html")
        for href in ["feed.xml.txt", "index.html.txt", "cover%20(2).jpg"] {
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

    // MARK: - Archives laid out by an earlier version

    /// The episode file an earlier version named `cover.jpg` (its transcript `cover.en.vtt`, its sidecar
    /// `cover.info.json`), in a show folder it named `index.html`, as the index and subscription record say.
    private func layOutAsAnEarlierVersionDid() async throws -> (modified: Date, bytes: Data) {
        server.route(
            "/show.xml",
            .ok(
                """
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Show</title>
                <item><title>cover</title><guid>s-1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="c.jpg" type="audio/mpeg"/>
                <podcast:transcript url="f.vtt" type="text/vtt" language="en"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/c.jpg", .ok(feedBytes))
        server.route("/f.vtt", .ok("WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n", type: "text/vtt"))
        let code = await run("sync", server.url("/show.xml").absoluteString, "--to", root.path, "--metadata")
        XCTAssertEqual(code, .success, errors.text)

        let manager = FileManager.default
        let old = root.appendingPathComponent("Show")
        for (now, then) in [
            ("cover (2).jpg", "cover.jpg"), ("cover (2).en.vtt", "cover.en.vtt"),
            ("cover (2).info.json", "cover.info.json"),
        ] {
            try manager.moveItem(at: old.appendingPathComponent(now), to: old.appendingPathComponent(then))
        }
        for file in [".podarchive/index.json", "cover.info.json"] {
            let url = old.appendingPathComponent(file)
            let rewritten = try String(contentsOf: url, encoding: .utf8).replacingOccurrences(
                of: "cover (2).", with: "cover.")
            try Data(rewritten.utf8).write(to: url)
        }
        try manager.moveItem(at: old, to: root.appendingPathComponent("index.html"))
        let records = root.appendingPathComponent(".podarchive/feeds")
        for name in try manager.contentsOfDirectory(atPath: records.path) {
            let url = records.appendingPathComponent(name)
            var record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            record["folder"] = "index.html"
            try JSONSerialization.data(withJSONObject: record).write(to: url)
        }
        let file = root.appendingPathComponent("index.html/cover.jpg")
        let modified = try XCTUnwrap(try manager.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
        return (modified, try Data(contentsOf: file))
    }

    func test_anEarlierVersionsClash_isMovedByTheNextSync_recordedInTheIndex_bytesAndDatesIntact() async throws {
        let before = try await layOutAsAnEarlierVersionDid()
        let fetched = server.requestedPaths.filter { $0 == "/c.jpg" || $0 == "/f.vtt" }.count
        output.clear()

        let code = await run("sync", "--to", root.path, "--site", "--metadata")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.contains("moved index.html to index.html (2): the site needs the name index.html"))
        XCTAssertTrue(
            output.text.contains(
                "moved index.html (2)/cover.jpg to index.html (2)/cover (2).jpg: the site needs the name cover.jpg"),
            output.text)
        try assertFixed(before)
        XCTAssertEqual(
            server.requestedPaths.filter { $0 == "/c.jpg" || $0 == "/f.vtt" }.count, fetched, "nothing fetched again")
    }

    func test_anEarlierVersionsClash_isMovedBySiteAlone() async throws {
        let before = try await layOutAsAnEarlierVersionDid()
        output.clear()

        let code = await run("site", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.contains("site: moved index.html to index.html (2)"), output.text)
        XCTAssertTrue(output.text.contains("site: 1 show (1 written)"), output.text)
        try assertFixed(before)
    }

    /// The show's folder and files are where the index and the record say, with the bytes and date they had; the
    /// names they left are the site's.
    private func assertFixed(_ before: (modified: Date, bytes: Data), line: UInt = #line) throws {
        let show = root.appendingPathComponent("index.html (2)")
        let index = try IndexFormat.decode(Data(contentsOf: show.appendingPathComponent(".podarchive/index.json")))
        let entry = try XCTUnwrap(index.episodes.first)
        XCTAssertEqual(entry.file, "cover (2).jpg", line: line)
        XCTAssertEqual(entry.companions?.map(\.file), ["cover (2).en.vtt"], line: line)
        let file = show.appendingPathComponent(entry.file)
        XCTAssertEqual(try Data(contentsOf: file), before.bytes, line: line)
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        XCTAssertEqual(modified, before.modified, line: line)
        #if os(Linux)
            // Its origin, read back as `getfattr -n user.xdg.origin.url` would (Swift's Glibc lacks getxattr).
            let read = try ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/env"),
                [
                    "python3", "-c",
                    "import os, sys; sys.stdout.write(os.getxattr(sys.argv[1], 'user.xdg.origin.url').decode())",
                    file.path,
                ],
                environment: ["PATH": "/usr/bin:/bin"])
            if !read.stderr.contains("Operation not supported") {  // a file system without user xattrs
                XCTAssertEqual(read.stdout, server.url("/c.jpg").absoluteString, read.stderr, line: line)
            }
        #endif
        XCTAssertTrue(isFile(show.appendingPathComponent("cover (2).en.vtt")), line: line)
        let sidecar = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(contentsOf: show.appendingPathComponent("cover (2).info.json")))
                as? [String: Any])
        XCTAssertEqual(sidecar["file"] as? String, "cover (2).jpg", line: line)
        XCTAssertEqual(
            (sidecar["companions"] as? [[String: Any]])?.compactMap { $0["file"] as? String }, ["cover (2).en.vtt"],
            line: line)
        let records = root.appendingPathComponent(".podarchive/feeds")
        let name = try XCTUnwrap(FileManager.default.contentsOfDirectory(atPath: records.path).first)
        let record = try JSONSerialization.jsonObject(with: Data(contentsOf: records.appendingPathComponent(name)))
        XCTAssertEqual((record as? [String: Any])?["folder"] as? String, "index.html (2)", line: line)
        XCTAssertTrue(isFile(root.appendingPathComponent("index.html")), "the root's page", line: line)
        XCTAssertTrue(
            try text("index.html (2)/feed.xml").contains("<enclosure url=\"cover%20(2).jpg\""), "the show's feed",
            line: line)
    }

    private func isFile(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && !folder.boolValue
    }
}
