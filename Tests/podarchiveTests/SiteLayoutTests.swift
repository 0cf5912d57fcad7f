import Foundation
import TestSupport
import XCTest

// The site's pages laid out by headless Chromium at 1280 and 390 pixels, with titles of 300 characters and long
// URLs in titles and notes: nothing wider than the window, the landmarks there, every field labelled, every
// image with alt text. Each page is measured inside a frame of that width, from a harness page served beside it
// (a page opened as a file may not read a frame's document); screenshots go to `ci-artifacts/site/` (git-ignored),
// which CI keeps.
@testable import ArchiverCore
@testable import podarchive

final class SiteLayoutTests: SiteTestCase {
    private var browser: URL!

    override func setUpWithError() throws {
        try super.setUpWithError()
        let candidates = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"]
        guard let found = candidates.first(where: FileManager.default.isExecutableFile) else {
            if ProcessInfo.processInfo.environment["PODARCHIVE_REQUIRE_BROWSER"] != nil {
                XCTFail("no Chromium at \(candidates); .ci/run installs Debian's chromium")
            }
            throw XCTSkip("no Chromium here (apt-get install chromium)")
        }
        browser = URL(fileURLWithPath: found)
    }

    /// Where screenshots are kept: `ci-artifacts/site/` in the package (git-ignored).
    private static let artifacts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("ci-artifacts/site")

    private func chromium(_ arguments: [String]) throws -> String {
        let profile = folder.url.appendingPathComponent("browser-profile")
        let result = try ProcessRunner.run(
            browser,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                "--user-data-dir=\(profile.path)", "--disable-background-networking", "--disable-component-update",
                "--virtual-time-budget=3000",
            ] + arguments,
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    /// A harness that frames `page` at `width` pixels and says what it measured, as JSON in its body.
    private static func harness(page: String, width: Int) -> String {
        """
        <!doctype html><body><iframe id="f" src="\(page)" style="width:\(width)px;height:900px;border:0"></iframe><script>
        const frame = document.getElementById("f");
        frame.onload = () => setTimeout(() => {
          const d = frame.contentDocument, root = d.documentElement, width = root.clientWidth;
          const labelled = (input) => (input.id && d.querySelector(`label[for="${input.id}"]`)) || input.getAttribute("aria-label");
          document.body.dataset.result = JSON.stringify({
            scrollWidth: root.scrollWidth, width,
            missingLandmarks: ["header", "main"].filter((name) => !d.querySelector(name)),
            unlabelled: [...d.querySelectorAll("input, select, textarea")].filter((input) => !labelled(input)).length,
            withoutAlt: [...d.querySelectorAll("img")].filter((image) => !image.hasAttribute("alt")).length,
            wider: [...d.querySelectorAll("body *")].filter((e) => e.getBoundingClientRect().right > width + 0.5)
              .map((e) => e.tagName).slice(0, 5),
          });
        }, 300);
        </script></body>
        """
    }

    private struct Measured: Decodable, Equatable {
        var scrollWidth: Int
        var width: Int
        var missingLandmarks: [String]
        var unlabelled: Int
        var withoutAlt: Int
        var wider: [String]
    }

    private func makeLongArchive() async throws {
        let long = String(repeating: "Supercalifragilistic", count: 15)  // 300 characters, no place to break
        let url = "https://example.com/" + String(repeating: "a-very-long-path-segment/", count: 12)
        server.route(
            "/long.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>\(long)</title>
                <item><title>\(long)</title><guid>l-1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
                <description><![CDATA[<p>See \(url) and <a href="\(url)">\(url)</a></p><pre>\(long)</pre>]]></description>
                <enclosure url="l.mp3" type="audio/mpeg"/></item>
                <item><title>Listen at \(url)</title><guid>l-2</guid><pubDate>Mon, 06 Jan 2024 08:00:00 GMT</pubDate>
                <enclosure url="m.mp3" type="audio/mpeg"/></item></channel></rss>
                """, type: "application/rss+xml"))
        for name in ["l", "m"] { server.route("/\(name).mp3", .ok(Data(repeating: 3, count: 1000))) }
        let code = await run("sync", server.url("/long.xml").absoluteString, "--to", root.path)
        XCTAssertEqual(code, .success, errors.text)
    }

    func test_pages_at1280And390_fitTheWindow_withLandmarksLabelsAndAltText() async throws {
        try await makeArchive()
        try await makeLongArchive()
        let www = folder.url.appendingPathComponent("www")
        let published = await run("site", "--to", root.path, "--out", www.path)
        XCTAssertEqual(published, .success, errors.text)
        let shows = try FileManager.default.contentsOfDirectory(atPath: www.path).filter {
            var folder: ObjCBool = false
            return FileManager.default.fileExists(atPath: www.appendingPathComponent($0).path, isDirectory: &folder)
                && folder.boolValue
        }
        XCTAssertEqual(shows.count, 3, "\(shows)")
        // The root page with the search's results shown (the long titles among them), and each show's page.
        let pages = ["index.html#q=supercalifragilistic"] + shows.map { SitePath.href($0) + "/index.html" }
        let python = try PythonHTTPServer(serving: www)
        defer { python.stop() }
        try FileManager.default.createDirectory(at: Self.artifacts, withIntermediateDirectories: true)
        for width in [1280, 390] {
            for (number, page) in pages.enumerated() {
                let harness = "harness-\(width)-\(number).html"
                try Data(Self.harness(page: page, width: width).utf8).write(to: www.appendingPathComponent(harness))
                let dom = try chromium(["--dump-dom", "http://127.0.0.1:\(python.port)/\(harness)"])
                let json = try XCTUnwrap(
                    dom.range(of: #"data-result="([^"]*)""#, options: .regularExpression).map {
                        String(dom[$0].dropFirst(13).dropLast()).replacingOccurrences(of: "&quot;", with: "\"")
                    }, "\(page) at \(width): \(dom)")
                let measured = try JSONDecoder().decode(Measured.self, from: Data(json.utf8))
                XCTAssertLessThanOrEqual(measured.scrollWidth, width, "\(page) at \(width): \(measured)")
                XCTAssertEqual(measured.wider, [], "\(page) at \(width)")
                XCTAssertEqual(measured.missingLandmarks, [], page)
                XCTAssertEqual(measured.unlabelled, 0, page)
                XCTAssertEqual(measured.withoutAlt, 0, page)
                let shot = Self.artifacts.appendingPathComponent("\(width)-\(number).png")
                _ = try chromium([
                    "--window-size=\(width),1400", "--screenshot=\(shot.path)",
                    "http://127.0.0.1:\(python.port)/\(page)",
                ])
                XCTAssertTrue(FileManager.default.fileExists(atPath: shot.path), shot.path)
            }
        }
    }
}
