import Foundation
import TestSupport
import XCTest

// Several machines sharing one archive, played by several podarchive processes on one root: each takes the
// shard `--shard K/N` gives it, and together they sync every show exactly once, with no coordinator.
@testable import ArchiverCore

final class ShardTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try TemporaryFolder("shards")
        server = try TestHTTPServer()
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
    }

    override func tearDown() {
        server.stop()
        folder.remove()
        super.tearDown()
    }

    func test_threeProcessesWithShards_syncEveryShowExactlyOnce() throws {
        let names = (1...9).map { "show\($0)" }
        for name in names {
            let xml =
                "<rss version=\"2.0\"><channel><title>\(name)</title><item><title>\(name) one</title>"
                + "<guid>\(name)</guid><enclosure url=\"/\(name).mp3\" type=\"audio/mpeg\"/></item></channel></rss>"
            server.route("/\(name).xml", .ok(xml, type: "application/rss+xml"))
            server.route("/\(name).mp3", .ok(Data("audio of \(name)".utf8)))
        }
        let environment = ProcessRunner.isolatedEnvironment(home: folder.url)
        let root = folder.url.appendingPathComponent("archive").path
        let feeds = names.map { server.url("/\($0).xml").absoluteString }
        let added = try ProcessRunner.run(
            ProcessRunner.podarchive, ["add"] + feeds + ["--to", root], environment: environment)
        XCTAssertEqual(added.status, 0, added.stderr)

        let runs = try (0..<3).map { shard in
            try ProcessRunner.start(
                ProcessRunner.podarchive, ["sync", "--to", root, "--shard", "\(shard)/3", "--json"],
                environment: environment)
        }
        let results = try runs.map { try $0.wait() }

        for result in results { XCTAssertEqual(result.status, 0, result.stderr) }
        var synced: [String] = []
        for result in results {
            let object = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any]
            synced += (object?["feeds"] as? [[String: Any]] ?? []).compactMap { $0["feed"] as? String }
        }
        XCTAssertEqual(synced.sorted(), feeds.sorted(), "every show once, none twice")
        for name in names {
            XCTAssertEqual(server.requestedPaths.filter { $0 == "/\(name).mp3" }.count, 1, name)
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: root + "/\(name)/\(name) one.mp3"), "\(name) archived")
        }
    }
}
