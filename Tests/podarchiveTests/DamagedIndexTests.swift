import Foundation
import TestSupport
import XCTest

// A damaged or hostile `index.json`, met by the built binary as a user would meet it: every command that reads
// the index refuses it in one line and the process never crashes.
@testable import ArchiverCore

final class DamagedIndexTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        folder = try TemporaryFolder("damaged-index")
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Deep Show</title>
                <item><title>One</title><guid>one</guid><enclosure url="/1.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/1.mp3", .ok(Data("audio one".utf8)))
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try podarchive(arguments)
    }

    private func podarchive(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments,
            environment: ProcessRunner.isolatedEnvironment(
                home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": folder.url.appendingPathComponent("config").path]),
            currentDirectory: folder.url)
    }

    private var index: URL { folder.url.appendingPathComponent("archive/Deep Show/.podarchive/index.json") }

    /// 150,000 nested arrays under a key the index does not know, inside the one episode's entry.
    func test_deepNestingUnderAnEpisodesUnknownKey_isRefusedInOneLine_byEveryReader() throws {
        let synced = try podarchive("sync", server.url("/feed.xml").absoluteString, "--to", "archive")
        XCTAssertEqual(synced.status, 0, synced.stderr)
        let text = try String(contentsOf: index, encoding: .utf8)
        let levels = 150_000
        let deep = String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
        let damaged = text.replacingOccurrences(of: "{\"key\": \"one\"", with: "{\"x\": \(deep), \"key\": \"one\"")
        XCTAssertNotEqual(damaged, text)
        try Data(damaged.utf8).write(to: index)

        for command in [
            ["verify", "archive"], ["verify", "archive", "--repair"], ["sync", "--to", "archive"],
            ["list", "--archived", "Deep Show", "--to", "archive"],
        ] {
            let result = try podarchive(command)
            XCTAssertEqual(result.status, 5, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "\(command): \(result.stderr)")
            XCTAssertTrue(
                result.stderr.contains("Deep Show/.podarchive/index.json is damaged (nested deeper than any index"),
                "\(command): \(result.stderr)")
        }
        for command in [["feeds", "--to", "archive"], ["site", "archive"]] {
            let result = try podarchive(command)
            XCTAssertLessThan(result.status, 128, "\(command) must not crash: \(result.stderr)")
            // `feeds` names the show's problem under it; `site` leaves the show out, named on standard error.
            XCTAssertTrue(
                (result.stdout + result.stderr).contains("nested deeper than any index"),
                "\(command): \(result.stdout)\(result.stderr)")
        }
        XCTAssertEqual(try String(contentsOf: index, encoding: .utf8), damaged, "nothing was changed")
    }
}
