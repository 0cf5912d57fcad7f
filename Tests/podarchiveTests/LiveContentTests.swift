import Foundation
import TestSupport
import XCTest

// Nothing a feed supplies becomes live content where the archive is served: a feed that tries every way to get
// HTML, SVG or XML kept under a name a static server would serve as a page (an HTML transcript, one declared as
// VTT, SVG artwork for the show and an episode, an enclosure named .svg), synced with metadata and the site. An
// archive an earlier version wrote with an HTML transcript is renamed by the next sync.
@testable import ArchiverCore
@testable import podarchive

final class LiveContentTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private let html = "<!DOCTYPE html><html><body><script>fetch('../.podarchive/feeds/')</script></body></html>"
    private let svg = #"<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>"#
    private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("JFIF".utf8)

    private func serveHostileFeed() {
        let xml = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Live</title>
            <itunes:image href="/cover.jpg"/>
            <item><title>Pilot</title><guid>1</guid><enclosure url="/pilot.mp3" type="audio/mpeg"/>
            <podcast:transcript url="/pilot.html" type="text/html"/>
            <itunes:image href="/pilot.png"/></item>
            <item><title>Drawing</title><guid>2</guid><enclosure url="/drawing.svg" type="image/svg+xml"/></item>
            <item><title>Photo</title><guid>3</guid><enclosure url="/photo.mp3" type="audio/mpeg"/>
            <podcast:transcript url="/photo.vtt" type="text/vtt" language="en"/><itunes:image href="/photo.svg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data(repeating: 1, count: 500), type: "audio/mpeg"))
        server.route("/photo.mp3", .ok(Data(repeating: 3, count: 500), type: "audio/mpeg"))
        server.route("/pilot.html", .ok(html, type: "text/html"))
        server.route("/photo.vtt", .ok(html, type: "text/vtt"))
        server.route("/pilot.png", .ok(jpeg, type: "image/png"))
        server.route("/photo.svg", .ok(svg, type: "image/jpeg"))
        server.route("/drawing.svg", .ok(svg, type: "image/svg+xml"))
        server.route("/cover.jpg", .ok(svg, type: "image/jpeg"))
    }

    func test_aFeedsHTMLAndSVG_areKeptAsText_underNamesNoServerRenders_andTheSiteLinksNoneOfThem() async throws {
        serveHostileFeed()

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path, "--metadata", "--site")

        XCTAssertEqual(code, .success, errors.text)
        let visible = try TemporaryFolder.visibleFiles(in: root).filter { $0.hasPrefix("Live/") }
        let live = visible.filter { ["html", "htm", "svg", "xml", "xhtml"].contains(($0 as NSString).pathExtension) }
        XCTAssertEqual(live.sorted(), ["Live/feed.xml", "Live/index.html"], "only the site's own pages: \(visible)")
        // The bytes are kept as they were published, named after what they are.
        XCTAssertEqual(try text("Live/Pilot.transcript.html.txt"), html)
        XCTAssertFalse(visible.contains { $0.hasPrefix("Live/Photo.en.") }, "an HTML page declared VTT is not kept")
        XCTAssertTrue(output.text.contains("photo.vtt> of Photo: server sent an HTML page"), output.text)
        XCTAssertEqual(FileManager.default.contents(atPath: root.appendingPathComponent("Live/Pilot.jpg").path), jpeg)
        XCTAssertEqual(try text("Live/Photo.svg.txt"), svg, "SVG artwork is text, never .jpg")
        XCTAssertEqual(try text("Live/Drawing.svg.txt"), svg)
        XCTAssertFalse(visible.contains { $0.hasPrefix("Live/cover.") }, "an SVG is not the show's cover")
        XCTAssertTrue(errors.text.contains("not a JPEG, PNG, WebP or GIF image"), errors.text)
        let page = try text("Live/index.html")
        for name in visible
        where !["Live/feed.xml", "Live/index.html"].contains(name)
            && page.contains("href=\"\(name.dropFirst("Live/".count))\"")
        {
            XCTAssertFalse(LiveContent.isLive(name), "the page links \(name)")
        }
    }

    func test_anHTMLTranscriptAnEarlierVersionKept_isRenamedAndRecorded_onTheNextSync() async throws {
        serveHostileFeed()
        let first = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path)
        XCTAssertEqual(first, .success, errors.text)
        // As an earlier version left it: the transcript under its live name, recorded so.
        let show = root.appendingPathComponent("Live")
        try FileManager.default.moveItem(
            at: show.appendingPathComponent("Pilot.transcript.html.txt"),
            to: show.appendingPathComponent("Pilot.transcript.html"))
        let indexURL = show.appendingPathComponent(".podarchive/index.json")
        let index = try String(contentsOf: indexURL, encoding: .utf8)
        try index.replacingOccurrences(of: "Pilot.transcript.html.txt", with: "Pilot.transcript.html")
            .write(to: indexURL, atomically: true, encoding: .utf8)

        let code = await run("sync", "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: show.appendingPathComponent("Pilot.transcript.html").path))
        XCTAssertEqual(try text("Live/Pilot.transcript.html.txt"), html, "the same bytes, renamed")
        XCTAssertTrue(
            output.text.contains(
                "moved Live/Pilot.transcript.html to Live/Pilot.transcript.html.txt: a web server would run it as a page"
            ),
            output.text)
        let kept = try String(contentsOf: indexURL, encoding: .utf8)
        XCTAssertTrue(kept.contains("\"Pilot.transcript.html.txt\""), kept)
        XCTAssertFalse(kept.contains("\"Pilot.transcript.html\""), kept)
    }

    private func text(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
}
