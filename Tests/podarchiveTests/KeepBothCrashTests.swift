import Foundation
import TestSupport
import XCTest

// Keeping both, killed at every point: after a members feed (a bearer token in a header) took over a private public
// feed's subscription (a token in its URL), the command the line names (`add <members> --separate`) is run by the
// built binary killed (SIGKILL, through `CrashShim`) just before each write, fsync, rename and unlink it makes in the
// archive or the configuration folder, once per point. Run again as printed, the same `add` finishes it, and the
// next sync leaves each feed in a folder of its own with its own bytes, each with its own secret.
@testable import ArchiverCore

final class KeepBothCrashTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private var library: URL!
    private let publicToken = "PUBLICSECRET7"
    private let membersToken = "MEMBERSSECRET9"

    override func setUpWithError() throws {
        library = try CrashShim.libraryForBuiltBinary()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("keep-both-crash")
        twins.serve("public", token: publicToken)
        twins.serve("members", bearer: membersToken)
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private var twins: TwinShow { TwinShow(server: server) }
    /// The archive and the configuration folder, both under the folder the crash library counts effects in.
    private var work: URL { folder.url.appendingPathComponent("work") }
    private var snapshot: URL { folder.url.appendingPathComponent("snapshot") }
    private var archive: URL { work.appendingPathComponent("archive") }

    /// Runs the built binary on the archive (`$PODARCHIVE_DIR`, as a user following the line runs it); killed
    /// before its `killAt`-th effect in the archive or the configuration folder when given.
    private func podarchive(_ arguments: [String], killAt: Int? = nil) throws -> ProcessResult {
        try CrashShim.podarchive(
            arguments, home: folder.url, library: library, under: work, killAt: killAt,
            extra: [
                "PODARCHIVE_DIR": archive.path, "PODARCHIVE_CONFIG_DIR": work.appendingPathComponent("config").path,
            ])
    }

    /// The archive and configuration folder as the takeover left them (made once, copied back before each run).
    private func takenOver() throws {
        if FileManager.default.fileExists(atPath: snapshot.path) {
            try FileManager.default.removeItem(at: work)
            try FileManager.default.copyItem(at: snapshot, to: work)
            return
        }
        XCTAssertEqual(try podarchive(["sync", twins.url("public", token: publicToken)]).status, 0)
        let takeover = try podarchive(
            ["sync", twins.url("members"), "--header", "Authorization: Bearer \(membersToken)"])
        XCTAssertEqual(takeover.status, 0, takeover.stderr)
        XCTAssertTrue(takeover.stdout.contains(keepBoth.joined(separator: " ")), takeover.stdout)
        try FileManager.default.copyItem(at: work, to: snapshot)
    }

    /// What the takeover line names.
    private var keepBoth: [String] { ["add", twins.url("members"), "--separate"] }

    /// Each feed in a folder of its own with its own bytes, and the archive as `feeds` says it.
    private func assertKeptBoth(_ context: String) throws {
        let sync = try podarchive(["sync"])
        XCTAssertEqual(sync.status, 0, "\(context): \(sync.stderr)")
        let listed = try podarchive(["feeds", "--json"])
        let object = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [String: Any]
        let shows = try XCTUnwrap(object?["feeds"] as? [[String: Any]], context)
        XCTAssertEqual(
            Set(
                shows.map {
                    [$0["feed"] as? String, $0["folder"] as? String, ($0["separate"] as? Bool).map { "\($0)" }]
                }),
            [
                [twins.url("public", token: "REDACTED"), "Twin Show", "false"],
                [twins.url("members"), "Twin Show (2)", "true"],
            ], context)
        XCTAssertEqual(shows.filter { !($0["earlierFeed"] is NSNull) }.count, 0, context)
        for episode in TwinShow.episodes("members") {
            XCTAssertEqual(
                TwinShow.files(in: "Twin Show (2)", of: archive)["\(episode).mp3"],
                TwinShow.bytes("members", episode), context)
        }
        for episode in TwinShow.episodes("public") {
            XCTAssertEqual(
                TwinShow.files(in: "Twin Show", of: archive)["\(episode).mp3"], TwinShow.bytes("public", episode),
                context)
        }
        XCTAssertEqual(server.requests.filter { $0.path.contains("REDACTED") }.map(\.path), [], context)
        let lastPublic = server.requests.last { $0.path.hasPrefix("/public.xml") }
        XCTAssertNil(lastPublic?.headers["authorization"], "\(context): the members feed's header stays its own")
    }

    func test_keepBoth_killedAtEveryPoint_isFinishedByTheSameCommand() throws {
        for point in 1...400 {
            try takenOver()
            let run = try podarchive(keepBoth, killAt: point)
            guard run.status == 128 + SIGKILL else {
                XCTAssertEqual(run.status, 0, "run past its last point: \(run.stderr)")
                XCTAssertTrue(run.stdout.hasPrefix("both kept, each in a folder of its own: "), run.stdout)
                try assertKeptBoth("not killed")
                XCTAssertGreaterThan(point, 1, "the crash library counted no effect")
                print("add --separate: killed at \(point - 1) points")
                return
            }
            let context = "killed at point \(point)"
            let again = try podarchive(keepBoth)
            XCTAssertEqual(again.status, 0, "\(context): \(again.stderr)")
            try assertKeptBoth(context)
        }
        XCTFail("still killed after 400 points")
    }
}
