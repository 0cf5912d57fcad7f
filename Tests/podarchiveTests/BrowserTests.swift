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

    /// An archive of one show in three languages: transcripts in German (WebVTT) and Japanese (JSON), an English
    /// note, and a hostile title.
    private func makeLanguageArchive() async throws {
        let feed = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Sprachen</title>
            <item><title>Der Wald</title><guid>de-1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
            <enclosure url="de.mp3" type="audio/mpeg"/>
            <podcast:transcript url="de.vtt" type="text/vtt" language="de"/></item>
            <item><title>東京の朝</title><guid>ja-1</guid><pubDate>Mon, 06 Jan 2025 09:00:00 GMT</pubDate>
            <enclosure url="ja.mp3" type="audio/mpeg"/>
            <podcast:transcript url="ja.json" type="application/json" language="ja"/></item>
            <item><title>Airships</title><guid>en-1</guid><pubDate>Tue, 07 Jan 2025 08:00:00 GMT</pubDate>
            <description><![CDATA[<p>All about the <b>Zeppelin</b>.</p>]]></description>
            <enclosure url="en.mp3" type="audio/mpeg"/></item>
            <item><title>&lt;img src=x onerror="document.body.dataset.pwned=1"&gt;Hostile &lt;b&gt;walrus&lt;/b&gt;</title>
            <guid>evil-1</guid><enclosure url="ev.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/lang.xml", .ok(feed, type: "application/rss+xml"))
        server.route(
            "/de.vtt",
            .ok("WEBVTT\n\n00:00.000 --> 00:02.000\n<v Anna>Das Eichhörnchen sammelt Nüsse.\n", type: "text/vtt"))
        server.route(
            "/ja.json",
            .ok(
                #"{"version":"1.0.0","segments":[{"speaker":"A","startTime":0,"body":"今日は東京で会議がありました"}]}"#,
                type: "application/json"))
        for name in ["de", "ja", "en", "ev"] { server.route("/\(name).mp3", .ok(Data(repeating: 5, count: 1000))) }
        let code = await run("sync", server.url("/lang.xml").absoluteString, "--to", root.path)
        XCTAssertEqual(code, .success, errors.text)
    }

    /// The root page's DOM after the search ran for `query`.
    private func search(_ query: String, at base: URL) throws -> (dom: String, log: String) {
        let asked = query.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let loaded = try load(base.appendingPathComponent("index.html").absoluteString + "#q=" + asked)
        XCTAssertTrue(loaded.dom.contains(#"data-searched="fully""#), loaded.dom)
        return loaded
    }

    func test_search_findsTitlesNotesAndTranscriptsInTwoLanguages_asFilesAndServed_showingTitlesAsText() async throws {
        try await makeLanguageArchive()
        let www = folder.url.appendingPathComponent("www")
        let published = await run("site", "--to", root.path, "--out", www.path)
        XCTAssertEqual(published, .success, errors.text)
        let python = try PythonHTTPServer(serving: www)
        defer { python.stop() }
        let served = URL(string: "http://127.0.0.1:\(python.port)/")!
        let asFiles = www.appendingPathComponent("", isDirectory: true)

        for base in [asFiles, served] {
            // A title, and a word of the notes (loaded as the show's script, from a file too).
            let title = try search("wald", at: base).dom
            XCTAssertTrue(title.contains(#"#e"#) && title.contains(">Der Wald</a>"), title)
            XCTAssertTrue(title.contains("1 episode found."), title)
            let (notes, log) = try search("zeppelin", at: base)
            XCTAssertTrue(notes.contains(">Airships</a><p class=\"meta\">Sprachen · 2025-01-07 · in notes</p>"), notes)
            XCTAssertFalse(log.contains(":CONSOLE"), log)
            // A hostile title is found and shown as text: no element made of it, nothing run.
            let hostile = try search("walrus", at: base).dom
            XCTAssertTrue(hostile.contains("&lt;img src=x onerror="), hostile)
            XCTAssertFalse(hostile.contains("data-pwned") || hostile.contains("<b>walrus"), hostile)
        }
        // Transcripts, German and Japanese, when served; opened as files, said to be searched only then.
        let german = try search("eichhörnchen", at: served).dom
        XCTAssertTrue(
            german.contains(">Der Wald</a><p class=\"meta\">Sprachen · 2025-01-06 · in transcript</p>"), german)
        let japanese = try search("東京", at: served).dom
        XCTAssertTrue(japanese.contains(">東京の朝</a>") && japanese.contains("in title, transcript"), japanese)
        let meeting = try search("会議", at: served).dom
        XCTAssertTrue(meeting.contains(">東京の朝</a>") && meeting.contains("in transcript"), meeting)
        let offline = try search("eichhörnchen", at: asFiles).dom
        XCTAssertTrue(offline.contains("0 episodes found. Transcripts are searched when the site is served"), offline)
        // The link goes to the episode on its show's page.
        let page = try String(contentsOf: www.appendingPathComponent("Sprachen/index.html"), encoding: .utf8)
        let anchor = try XCTUnwrap(german.range(of: #"Sprachen/index.html#e[0-9a-f]{12}"#, options: .regularExpression))
        XCTAssertTrue(page.contains("<li id=\"\(german[anchor].suffix(13))\""), page)
        XCTAssertEqual(pageRequestsToElsewhere, [], "a page asked another host for something")
    }
}
