import Foundation
import TestSupport
import XCTest

// `podarchive forget` through the built binary: the episode's files go, the next syncs ask the server for nothing
// of it, verify and list --archived no longer see it, and --undo brings it back with the next sync.
@testable import ArchiverCore

final class ForgetEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("forget-e2e")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Night Show</title>"
                    + "<item><title>Pilot</title><guid>p-1</guid><enclosure url=\"/pilot.mp3\" type=\"audio/mpeg\"/>"
                    + "</item><item><title>Second</title><guid>p-2</guid><enclosure url=\"/second.mp3\" "
                    + "type=\"audio/mpeg\"/></item></channel></rss>", type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data("ID3 pilot".utf8)))
        server.route("/second.mp3", .ok(Data("ID3 second".utf8)))
    }

    override func tearDown() {
        server?.stop()
        folder.remove()
    }

    private var archive: URL { folder.url.appendingPathComponent("Archive") }
    private var pilot: String { archive.appendingPathComponent("Night Show/Pilot.mp3").path }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments + ["--to", archive.path],
            environment: ProcessRunner.isolatedEnvironment(
                home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": folder.url.appendingPathComponent("cfg").path]),
            currentDirectory: folder.url)
    }

    private var pilotRequests: Int { server.requests.count { $0.path.hasPrefix("/pilot.mp3") } }

    func test_binary_aForgottenEpisode_isGoneForGood_untilTakenBack() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString)
        let forget = try podarchive("forget", "Night Show", "Pilot")
        let sync = try podarchive("sync")
        let goneAfterSync = !FileManager.default.fileExists(atPath: pilot)
        let verify = try podarchive("verify")
        let list = try podarchive("list", "--archived", "Night Show")
        let site = try podarchive("site")
        let page = try String(
            contentsOf: archive.appendingPathComponent("Night Show/index.html"), encoding: .utf8)
        let undo = try podarchive("forget", "--undo", "Night Show", "p-1")
        let requestsBeforeUndoSync = pilotRequests
        let back = try podarchive("sync")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(forget.status, 0, forget.stderr)
        XCTAssertEqual(
            forget.stdout,
            "forgot \"Pilot\" of Night Show/: deleted Pilot.mp3; never fetched again (podarchive forget --undo takes "
                + "it back)\n")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(requestsBeforeUndoSync, 1, "the sync after forget asked the server for nothing of it")
        XCTAssertTrue(goneAfterSync, "deleted, and not fetched again")
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertFalse(list.stdout.contains("Pilot"), list.stdout)
        XCTAssertTrue(list.stdout.contains("Second"), list.stdout)
        XCTAssertEqual(site.status, 0, site.stderr)
        XCTAssertFalse(page.contains("Pilot"), "the site does not list it")
        XCTAssertTrue(page.contains("Second"))
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertEqual(undo.stdout, "took back \"Pilot\" of Night Show/: the next sync fetches it\n")
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(pilotRequests, 2)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pilot))
    }

    func test_binary_aListedEpisodeNotYetArchived_isSkippedBeforeDownload_untilTakenBack() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString, "--match", "Second")
        let leftOut = pilotRequests == 0 && !FileManager.default.fileExists(atPath: pilot)
        let skip = try podarchive("forget", "Night Show", "Pilot")
        let again = try podarchive("forget", "Night Show", "p-1")
        let all = try podarchive("sync", "--all")
        let requestsAfterSkip = pilotRequests
        let absentAfterSkip = !FileManager.default.fileExists(atPath: pilot)
        let undo = try podarchive("forget", "--undo", "Night Show", "Pilot")
        let back = try podarchive("sync")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(leftOut, "left out by --match: " + first.stdout)
        XCTAssertEqual(
            skip.stdout,
            "skipped \"Pilot\" of Night Show/ before it was downloaded: never fetched (podarchive forget --undo "
                + "takes it back)\n")
        XCTAssertEqual(
            again.stdout, "\"Pilot\" of Night Show/ was forgotten already (podarchive forget --undo takes it back)\n")
        XCTAssertEqual(all.status, 0, all.stderr)
        XCTAssertEqual(requestsAfterSkip, 0, "a sync of every episode never asked for the skipped one")
        XCTAssertTrue(absentAfterSkip)
        XCTAssertEqual(undo.status, 0, undo.stderr)
        XCTAssertEqual(undo.stdout, "took back \"Pilot\" of Night Show/: the next sync fetches it\n")
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(pilotRequests, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pilot))
    }

    func test_binary_anUnknownShowOrEpisode_isExit2_andNothingChanges() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString)
        let unknownEpisode = try podarchive("forget", "Night Show", "Pilot", "Nine")
        let unknownShow = try podarchive("forget", "Day Show", "Pilot")
        let missing = try podarchive("forget", "Night Show")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(unknownEpisode.status, 2)
        XCTAssertEqual(
            unknownEpisode.stderr,
            "podarchive: no archived or listed episode of Night Show has the title, GUID or file name \"Nine\"\n")
        XCTAssertEqual(unknownShow.status, 2)
        XCTAssertTrue(unknownShow.stderr.contains("Day Show"), unknownShow.stderr)
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.hasPrefix("podarchive: missing the episodes to forget\n"), missing.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pilot), "Pilot was named beside Nine: kept")
    }

    /// `forgotten.json` is a file whoever can write the archive can write: the deletions it says are pending are done
    /// only for files inside the show's folder, outside its state folder, reached through folders (no link), and
    /// never for a folder.
    func test_binary_pendingDeletionsAFileOthersCanWriteNames_deleteNothingOutsideTheShowsFiles() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString)
        let show = archive.appendingPathComponent("Night Show")
        let outside = folder.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(
            at: outside.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: outside.appendingPathComponent("sub/keep.txt"))
        try Data("precious".utf8).write(to: outside.appendingPathComponent("file.txt"))
        try FileManager.default.createSymbolicLink(
            at: show.appendingPathComponent("way-out"), withDestinationURL: outside)
        let pending = [
            "../../outside", "../../outside/file.txt", "way-out/file.txt", ".podarchive/history", ".podarchive",
            ".podarchive/index.json", "/\(outside.path)/file.txt", "Pilot.mp3",
        ]
        let record: [String: Any] = [
            "episodes": [
                [
                    "entry": [
                        "archived": "2026-01-01T00:00:00Z", "file": "x.mp3", "guid": "zz", "key": "zz", "size": 1,
                        "title": "Zz", "url": server.url("/zz.mp3").absoluteString,
                    ],
                    "forgotten": "2026-01-01T00:00:00Z", "pending": pending,
                ]
            ]
        ]
        try JSONSerialization.data(withJSONObject: record).write(
            to: show.appendingPathComponent(".podarchive/forgotten.json"))

        let sync = try podarchive("sync")
        let verify = try podarchive("verify")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside.appendingPathComponent("sub/keep.txt").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: outside.appendingPathComponent("file.txt").path))
        for state in [".podarchive/history", ".podarchive/index.json"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: show.appendingPathComponent(state).path), state)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: pilot), "the index still names it: never deleted")
    }

    /// An index (or journal) entry naming a file in the state folder was not written by podarchive: refused as
    /// damage, never deleted by a forget.
    func test_binary_anEntryNamingTheStateFolder_isRefusedAsDamage_andForgetDeletesNothing() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString)
        let state = archive.appendingPathComponent("Night Show/.podarchive")
        let indexURL = state.appendingPathComponent("index.json")
        var index = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: indexURL)) as? [String: Any])
        var episodes = try XCTUnwrap(index["episodes"] as? [[String: Any]])
        episodes.append([
            "key": "evil", "guid": "evil", "title": "Evil", "url": server.url("/evil.mp3").absoluteString,
            "file": ".podarchive", "size": 1, "sha256": String(repeating: "00", count: 32),
            "archived": "2026-01-01T00:00:00Z",
        ])
        index["episodes"] = episodes
        try JSONSerialization.data(withJSONObject: index).write(to: indexURL)

        let forget = try podarchive("forget", "Night Show", "Evil")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(forget.status, 5, forget.stderr)
        XCTAssertTrue(
            forget.stderr.contains("\".podarchive\" of \"Evil\" is not a name inside the folder"), forget.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: indexURL.path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: state.appendingPathComponent("history").path))
    }

    /// A forget killed after its record, before the index changed: a plain `verify` reads it as it is (it changes
    /// nothing), and the next command that writes (a sync) finishes it.
    func test_binary_aForgetLeftPending_isLeftByVerify_andFinishedByTheNextSync() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString)
        let state = archive.appendingPathComponent("Night Show/.podarchive")
        let indexURL = state.appendingPathComponent("index.json")
        let index = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: indexURL)) as? [String: Any])
        let episodes = try XCTUnwrap(index["episodes"] as? [[String: Any]])
        let entry = try XCTUnwrap(episodes.first { $0["title"] as? String == "Pilot" })
        let record: [String: Any] = [
            "episodes": [["entry": entry, "forgotten": "2026-01-01T00:00:00Z", "pending": ["Pilot.mp3"]]]
        ]
        try JSONSerialization.data(withJSONObject: record).write(to: state.appendingPathComponent("forgotten.json"))
        let before = try Data(contentsOf: indexURL)

        let verify = try podarchive("verify")
        let indexAfterVerify = try Data(contentsOf: indexURL)
        let sync = try podarchive("sync")
        let list = try podarchive("list", "--archived", "Night Show")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertEqual(indexAfterVerify, before, "verify changes nothing")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: pilot))
        XCTAssertFalse(list.stdout.contains("Pilot"), list.stdout)
        XCTAssertTrue(list.stdout.contains("Second"), list.stdout)
        XCTAssertEqual(pilotRequests, 1, "forgotten: never fetched again")
    }

    /// Taken back, a file that was kept is in the index again at once (checked against what was recorded); the
    /// sync after asks the server for nothing of it, and verify checks it again.
    func test_binary_undoOfAForgetThatKeptTheFile_indexesItAgainAtOnce() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString)
        let forget = try podarchive("forget", "--keep-files", "Night Show", "Pilot")
        let undo = try podarchive("forget", "--undo", "Night Show", "Pilot")
        let list = try podarchive("list", "--archived", "Night Show")
        let sync = try podarchive("sync")
        let verify = try podarchive("verify")

        XCTAssertEqual([first.status, forget.status, undo.status], [0, 0, 0], forget.stderr + undo.stderr)
        XCTAssertEqual(
            undo.stdout, "took back \"Pilot\" of Night Show/: its kept file Pilot.mp3 is in the index again\n")
        XCTAssertTrue(list.stdout.contains("Pilot"), list.stdout)
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(pilotRequests, 1, "never fetched again")
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertTrue(verify.stdout.contains("2 files"), verify.stdout)
    }

    /// Taken back, an episode the show's saved filter leaves out is fetched all the same: the wish is explicit.
    func test_binary_undoUnderASavedFilter_isFetchedByTheNextSync_asTheLineSays() throws {
        let first = try podarchive("sync", server.url("/feed.xml").absoluteString)
        let limit = try podarchive("add", server.url("/feed.xml").absoluteString, "--match", "Second")
        let forget = try podarchive("forget", "Night Show", "Pilot")
        let undo = try podarchive("forget", "--undo", "Night Show", "Pilot")
        let sync = try podarchive("sync")
        let again = try podarchive("sync")

        XCTAssertEqual([first.status, limit.status, forget.status, undo.status], [0, 0, 0, 0], limit.stderr)
        XCTAssertEqual(undo.stdout, "took back \"Pilot\" of Night Show/: the next sync fetches it\n")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: pilot), sync.stdout)
        XCTAssertEqual(pilotRequests, 2)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(pilotRequests, 2, "once archived, the filter rules again")
    }
}
