import Foundation
import TestSupport
import XCTest

// A hook that moves its file hands the episode off, at least once across a crash: the built binary killed (SIGKILL,
// through `CrashShim`) before each write, fsync, rename, unlink and date of `sync --exec 'mv ...'` under the test's
// folder (the archive and the player's folder), once per point, then the same sync again. Every episode ends in the
// player's folder, whole, recorded as handed off, and not in the archive's; a third sync fetches nothing.
@testable import ArchiverCore

final class HandOffCrashTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private var library: URL!
    private let titles = ["One", "Two", "Three"]

    override func setUpWithError() throws {
        library = try CrashShim.libraryForBuiltBinary()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("handoff-crash")
        var xml = "<rss version=\"2.0\"><channel><title>Crash Show</title>"
        for title in titles {
            let name = title.lowercased()
            xml +=
                "<item><title>\(title)</title><guid>\(name)</guid>"
                + "<enclosure url=\"/\(name).mp3\" length=\"\(audio(title).count)\" type=\"audio/mpeg\"/></item>"
            server.route("/\(name).mp3", .ok(audio(title)))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private func audio(_ title: String) -> Data { Data("the audio of \(title)".utf8) }
    private var archive: URL { folder.url.appendingPathComponent("archive") }
    private var show: URL { archive.appendingPathComponent("Crash Show") }
    private var player: URL { folder.url.appendingPathComponent("player") }
    private var sync: [String] {
        [
            "sync", server.url("/feed.xml").absoluteString, "--to", archive.path, "--jobs", "1", "--exec",
            #"mv "$PODARCHIVE_FILE" "# + "'\(player.path)/'",
        ]
    }

    private func podarchive(_ arguments: [String], killAt: Int? = nil) throws -> ProcessResult {
        try CrashShim.podarchive(arguments, home: folder.url, library: library, under: folder.url, killAt: killAt)
    }

    private func startAfresh() throws {
        for made in [archive, player] {
            try? FileManager.default.removeItem(at: made)
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
    }

    private func mediaRequests() -> Int { server.requests.count { $0.path.hasSuffix(".mp3") } }

    func test_syncWithAHookThatMovesItsFile_killedAtEveryPoint_handsEveryEpisodeOffAtLeastOnce() throws {
        for point in 1...400 {
            try startAfresh()
            let killed = try podarchive(sync, killAt: point)
            let context = "killed at point \(point)"
            let again = try podarchive(sync)
            XCTAssertEqual(again.status, 0, "\(context): \(again.stderr)")
            let index = try IndexFormat.decode(Data(contentsOf: show.appendingPathComponent(".podarchive/index.json")))
            XCTAssertEqual(
                index.episodes.map { $0.away?.state }, [.handedOff, .handedOff, .handedOff], "\(context): recorded")
            for title in titles {
                XCTAssertEqual(
                    try? Data(contentsOf: player.appendingPathComponent("\(title).mp3")), audio(title),
                    "\(context): \(title) handed to the player whole")
                XCTAssertFalse(FileManager.default.fileExists(atPath: show.appendingPathComponent("\(title).mp3").path))
            }
            let requests = mediaRequests()
            let third = try podarchive(sync)
            XCTAssertEqual(third.status, 0, "\(context): \(third.stderr)")
            XCTAssertEqual(mediaRequests(), requests, "\(context): handed off, never fetched again")
            guard killed.status == 128 + SIGKILL else {
                XCTAssertEqual(killed.status, 0, "run past its last point: \(killed.stderr)")
                XCTAssertGreaterThan(point, 1, "the crash library counted no effect")
                print("sync --exec mv: killed at \(point - 1) points")
                return
            }
        }
        XCTFail("still killed after 400 points")
    }
}
