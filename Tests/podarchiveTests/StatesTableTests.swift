import Foundation
import TestSupport
import XCTest

// The man page's table of the states of an episode that is not on disk (EPISODES NOT ON DISK), row by row, through
// the built binary against a loopback server: one show with an episode in each state, what `sync`, `verify`,
// `list --archived`, `site` and `export` say and do of each, their exit codes, and how each is undone.
@testable import ArchiverCore

final class StatesTableTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!
    /// Oldest first: the order `offload --before` reaches them in.
    private let titles = ["Offloaded", "Deleted", "Forgotten", "HandedOff", "ByHand"]

    override func setUpWithError() throws {
        folder = try TemporaryFolder("states")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        var xml = "<rss version=\"2.0\"><channel><title>Show</title>"
        for (day, title) in titles.enumerated() {
            xml +=
                "<item><title>\(title)</title><guid>\(title)</guid><pubDate>0\(day + 1) Jan 2024 10:00:00 GMT</pubDate>"
                + "<enclosure url=\"/\(title).mp3\" length=\"\(audio(title).count)\" type=\"audio/mpeg\"/></item>"
            server.route("/\(title).mp3", .ok(audio(title)))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
        for made in [cold, player] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
    }

    override func tearDown() {
        server?.stop()
        folder.remove()
    }

    private func audio(_ title: String) -> Data { Data("ID3 the audio of \(title)".utf8) }
    private var archive: URL { folder.url.appendingPathComponent("Archive") }
    private var show: URL { archive.appendingPathComponent("Show") }
    private var cold: URL { folder.url.appendingPathComponent("cold") }
    private var player: URL { folder.url.appendingPathComponent("player") }
    /// Hands `HandedOff` to the player; leaves the others.
    private var hook: String {
        #"if [ "$PODARCHIVE_TITLE" = HandedOff ]; then mv "$PODARCHIVE_FILE" "# + "'\(player.path)/'; fi"
    }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments + ["--to", archive.path],
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), currentDirectory: folder.url)
    }

    private func requests() -> [Int] { titles.map { title in server.requests.count { $0.path == "/\(title).mp3" } } }
    private func here() -> Set<String> {
        Set(((try? FileManager.default.contentsOfDirectory(atPath: show.path)) ?? []).filter { $0.hasSuffix(".mp3") })
    }

    func test_eachStateOfAnEpisodeNotOnDisk_asTheTableSaysIt_andUndoneAsItSays() throws {
        XCTAssertEqual(try podarchive("sync", server.url("/feed.xml").absoluteString, "--exec", hook).status, 0)
        XCTAssertEqual(try podarchive("forget", "Show", "Forgotten").status, 0)
        XCTAssertEqual(try podarchive("offload", "Show", "--before", "2024-01-02", "--into", cold.path).status, 0)
        XCTAssertEqual(try podarchive("offload", "Show", "--before", "2024-01-03", "--delete").status, 0)
        try FileManager.default.removeItem(at: show.appendingPathComponent("ByHand.mp3"))
        let onDisk = here()

        let verify = try podarchive("verify")
        let list = try podarchive("list", "--archived", "Show")
        let site = try podarchive("site")
        let page = try String(contentsOf: show.appendingPathComponent("index.html"), encoding: .utf8)
        let exportBefore = try podarchive("export", "--warc", folder.url.appendingPathComponent("a.warc.gz").path)
        let sync = try podarchive("sync")
        let requestsAfterSync = requests()
        let export = try podarchive("export", "--warc", folder.url.appendingPathComponent("b.warc.gz").path)

        XCTAssertEqual(onDisk, [], "every episode is away, each its own way")
        // verify: only the one deleted by hand is a problem.
        XCTAssertEqual(verify.status, 1, verify.stdout)
        XCTAssertEqual(
            verify.stdout,
            "missing  Show/ByHand.mp3\n"
                + "verified 2 files in 1 feed: 1 problem; 1 offloaded, 1 deleted by retention, 1 handed off by a hook\n"
        )
        // list --archived: each marked, the forgotten one gone, the one deleted by hand listed as archived.
        let rows = list.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(
            rows.first,
            "Show: 4 archived episodes, 1 offloaded, 1 deleted by retention, 1 handed off by a hook")
        XCTAssertFalse(list.stdout.contains("Forgotten"), list.stdout)
        XCTAssertTrue(rows.contains { $0.hasSuffix("[ByHand.mp3]") }, list.stdout)
        XCTAssertTrue(rows.contains { $0.contains("[Offloaded.mp3]  offloaded to \(cold.path)/Show on ") })
        XCTAssertTrue(rows.contains { $0.contains("[Deleted.mp3]  deleted by retention on ") })
        XCTAssertTrue(rows.contains { $0.contains("[HandedOff.mp3]  handed off by a hook on ") })
        // site: marked, nothing to play but the one deleted by hand; the forgotten one not listed.
        XCTAssertEqual(site.status, 0, site.stderr)
        for badge in ["offloaded", "deleted by retention", "handed off"] {
            XCTAssertTrue(page.contains("<span class=\"badge away\">\(badge) 20"), badge)
        }
        XCTAssertFalse(page.contains("Forgotten"))
        XCTAssertTrue(page.contains("src=\"ByHand.mp3\""))
        for title in ["Offloaded", "Deleted", "HandedOff"] { XCTAssertFalse(page.contains("src=\"\(title).mp3\"")) }
        // export: the one deleted by hand stops it; once fetched again, the others are left out and said.
        XCTAssertEqual(exportBefore.status, 5, exportBefore.stderr)
        XCTAssertTrue(exportBefore.stderr.contains("ByHand.mp3"), exportBefore.stderr)
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(
            export.stdout.hasSuffix(
                "; left out: 1 episode offloaded, 1 episode deleted by retention, 1 episode handed off by a hook\n"),
            export.stdout)
        // sync: only the one deleted by hand is fetched again.
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(requestsAfterSync, [1, 1, 1, 1, 2])

        // Undone, each as the table says.
        let restore = try podarchive("offload", "--restore", "Show")
        let undo = try podarchive("forget", "--undo", "Show", "Forgotten", "Deleted", "HandedOff")
        let back = try podarchive("sync")
        let verifyAfter = try podarchive("verify")

        XCTAssertEqual(restore.status, 0, restore.stderr)
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(requests(), [1, 2, 2, 2, 2], "the restored one comes back from the other folder")
        XCTAssertEqual(here(), Set(titles.map { "\($0).mp3" }))
        XCTAssertEqual(verifyAfter.status, 0, verifyAfter.stdout)
        XCTAssertEqual(verifyAfter.stdout, "verified 5 files in 1 feed: all intact\n")
    }
}
