import Foundation
import TestSupport
import XCTest

// The feed's history as a user meets it: a feed that changes between two syncs run back to back (within one
// second) leaves both revisions, in the order they were fetched, and `current.xml` is the newer one. In process
// with the tool's clock standing still (the same second for certain), and as the built binary on the real clock.
@testable import ArchiverCore
@testable import podarchive

final class FeedHistoryCommandTests: CommandLineTestCase {
    /// The feed before and after its publisher edited the show notes; its episode's URL carries a token.
    static func revisions(on server: TestHTTPServer) -> [String] {
        ["first notes", "edited notes"].map { notes in
            "<rss version=\"2.0\"><channel><title>History Show</title><item><title>One</title><guid>one</guid>"
                + "<description>\(notes)</description>"
                + "<enclosure url=\"\(server.url("/one.mp3").absoluteString)?token=SECRET1\" type=\"audio/mpeg\"/>"
                + "</item></channel></rss>"
        }
    }

    /// Serves the first revision to the first request and the second to every later one.
    static func serveRevisions(_ revisions: [String], on server: TestHTTPServer) {
        server.route("/feed.xml") { _, before in
            .ok(revisions[min(before, 1)], type: "application/rss+xml")
        }
        server.route("/one.mp3", .ok(Data("audio of one".utf8)))
    }

    /// The history folder's files, sorted, and what each holds (a revision unzipped).
    static func history(in show: URL) throws -> [(name: String, text: String)] {
        let folder = show.appendingPathComponent(".podarchive/history")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { name in
            let data = try XCTUnwrap(FileManager.default.contents(atPath: folder.appendingPathComponent(name).path))
            return (name, String(decoding: name.hasSuffix(".gz") ? try Gzip.decompress(data) : data, as: UTF8.self))
        }
    }

    /// `text` as it is kept: its tokens redacted.
    static func kept(_ text: String) -> String {
        text.replacingOccurrences(of: "token=SECRET1", with: "token=REDACTED")
    }

    func test_feedChangedBetweenTwoSyncsWithinOneSecond_bothRevisionsKept_currentIsTheNewer() async throws {
        let revisions = Self.revisions(on: server)
        Self.serveRevisions(revisions, on: server)
        let feed = server.url("/feed.xml").absoluteString
        let root = folder.url.appendingPathComponent("archive")

        let first = await run("sync", feed, "--to", root.path)
        let second = await run("sync", feed, "--to", root.path)

        XCTAssertEqual(first, .success, errors.text)
        XCTAssertEqual(second, .success, errors.text)
        XCTAssertEqual(server.requestedPaths.filter { $0 == "/feed.xml" }.count, 2, "the feed was fetched twice")
        let history = try Self.history(in: root.appendingPathComponent("History Show"))
        // The tool's clock stands at 1970-01-01T00:00:00Z: both were fetched within that second.
        XCTAssertEqual(
            history.map(\.name), ["1970-01-01T00-00-00Z.xml.gz", "1970-01-01T00-00-00Z_002.xml.gz", "current.xml"])
        XCTAssertEqual(history.map(\.text), [revisions[0], revisions[1], revisions[1]].map(Self.kept))
        XCTAssertFalse(history.contains { $0.text.contains("SECRET1") }, "kept with its URLs redacted")
    }
}

/// The same, as the built binary on the wall clock: two runs back to back.
final class FeedHistoryBinaryTests: XCTestCase {
    func test_binary_feedChangedBetweenTwoRunsBackToBack_bothRevisionsKept_currentIsTheNewer() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        let folder = try TemporaryFolder("history")
        defer { folder.remove() }
        let server = try TestHTTPServer()
        defer { server.stop() }
        let revisions = FeedHistoryCommandTests.revisions(on: server)
        FeedHistoryCommandTests.serveRevisions(revisions, on: server)
        let environment = ProcessRunner.isolatedEnvironment(
            home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": folder.url.appendingPathComponent("config").path])
        let arguments = ["sync", server.url("/feed.xml").absoluteString, "--to", "archive"]

        let first = try ProcessRunner.run(
            ProcessRunner.podarchive, arguments, environment: environment, currentDirectory: folder.url)
        let second = try ProcessRunner.run(
            ProcessRunner.podarchive, arguments, environment: environment, currentDirectory: folder.url)

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        let history = try FeedHistoryCommandTests.history(
            in: folder.url.appendingPathComponent("archive/History Show"))
        // Sorted as text, the revisions are in the order they were fetched, whether or not in one second.
        XCTAssertEqual(history.count, 3, "\(history.map(\.name))")
        XCTAssertEqual(history.last?.name, "current.xml")
        XCTAssertEqual(
            history.map(\.text), [revisions[0], revisions[1], revisions[1]].map(FeedHistoryCommandTests.kept))
    }
}
