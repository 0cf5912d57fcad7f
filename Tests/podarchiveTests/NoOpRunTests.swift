// A run with nothing new touches only what its promises need: it rewrites no file of the archive (the time of the
// run goes into the show's lock file, in place), and `feeds` still shows when the show was last synced.
import ArchiverCore
import Foundation
import TestSupport
import XCTest

@testable import podarchive

final class NoOpRunTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }

    /// One show of one episode whose feed answers 304 to its ETag.
    private func serveQuietShow() {
        let xml =
            "<rss version=\"2.0\"><channel><title>Quiet</title><item><title>One</title><guid>1</guid>"
            + "<enclosure url=\"/1.mp3\" type=\"audio/mpeg\"/></item></channel></rss>"
        server.route("/feed.xml") { request, _ in
            if request.headers["if-none-match"] == "\"v1\"" { return TestResponse(status: 304) }
            var response = TestResponse.ok(xml, type: "application/rss+xml")
            response.headers.append(("ETag", "\"v1\""))
            return response
        }
        server.route("/1.mp3", .ok(Data("audio of one".utf8)))
    }

    /// The tool, with a clock showing `seconds` since 1970.
    private func run(at seconds: TimeInterval, _ arguments: String...) async -> ExitCode {
        await CommandLineTool(
            environment: ProcessEnvironment(
                variables: ["PODARCHIVE_CONFIG_DIR": configurationFolder.path], currentDirectory: folder.url.path),
            output: output, errors: errors,
            makeArchiver: { Archiver.live(now: { Date(timeIntervalSince1970: seconds) }) }
        ).run(arguments)
    }

    /// Every file under the archive: its inode, size and modification time (in microseconds).
    private func snapshot() throws -> [String: [Int]] {
        let base = URL(fileURLWithPath: root)
        var files: [String: [Int]] = [:]
        let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.path)
            guard attributes[.type] as? FileAttributeType == .typeRegular else { continue }
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            files[String(url.path.dropFirst(base.path.count))] = [
                (attributes[.systemFileNumber] as? Int) ?? -1, (attributes[.size] as? Int) ?? -1,
                Int(modified * 1e6),
            ]
        }
        return files
    }

    private func lastSync() async throws -> String? {
        output.clear()
        let code = await run(at: 9_000_000, "feeds", "--json", "--to", root)
        XCTAssertEqual(code, .success, errors.text)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let feeds = try XCTUnwrap(object?["feeds"] as? [[String: Any]], output.text)
        return feeds.first?["lastSync"] as? String
    }

    func test_aRunWithNothingNew_rewritesNoFile_andFeedsShowsItsTime() async throws {
        serveQuietShow()
        let first = await run(at: 1_000_000, "sync", server.url("/feed.xml").absoluteString, "--to", root)
        XCTAssertEqual(first, .success, errors.text)
        let before = try snapshot()

        let second = await run(at: 2_000_000, "sync", "--to", root)

        XCTAssertEqual(second, .success, errors.text)
        XCTAssertEqual(server.requestedPaths, ["/feed.xml", "/1.mp3", "/feed.xml"], "the second run was a 304")
        let after = try snapshot()
        XCTAssertEqual(Set(after.keys), Set(before.keys), "a run with nothing new made or removed a file")
        for (path, was) in before {
            let now = after[path] ?? []
            if path.hasSuffix("/lock") {
                // Written in place (the holder's PID, the show's last sync): never replaced.
                XCTAssertEqual(now.first, was.first, "\(path) was replaced")
            } else {
                XCTAssertEqual(now, was, "\(path) was rewritten by a run with nothing new")
            }
        }
        let shown = try await lastSync()
        XCTAssertEqual(shown, "1970-01-24T03:33:20Z", "feeds shows the time of the run that changed nothing")
    }

    func test_aSyncThatEndsOtherwise_isRecordedInTheSubscription_andShownOverAnOlderNote() async throws {
        serveQuietShow()
        _ = await run(at: 1_000_000, "sync", server.url("/feed.xml").absoluteString, "--to", root)
        _ = await run(at: 2_000_000, "sync", "--to", root)
        server.route("/feed.xml", .status(500))

        let failed = await run(at: 3_000_000, "sync", "--to", root)

        XCTAssertNotEqual(failed, .success)
        output.clear()
        let listed = await run(at: 9_000_000, "feeds", "--json", "--to", root)
        XCTAssertEqual(listed, .success, errors.text)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let show = try XCTUnwrap((object?["feeds"] as? [[String: Any]])?.first, output.text)
        XCTAssertEqual(show["lastSync"] as? String, "1970-02-04T17:20:00Z")
        XCTAssertEqual(show["outcome"] as? String, "feed-failed")
    }
}
