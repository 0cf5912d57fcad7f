import Foundation
import TestSupport
import XCTest

// How list, verify and add choose the User-Agent a show's requests carry: the same layers as sync (the command
// line, then the show's saved setting, then the configuration file, then podarchive's own), as the server sees it.
@testable import ArchiverCore
@testable import podarchive

final class AccessLayersTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }
    private var feed: String { server.url("/feed.xml").absoluteString }

    override func setUpWithError() throws {
        try super.setUpWithError()
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("audio one".utf8)))
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        try Data("user-agent = Config/1\n".utf8).write(to: configurationFolder.appendingPathComponent("config"))
    }

    /// The User-Agents of the requests `body` makes, in order.
    private func agents(_ body: () async -> ExitCode) async -> [String] {
        let before = server.requests.count
        let code = await body()
        XCTAssertEqual(code, .success, errors.text)
        return server.requests.dropFirst(before).map { $0.headers["user-agent"] ?? "" }
    }

    func test_list_givenOverSavedOverConfigurationFile() async throws {
        let unsubscribed = await agents { await run("list", feed, "--to", root) }
        let add = await agents { await run("add", feed, "--to", root, "--user-agent", "Saved/1") }
        let saved = await agents { await run("list", feed, "--to", root) }
        let given = await agents { await run("list", feed, "--to", root, "--user-agent", "Given/1") }

        XCTAssertEqual(unsubscribed, ["Config/1"])
        XCTAssertEqual(add, ["Saved/1"])
        XCTAssertEqual(saved, ["Saved/1"])
        XCTAssertEqual(given, ["Given/1"])
    }

    func test_add_readsTheFeedWithTheFilesAgent_andSavesNone() async throws {
        let add = await agents { await run("add", feed, "--to", root) }
        output.clear()
        _ = await run("feeds", "--to", root, "--json")

        XCTAssertEqual(add, ["Config/1"])
        XCTAssertTrue(output.text.contains("\"userAgent\": null"), output.text)
    }

    func test_verifyRepair_givenOverSavedOverConfigurationFile() async throws {
        _ = await agents { await run("sync", feed, "--to", root, "--user-agent", "Saved/1") }
        let file = URL(fileURLWithPath: root).appendingPathComponent("CLI Show/One.mp3")

        try FileManager.default.removeItem(at: file)
        let saved = await agents { await run("verify", root, "--repair") }
        try FileManager.default.removeItem(at: file)
        let given = await agents { await run("verify", root, "--repair", "--user-agent", "Given/1") }

        XCTAssertEqual(Set(saved), ["Saved/1"])
        XCTAssertEqual(Set(given), ["Given/1"])
        XCTAssertEqual(try Data(contentsOf: file), Data("audio one".utf8))
    }
}
