import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// A run with nothing new touches only what its promises need: it rewrites no file of the archive (the time of the
// run goes into the show's lock file, in place), and `feeds` still shows when the show was last synced.
@testable import ArchiverCore
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
        await run(at: seconds, arguments)
    }

    /// The tool, with a clock showing `seconds` since 1970, reading files through `files`.
    private func run(
        at seconds: TimeInterval, _ arguments: [String], files: any FileStore = FileManager.default
    ) async -> ExitCode {
        await CommandLineTool(
            environment: ProcessEnvironment(
                variables: ["PODARCHIVE_CONFIG_DIR": configurationFolder.path], currentDirectory: folder.url.path),
            output: output, errors: errors,
            makeArchiver: { Archiver.live(files: files, now: { Date(timeIntervalSince1970: seconds) }) }
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

    func test_aRunWithNothingNew_readsEachRecordOnce_andTheArchiveIdentityOnce() async throws {
        for show in ["a", "b", "c"] {
            server.route("/\(show).xml") { request, _ in
                if request.headers["if-none-match"] == "\"v1\"" { return TestResponse(status: 304) }
                var response = TestResponse.ok(
                    "<rss version=\"2.0\"><channel><title>Show \(show)</title><item><title>One</title><guid>1</guid>"
                        + "<enclosure url=\"/\(show).mp3\" type=\"audio/mpeg\"/></item></channel></rss>",
                    type: "application/rss+xml")
                response.headers.append(("ETag", "\"v1\""))
                return response
            }
            server.route("/\(show).mp3", .ok(Data("audio of \(show)".utf8)))
        }
        let feeds = ["a", "b", "c"].map { server.url("/\($0).xml").absoluteString }
        let first = await run(at: 1_000_000, ["sync"] + feeds + ["--to", root])
        XCTAssertEqual(first, .success, errors.text)
        let reads = CountingFiles()

        let second = await run(at: 2_000_000, ["sync", "--to", root], files: reads)

        XCTAssertEqual(second, .success, errors.text)
        XCTAssertEqual(server.requestedPaths.suffix(3).sorted(), ["/a.xml", "/b.xml", "/c.xml"], "three 304s")
        let counts = reads.counts
        let records = counts.filter { $0.key.contains("/.podarchive/feeds/") }
        XCTAssertEqual(records.count, 3, "\(counts)")
        XCTAssertEqual(Set(records.values), [1], "a record was read more than once: \(records)")
        XCTAssertEqual(counts.filter { $0.key.hasSuffix("/archive.json") }.values.first, 1, "\(counts)")
    }

    func test_aSyncThatEndsOtherwise_isRecordedInTheSubscription_andShownOverAnOlderNote() async throws {
        serveQuietShow()
        _ = await run(at: 1_000_000, "sync", server.url("/feed.xml").absoluteString, "--to", root)
        _ = await run(at: 2_000_000, "sync", "--to", root)
        server.route("/feed.xml", .status(500))

        let failed = await run(at: 3_000_000, "sync", "--to", root, "--retries", "0")

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

/// The real file system, counting the whole-file reads of each path.
private final class CountingFiles: RealFileStore {
    private let reads = Locked<[String: Int]>([:])

    /// Whole-file reads so far, by path.
    var counts: [String: Int] { reads.current }

    func contents(atPath path: String) -> Data? {
        reads.withLock { $0[path, default: 0] += 1 }
        return FileManager.default.contents(atPath: path)
    }
}
