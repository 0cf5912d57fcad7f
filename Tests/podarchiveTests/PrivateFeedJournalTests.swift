import Foundation
import TestSupport
import XCTest

// Issue 37, point 1, in the files a killed run leaves: the built binary syncs a private show (a token in its feed's
// URL, RSS) and is killed with SIGKILL once its episodes are in the index's journal and before the journal is folded
// into the index. The journal is written as everything else is: the search finds no secret in it, nor anywhere under
// the root, nor in what the runs printed.
@testable import ArchiverCore

final class PrivateFeedJournalTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        folder = try TemporaryFolder("taint-journal")
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private var root: URL { folder.url.appendingPathComponent("archive") }

    private func sync(_ feed: TaintedFeed, crashingAt point: String?) throws -> ProcessResult {
        #if !PODARCHIVE_TEST_HOOKS
            // Test hooks never ship: a build without them has no switch to kill itself (see CrashTests).
            if point != nil {
                let reason = "built without PODARCHIVE_TEST_HOOKS: no crash switch (run make test-release)"
                if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail(reason) }
                throw XCTSkip(reason)
            }
        #endif
        var extra = ["PODARCHIVE_CONFIG_DIR": folder.url.appendingPathComponent("config").path]
        extra["PODARCHIVE_TEST_CRASH"] = point
        return try ProcessRunner.run(
            ProcessRunner.podarchive, ["sync", feed.feedURL, "--to", root.path, "--metadata", "--jobs", "1"],
            environment: ProcessRunner.isolatedEnvironment(home: folder.url, extra: extra),
            currentDirectory: folder.url)
    }

    func test_aRunKilledBeforeTheJournalIsFolded_leavesNoSecretInTheJournal() throws {
        let feed = TaintedFeed(access: .token, format: .rss, base: "http://127.0.0.1:\(server.port)")
        feed.serve(on: server)
        let journal = root.appendingPathComponent(TaintedFeed.title).appendingPathComponent(".podarchive")
            .appendingPathComponent(ArchiveLayout.journalFile)
        let served = Set(feed.files.values)
        // Seven (`?id=…&k=…`) fails the first run, which writes the index whole; the second archives it into the
        // journal and is killed there.
        let seven = feed.episodes[6].audio
        server.route("/seven.mp3") { _, before in before == 0 ? .status(404, "not yet") : .ok(seven) }
        let first = try sync(feed, crashingAt: nil)

        let killed = try sync(feed, crashingAt: "before-fold")

        XCTAssertEqual(first.status, 1, first.stderr)
        XCTAssertEqual(killed.status, 128 + SIGKILL, killed.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: journal.path), "the journal holds Seven")
        var hits = try SecretSpellingSearch.hits(
            under: root, name: "<root, killed>", secrets: feed.secrets, keepsContents: { served.contains($1) })
        hits += SecretSpellingSearch.hits(
            in: first.stdout + first.stderr + killed.stdout + killed.stderr, place: "the runs' output",
            secrets: feed.secrets)
        XCTAssertTrue(hits.isEmpty, SecretSpellingSearch.report(hits))
    }
}
