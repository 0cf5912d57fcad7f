import Foundation
import TestSupport
import XCTest

// The site in a real browser: headless Chromium (Debian's `chromium`; .ci/run installs it and sets
// PODARCHIVE_REQUIRE_BROWSER, so CI never skips this) loads the root page and a show page, as files and from
// `python3 -m http.server`. From the DOM it dumps and its log: every player's source is an archived file, the
// page asks no other host for anything, logs nothing to its console, and the hostile show's notes run nothing.
// The server serves the folder `site --out` publishes, as the README says to.
// Every host name resolves to a trap server on loopback, so a request meant for elsewhere is seen, not sent.
@testable import ArchiverCore
@testable import podarchive

final class BrowserTests: SiteTestCase {
    private var browser: URL!
    private var trap: TestHTTPServer!

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
        trap = try TestHTTPServer()
    }

    override func tearDown() {
        trap?.stop()
        super.tearDown()
    }

    /// The page's DOM after its scripts ran, and the browser's log.
    private func load(_ url: String) throws -> (dom: String, log: String) {
        let profile = folder.url.appendingPathComponent("browser-profile")
        let result = try ProcessRunner.run(
            browser,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--user-data-dir=\(profile.path)",
                "--disable-background-networking", "--disable-component-update", "--disable-sync",
                "--host-resolver-rules=MAP * 127.0.0.1:\(trap.port), EXCLUDE 127.0.0.1",
                "--enable-logging=stderr", "--v=0", "--virtual-time-budget=2000", "--dump-dom", url,
            ],
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), timeout: 60)
        XCTAssertEqual(result.status, 0, result.stderr)
        return (result.stdout, result.stderr)
    }

    /// Requests the trap saw for hosts a page named (the browser's own background requests to its vendor's
    /// hosts are not the page's).
    private var pageRequestsToElsewhere: [RecordedRequest] {
        trap.requests.filter { ($0.headers["host"] ?? "").hasSuffix(".invalid") }
    }

    /// Every `src` of an audio or video element in `dom`, decoded and resolved against the page's folder.
    private func playerSources(in dom: String, folder page: URL) -> [URL] {
        let pattern = try! NSRegularExpression(pattern: #"<(?:audio|video)[^>]*\ssrc="([^"]+)""#)
        let range = NSRange(dom.startIndex..., in: dom)
        return pattern.matches(in: dom, range: range).compactMap { match in
            Range(match.range(at: 1), in: dom).flatMap { URL(string: String(dom[$0]), relativeTo: page) }
        }
    }

    func test_harness_seesScriptsRunAndRequestsLeave() throws {
        // Without this, the checks below could pass only because the browser ran nothing and asked for nothing.
        let control = folder.url.appendingPathComponent("control.html")
        try Data(
            #"<!doctype html><body><img src="http://tracker.invalid/p.gif"><script>document.body.dataset.ran="yes"</script>"#
                .utf8
        ).write(to: control)
        let (dom, _) = try load(control.absoluteString)
        XCTAssertTrue(dom.contains(#"data-ran="yes""#), dom)
        XCTAssertFalse(pageRequestsToElsewhere.isEmpty, "the trap sees a page's request for another host")
    }

    func test_pagesAsFilesAndFromAStaticServer_playArchivedFiles_loadNothingElse_runNoInjectedScript() async throws {
        try await makeArchive()
        let code = await run("site", "--to", root.path)
        XCTAssertEqual(code, .success, errors.text)
        let evil = try XCTUnwrap(
            try FileManager.default.contentsOfDirectory(atPath: root.path).first { $0.hasPrefix("Evil") })

        // Served as the README says: a folder of its own, never the archive root with its dot-folders.
        let www = folder.url.appendingPathComponent("www")
        let published = await run("site", "--to", root.path, "--out", www.path)
        XCTAssertEqual(published, .success, errors.text)
        let python = try PythonHTTPServer(serving: www)
        defer { python.stop() }
        let served = URL(string: "http://127.0.0.1:\(python.port)/")!
        for base in [root.appendingPathComponent("", isDirectory: true), served] {
            let (home, homeLog) = try load(base.appendingPathComponent("index.html").absoluteString)
            XCTAssertTrue(home.contains("Plain Show") && home.contains("2 shows"), home)
            XCTAssertFalse(homeLog.contains(":CONSOLE"), homeLog)
            for show in ["Plain Show", evil] {
                let page = base.appendingPathComponent(show, isDirectory: true)
                let (dom, log) = try load(page.appendingPathComponent("index.html").absoluteString)
                let sources = playerSources(in: dom, folder: page)
                XCTAssertFalse(sources.isEmpty, dom)
                for source in sources {
                    let full = source.absoluteURL.path
                    XCTAssertTrue(full.hasPrefix(base.path), "\(source) is outside the archive")
                    let relative = String(full.dropFirst(base.path.count))
                    XCTAssertTrue(
                        FileManager.default.fileExists(atPath: root.appendingPathComponent(relative).path),
                        "\(source) is no archived file")
                }
                XCTAssertFalse(log.contains(":CONSOLE"), "console: \(log)")
                XCTAssertFalse(dom.contains("PWNED") || dom.contains("data-pwned"), dom)
                XCTAssertFalse(dom.contains("<script src") || dom.contains("<iframe"), dom)
            }
        }
        XCTAssertEqual(pageRequestsToElsewhere, [], "a page asked another host for something")
    }
}
