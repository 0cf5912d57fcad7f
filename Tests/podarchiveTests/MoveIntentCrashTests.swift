import Foundation
import TestSupport
import XCTest

// `credentials --move` finishes what it starts (issue 37, point 9), proven at every point: the built binary killed
// (SIGKILL, through `CrashShim`) just before each write, fsync, rename and unlink it makes in the archive and the
// configuration folder, once per point, on an archive an earlier podarchive left with its login in the record, the
// index, sidecars (one in a `--name` subfolder), an origin attribute and a leftover temporary file. Then a plain
// `sync`, not a second `--move`:
// - killed once the record's secret was moved (the show marked, see `PendingMove`), the sync finishes the move: no
//   file under the root holds the secret, and the mark is gone;
// - killed before, the sync leaves the record to `--move` (never a side effect of a sync), and keeps the mark,
//   which `credentials` says; the next `--move` finishes.
// Either way the login is never lost: the server answers 401 without it, and every sync after exits 0.
@testable import ArchiverCore

final class MoveIntentCrashTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private var library: URL!
    private let titles = ["One", "Two"]
    private let secret = "PW4moveIntent"

    override func setUpWithError() throws {
        library = try CrashShim.libraryForBuiltBinary()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("move-intent")
        var xml = "<rss version=\"2.0\"><channel><title>Members Show</title>"
        for title in titles {
            let name = title.lowercased()
            xml +=
                "<item><title>\(title)</title><guid>\(name)</guid>"
                + "<enclosure url=\"/\(name).mp3\" length=\"\(audio(title).count)\" type=\"audio/mpeg\"/></item>"
            server.route("/\(name).mp3", .ok(audio(title)))
        }
        let document = xml + "</channel></rss>"
        let login = "Basic " + Data("member:\(secret)".utf8).base64EncodedString()
        // The feed only for the login: a sync that lost it fails.
        server.route("/feed.xml") { request, _ in
            guard request.headers["authorization"] == login else { return TestResponse(status: 401) }
            return TestResponse.ok(document, type: "application/rss+xml")
        }
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private func audio(_ title: String) -> Data { Data("the audio of \(title)".utf8) }
    private var archive: URL { folder.url.appendingPathComponent("archive") }
    private var show: URL { archive.appendingPathComponent("Members Show") }
    private var records: URL { archive.appendingPathComponent(".podarchive/feeds") }
    private var mark: URL { show.appendingPathComponent(".podarchive/credentials-move.json") }
    private var configuration: URL { folder.url.appendingPathComponent(".config/podarchive") }
    private var secretFeed: String {
        server.url("/feed.xml").absoluteString.replacingOccurrences(of: "http://", with: "http://member:\(secret)@")
    }

    /// Runs the built binary; killed before its `killAt`-th effect under the scratch folder when given.
    private func podarchive(_ arguments: [String], killAt: Int? = nil) throws -> ProcessResult {
        try CrashShim.podarchive(arguments, home: folder.url, library: library, under: folder.url, killAt: killAt)
    }

    private func holders() throws -> [String] {
        try SecretSearch.files(under: archive, holding: [secret]).map {
            String($0.dropFirst(archive.path.count + 1))
        }
    }

    private func recordHoldsTheSecret() throws -> Bool {
        try holders().contains { $0.hasPrefix(".podarchive/feeds/") }
    }

    /// An archive as an earlier podarchive left it: synced, then the login put back where 0.1.0 kept it (the
    /// record, the index) and where a killed move of this version's predecessor left it (sidecars at any depth,
    /// an origin attribute, a leftover temporary file); the configuration folder empty.
    private func prepare() throws {
        for made in [archive, configuration] { try? FileManager.default.removeItem(at: made) }
        try FileManager.default.createDirectory(at: archive, withIntermediateDirectories: true)
        let sync = try podarchive(["sync", secretFeed, "--to", archive.path, "--metadata"])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        try FileManager.default.removeItem(at: configuration)
        let recordFiles = try FileManager.default.contentsOfDirectory(at: records, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "json" }
        XCTAssertEqual(recordFiles.count, 1)
        try rewriteJSON(recordFiles[0]) { record in
            record["feed"] = secretFeed
            record["storedCredentials"] = nil
            record["version"] = nil
        }
        // Its records folder was not yet kept private: that is how this version knows such records.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: recordFiles[0].path)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: records.path)
        try rewriteJSON(show.appendingPathComponent(".podarchive/index.json")) { $0["feed"] = secretFeed }
        let episodeURL = secretFeed.replacingOccurrences(of: "feed.xml", with: "one.mp3")
        let sidecar = Data(#"{"url": "\#(episodeURL)", "feed": {"url": "\#(secretFeed)"}}"#.utf8)
        let sub = show.appendingPathComponent("Sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        try sidecar.write(to: sub.appendingPathComponent("Deep.info.json"))
        try sidecar.write(to: show.appendingPathComponent("One.info.json"))
        try sidecar.write(to: show.appendingPathComponent(".Ep A.info.json.tmp-99999"))
        try FileManager.default.setAttributes(
            [FileAttributeKey("NSFileExtendedAttributes"): ["user.xdg.origin.url": Data(episodeURL.utf8)]],
            ofItemAtPath: show.appendingPathComponent("Two.mp3").path)
        let seeded = try holders()
        for place in [
            "feeds/", "Members Show/.podarchive/index.json", "Sub/Deep.info.json", "One.info.json", ".tmp-99999",
            "Two.mp3",
        ] {
            XCTAssertTrue(seeded.contains { $0.contains(place) }, "the secret is not seeded in \(place): \(seeded)")
        }
    }

    private func rewriteJSON(_ url: URL, _ change: (inout [String: Any]) -> Void) throws {
        var object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        change(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    /// The episodes are the publisher's bytes, and a sync (which needs the login) exits 0.
    private func assertNothingLost(_ context: String) throws {
        for title in titles {
            XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("\(title).mp3")), audio(title), context)
        }
        let sync = try podarchive(["sync", "--to", archive.path])
        XCTAssertEqual(sync.status, 0, "\(context): the login was lost? \(sync.stderr)")
    }

    func test_move_killedAtEveryPoint_isFinishedByAPlainSync_orSaidPendingUntilTheNextMove() throws {
        let move = ["credentials", "--move", "--to", archive.path]
        var finishedBySync = 0
        var leftToMove = 0
        for point in 1...400 {
            try prepare()
            let killed = try podarchive(move, killAt: point)
            guard killed.status == 128 + SIGKILL else {
                XCTAssertEqual(killed.status, 0, "run past its last point: \(killed.stderr)")
                XCTAssertEqual(try holders(), [], "an uninterrupted move leaves no secret")
                XCTAssertFalse(FileManager.default.fileExists(atPath: mark.path), "nor its mark")
                XCTAssertGreaterThan(point, 1, "the crash library counted no effect")
                print("credentials --move: killed at \(point - 1) points")
                break
            }
            let context = "killed at point \(point)"
            let marked = FileManager.default.fileExists(atPath: mark.path)
            let moved = try !recordHoldsTheSecret()
            let sync = try podarchive(["sync", "--to", archive.path])
            XCTAssertEqual(sync.status, 0, "\(context): \(sync.stderr)")
            if moved {
                // The record's secret is in the configuration folder: the sync finished the rest.
                XCTAssertTrue(marked, "\(context): the record moved before the show was marked")
                finishedBySync += 1
                XCTAssertEqual(try holders(), [], "\(context): the sync left the secret")
                XCTAssertFalse(FileManager.default.fileExists(atPath: mark.path), "\(context): the mark stays")
            } else if marked {
                // Only `--move` moves a record's secrets: the sync cleaned the rest, and the move stays pending.
                leftToMove += 1
                XCTAssertEqual(try holders(), [".podarchive/feeds/" + (try recordName())], context)
                XCTAssertTrue(FileManager.default.fileExists(atPath: mark.path), "\(context): the mark went")
                let listing = try podarchive(["credentials", "--to", archive.path])
                XCTAssertEqual(listing.status, 0, "\(context): \(listing.stderr)")
                XCTAssertTrue(
                    listing.stdout.contains(
                        "Members Show: a credentials move is not finished (podarchive credentials --move, or the "
                            + "show's next sync, finishes it)\n"), "\(context): \(listing.stdout)")
            }
            let again = try podarchive(move)
            XCTAssertEqual(again.status, 0, "\(context): \(again.stderr)")
            XCTAssertEqual(try holders(), [], "\(context): the next move left the secret")
            XCTAssertFalse(FileManager.default.fileExists(atPath: mark.path), "\(context): the mark outlived the move")
            XCTAssertFalse(
                try SecretSearch.files(under: configuration, holding: [secret]).isEmpty,
                "\(context): no credentials file keeps the login")
            try assertNothingLost(context)
        }
        print("credentials --move: \(finishedBySync) points finished by a sync, \(leftToMove) left to the next move")
        XCTAssertGreaterThan(finishedBySync, 0, "some points fall after the record moved")
        XCTAssertGreaterThan(leftToMove, 0, "some points fall between the mark and the record's move")
    }

    private func recordName() throws -> String {
        try XCTUnwrap(
            FileManager.default.contentsOfDirectory(atPath: records.path).first { $0.hasSuffix(".json") })
    }
}
