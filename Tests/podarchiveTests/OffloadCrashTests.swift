import Foundation
import TestSupport
import XCTest

// Offloading is a move, intent first, proven at every point: the built binary killed (SIGKILL, through `CrashShim`)
// just before each write, fsync, rename, unlink and date it makes in the archive or the folder it offloads into,
// once per point, then a plain sync (which takes the show's lock and finishes or undoes what was left).
// - `offload --into`: each episode ends whole in exactly one place the index names (here, or offloaded there), no
//   byte is ever lost, nothing is fetched again, and `offload` run again finishes the window.
// - `offload --restore`: each episode ends whole here or still offloaded there, and `--restore` again brings the
//   rest back.
@testable import ArchiverCore

final class OffloadCrashTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private var library: URL!
    private let titles = ["One", "Two", "Three"]

    override func setUpWithError() throws {
        library = try CrashShim.libraryForBuiltBinary()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("offload-crash")
        var xml =
            "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel>"
            + "<title>Crash Show</title>"
        for (day, title) in titles.enumerated() {
            let name = title.lowercased()
            xml +=
                "<item><title>\(title)</title><guid>\(name)</guid><pubDate>0\(day + 1) Jan 2024 10:00:00 GMT</pubDate>"
                + "<enclosure url=\"/\(name).mp3\" length=\"\(audio(title).count)\" type=\"audio/mpeg\"/>"
                + "<podcast:transcript url=\"/\(name).vtt\" type=\"text/vtt\"/></item>"
            server.route("/\(name).mp3", .ok(audio(title)))
            server.route("/\(name).vtt", .ok("WEBVTT\n\n00:00.000 --> 00:01.000\n\(title)\n", type: "text/vtt"))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private func audio(_ title: String) -> Data { Data(String(repeating: "the audio of \(title). ", count: 40).utf8) }
    private var archive: URL { folder.url.appendingPathComponent("archive") }
    private var show: URL { archive.appendingPathComponent("Crash Show") }
    private var cold: URL { folder.url.appendingPathComponent("cold") }
    private var coldShow: URL { cold.appendingPathComponent("Crash Show") }
    private var feed: String { server.url("/feed.xml").absoluteString }

    /// Runs the built binary; killed before its `killAt`-th effect under the test's folder when given.
    private func podarchive(_ arguments: [String], killAt: Int? = nil) throws -> ProcessResult {
        try CrashShim.podarchive(
            arguments + ["--to", archive.path], home: folder.url, library: library, under: folder.url, killAt: killAt)
    }

    private func startAfresh(offloaded: Bool) throws {
        try? FileManager.default.removeItem(at: archive)
        try? FileManager.default.removeItem(at: cold)
        try FileManager.default.createDirectory(at: cold, withIntermediateDirectories: true)
        XCTAssertEqual(try podarchive(["sync", feed]).status, 0)
        if offloaded {
            XCTAssertEqual(
                try podarchive(["offload", "Crash Show", "--keep-last", "1", "--into", cold.path]).status, 0)
        }
    }

    private func index() throws -> ArchiveIndex {
        try IndexFormat.decode(Data(contentsOf: show.appendingPathComponent(".podarchive/index.json")))
    }

    private func mediaRequests() -> Int { server.requests.count { $0.path.hasSuffix(".mp3") } }

    /// Every episode whole in the one place its index entry says, and nowhere else it could be taken for it.
    private func assertEachEpisodeWholeWhereTheIndexSays(_ context: String) throws {
        let entries = try index().episodes
        XCTAssertEqual(entries.count, 3, context)
        for title in titles {
            guard let entry = entries.first(where: { $0.title == title }) else {
                return XCTFail("\(context): \(title)")
            }
            XCTAssertNil(entry.away?.pending, "\(context): \(title) settled")
            let here = show.appendingPathComponent("\(title).mp3")
            let there = coldShow.appendingPathComponent("\(title).mp3")
            if entry.away?.state == .offloaded {
                XCTAssertEqual(try? Data(contentsOf: there), audio(title), "\(context): \(title) whole there")
                XCTAssertFalse(FileManager.default.fileExists(atPath: here.path), "\(context): \(title) not here")
            } else {
                XCTAssertNil(entry.away, context)
                XCTAssertEqual(try? Data(contentsOf: here), audio(title), "\(context): \(title) whole here")
            }
        }
    }

    /// Runs `command` killed at each point in turn, from the first until a run completes.
    private func atEveryPoint(
        _ context: String, prepare: () throws -> Void, command: [String], check: (Int) throws -> Void
    ) throws {
        let run = try CrashShim.atEveryPoint(
            prepare: prepare, command: { try podarchive(command, killAt: $0) }, killed: { point, _ in try check(point) }
        )
        guard let run else { return XCTFail("\(context): still killed after 400 points") }
        XCTAssertEqual(run.completed.status, 0, "\(context), run past its last point: \(run.completed.stderr)")
        XCTAssertGreaterThan(run.points, 0, "\(context): the crash library counted no effect")
        print("\(context): killed at \(run.points) points")
    }

    func test_offload_killedAtEveryPoint_losesNoByte_fetchesNothing_andConvergesOnTheNextCommand() throws {
        let offload = ["offload", "Crash Show", "--keep-last", "1", "--into", cold.path]
        try atEveryPoint(
            "offload", prepare: { try startAfresh(offloaded: false) }, command: offload,
            check: { point in
                let context = "killed at point \(point)"
                let requests = mediaRequests()
                let sync = try podarchive(["sync"])
                XCTAssertEqual(sync.status, 0, "\(context): \(sync.stderr)")
                XCTAssertEqual(mediaRequests(), requests, "\(context): nothing fetched again")
                try assertEachEpisodeWholeWhereTheIndexSays(context)
                let again = try podarchive(offload)
                XCTAssertEqual(again.status, 0, "\(context): \(again.stderr)")
                try assertEachEpisodeWholeWhereTheIndexSays(context)
                XCTAssertEqual(
                    try index().episodes.filter { $0.away?.state == .offloaded }.compactMap(\.title).sorted(),
                    ["One", "Two"], context)
                XCTAssertEqual(
                    Set(try FileManager.default.contentsOfDirectory(atPath: coldShow.path)),
                    ["One.mp3", "One.transcript.vtt", "Two.mp3", "Two.transcript.vtt"],
                    "\(context): no temporary file left there")
                let verify = try podarchive(["verify"])
                XCTAssertEqual(verify.status, 0, "\(context): \(verify.stdout)")
            })
    }

    func test_restore_killedAtEveryPoint_leavesEachEpisodeHereOrThere_andRestoreAgainBringsTheRestBack() throws {
        let restore = ["offload", "--restore", "Crash Show"]
        try atEveryPoint(
            "offload --restore", prepare: { try startAfresh(offloaded: true) }, command: restore,
            check: { point in
                let context = "killed at point \(point)"
                let sync = try podarchive(["sync"])
                XCTAssertEqual(sync.status, 0, "\(context): \(sync.stderr)")
                try assertEachEpisodeWholeWhereTheIndexSays(context)
                let again = try podarchive(restore)
                XCTAssertEqual(again.status, 0, "\(context): \(again.stderr)")
                try assertEachEpisodeWholeWhereTheIndexSays(context)
                XCTAssertTrue(try index().episodes.allSatisfy(\.isHere), context)
                let verify = try podarchive(["verify"])
                XCTAssertEqual(verify.status, 0, "\(context): \(verify.stdout)")
            })
    }
}
