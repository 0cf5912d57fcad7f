import Foundation
import TestSupport
import XCTest

// `sync --library DIR` through the built binary: the library refreshed after each sync and saved for the archive
// (as `sync --site`), quiet when nothing changed, stopped by `--no-library`; a folder inside the archive refused in
// one line, exit 2, and never saved for later syncs to fail on.
@testable import ArchiverCore

final class SyncLibraryTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!
    private var items = ["One"]

    override func setUpWithError() throws {
        folder = try TemporaryFolder("sync-library")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        serveFeed()
    }

    override func tearDown() {
        server?.stop()
        folder.remove()
    }

    /// WebM episodes: a type the library copies untagged, so no tag tool is needed.
    private func serveFeed() {
        var xml = "<rss version=\"2.0\"><channel><title>Shelf Show</title>"
        for (day, title) in items.enumerated().reversed() {
            let name = title.lowercased()
            xml +=
                "<item><title>\(title)</title><guid>\(name)</guid><pubDate>0\(day + 1) Mar 2025 08:00:00 GMT</pubDate>"
                + "<enclosure url=\"/\(name).webm\" type=\"audio/webm\"/></item>"
            server.route("/\(name).webm", .ok(Data("webm \(title)".utf8), type: "audio/webm"))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    private var archive: URL { folder.url.appendingPathComponent("Archive") }
    private var library: URL { folder.url.appendingPathComponent("Library") }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments + ["--to", archive.path],
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), currentDirectory: folder.url)
    }

    private func shelf() -> [String] {
        let show = library.appendingPathComponent("Shelf Show")
        return ((try? FileManager.default.contentsOfDirectory(atPath: show.path)) ?? []).sorted()
    }

    func test_syncLibrary_isRefreshedAfterEachSync_quietWhenNothingChanged_andStoppedByNoLibrary() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString, "--library", "Library")
        let afterFirst = shelf()
        let quiet = try podarchive("sync")
        items.append("Two")
        serveFeed()
        let second = try podarchive("sync")
        let afterSecond = shelf()
        let stop = try podarchive("sync", "--no-library")
        items.append("Three")
        serveFeed()
        let third = try podarchive("sync")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("library \(library.path): 1 show"), first.stdout)
        XCTAssertEqual(afterFirst, ["2025-03-01 One.webm"])
        XCTAssertEqual(quiet.status, 0, quiet.stderr)
        XCTAssertFalse(quiet.stdout.contains("library"), "nothing changed, nothing said: \(quiet.stdout)")
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(afterSecond, ["2025-03-01 One.webm", "2025-03-02 Two.webm"])
        XCTAssertEqual(stop.status, 0, stop.stderr)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(shelf(), afterSecond, "no longer refreshed")
        XCTAssertFalse(third.stdout.contains("library"), third.stdout)
    }

    func test_aLibraryInsideTheArchive_isRefusedInOneLine_exit2_andNotSaved() throws {
        let refused = try podarchive(
            "sync", server.url("/feed.xml").absoluteString, "--library", archive.appendingPathComponent("Lib").path)
        let next = try podarchive("sync")

        XCTAssertEqual(refused.status, 2, refused.stderr)
        XCTAssertEqual(
            refused.stderr.split(separator: "\n"),
            ["podarchive: the library \(archive.path)/Lib would be written into the archive: name a folder outside it"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.appendingPathComponent("Lib").path))
        XCTAssertEqual(next.status, 0, "not saved for the next sync to fail on: \(next.stderr)")
    }
}
