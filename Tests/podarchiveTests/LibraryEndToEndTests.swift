import Foundation
import TestSupport
import XCTest

// `podarchive export --library` through the built binary: synced from a loopback server (an MP3 made by ffmpeg,
// its chapters JSON hostile: 10,000 chapters, negative and absurd times), exported, exported again (nothing
// written), an episode forgotten (its copy removed, the user's own file kept); the archive's bytes unchanged.
@testable import ArchiverCore

final class LibraryEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("library-e2e")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        try TagTools.require()
        server = try TestHTTPServer()
        let mp3 = try TagTools.tone(
            folder.url.appendingPathComponent("tone.mp3"), seconds: 30, ["-c:a", "libmp3lame", "-b:a", "32k"])
        // 10,000 chapters a second apart, with a negative and an absurd start among them.
        let chapters =
            (0..<10_000).map { #"{"startTime":\#($0),"title":"Part \#($0)"}"# }
            + [#"{"startTime":-5,"title":"neg"}"#, #"{"startTime":1e300,"title":"far"}"#]
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Night Show
                </title><item><title>Pilot</title><guid>p-1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="/pilot.mp3" type="audio/mpeg"/>
                <podcast:chapters url="/pilot.json" type="application/json+chapters"/></item>
                <item><title>Second</title><guid>p-2</guid><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="/second.mp3" type="audio/mpeg"/></item></channel></rss>
                """, type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(mp3))
        server.route("/second.mp3", .ok(mp3))
        let document = #"{"version":"1.2.0","chapters":["# + chapters.joined(separator: ",") + "]}"
        server.route("/pilot.json", .ok(document, type: "application/json"))
    }

    override func tearDown() {
        server?.stop()
        folder.remove()
    }

    private var archive: URL { folder.url.appendingPathComponent("Archive") }
    private var library: URL { folder.url.appendingPathComponent("Library") }
    private var shelf: URL { library.appendingPathComponent("Night Show") }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments + ["--to", archive.path],
            environment: ProcessRunner.isolatedEnvironment(
                home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": folder.url.appendingPathComponent("cfg").path]),
            currentDirectory: folder.url)
    }

    private func archiveHashes() throws -> [String: String] {
        var found: [String: String] = [:]
        for name in try FileManager.default.contentsOfDirectory(
            atPath: archive.appendingPathComponent("Night Show").path)
        {
            let url = archive.appendingPathComponent("Night Show/" + name)
            guard let data = FileManager.default.contents(atPath: url.path) else { continue }
            var hash = SHA256()
            hash.update(data)
            found[name] = hash.hexDigest()
        }
        return found
    }

    func test_binary_exportLibrary_rerunWritesNothing_forgetRemovesTheCopy_andTheArchiveIsUnchanged() throws {
        let sync = try podarchive("sync", server.url("/feed.xml").absoluteString)
        XCTAssertEqual(sync.status, 0, sync.stderr)
        let before = try archiveHashes()

        let first = try podarchive("export", "--library", library.path)

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.hasPrefix("library: writing 2 files ("), first.stdout)
        XCTAssertEqual(
            first.stderr,
            "library: Night Show/Pilot.mp3: 2 chapters without a usable start time left out\n"
                + "library: Night Show/Pilot.mp3: 9969 chapters past the audio's end left out\n")
        let copy = shelf.appendingPathComponent("2025-01-06 Pilot.mp3")
        let probed = try TagTools.probe(copy)
        XCTAssertEqual(probed.chapters.count, 31, "one a second, within the 30.04 s the audio plays")
        XCTAssertEqual(probed.chapters.last?.title, "Part 30")
        XCTAssertEqual(probed.chapters.last?.start, 30)
        XCTAssertEqual(try archiveHashes(), before)
        let verify = try podarchive("verify")
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)

        try Data("mine".utf8).write(to: shelf.appendingPathComponent("notes.txt"))
        let again = try podarchive("export", "--library", library.path)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stdout.contains("library: writing"), again.stdout)
        XCTAssertEqual(again.stderr, "", "what a tag left out is said when it is written, not at every run")
        XCTAssertTrue(
            again.stdout.contains("0 episodes tagged, 0 copied untagged, 2 unchanged (0 B written)"), again.stdout)

        let forget = try podarchive("forget", "Night Show", "Pilot")
        XCTAssertEqual(forget.status, 0, forget.stderr)
        let after = try podarchive("export", "--library", library.path)
        XCTAssertEqual(after.status, 0, after.stderr)
        XCTAssertTrue(after.stdout.contains("1 unchanged, 1 removed"), after.stdout)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: shelf.path).sorted(),
            ["2025-01-13 Second.mp3", "notes.txt"])
    }
}
