import Foundation
import TestSupport
import XCTest

// Messages that say what happened: a refused password is not a missing one, an unknown show name lists the
// archive's shows, items a feed format cannot read are counted and named, `verify --json` prints every finding,
// and one order of outcomes decides the exit code wherever it is written down.
@testable import ArchiverCore
@testable import podarchive

final class TruthfulMessagesTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var feedURL: String { server.url("/feed.xml").absoluteString }

    private func serveFeedNeeding(_ authorization: String) {
        let xml = "<rss version=\"2.0\"><channel><title>Members</title></channel></rss>"
        server.route("/feed.xml") { request, _ in
            request.headers["authorization"] == authorization
                ? .ok(xml, type: "application/rss+xml") : .status(401, "no")
        }
    }

    // MARK: - 401

    func test_401_withCredentialsSent_saysTheServerRefusedThem() async {
        serveFeedNeeding("Basic " + Data("alice:right".utf8).base64EncodedString())
        let wrong = feedURL.replacingOccurrences(of: "http://", with: "http://alice:n0tTh1s@")

        let code = await run("sync", wrong, "--to", root.path)

        XCTAssertEqual(code, .feedFailed)
        XCTAssertTrue(errors.text.contains("answered HTTP 401: the server refused the credentials sent"), errors.text)
        XCTAssertFalse(errors.text.contains("needs credentials"), errors.text)
        XCTAssertFalse(errors.text.contains("n0tTh1s"), "the password is never shown")

        errors.clear()
        let listed = await run("list", feedURL, "--header", "Authorization: Bearer stale")
        XCTAssertEqual(listed, .feedFailed)
        XCTAssertTrue(errors.text.contains("refused the credentials sent"), errors.text)
    }

    func test_401_withoutCredentials_stillSaysTheFeedNeedsThem() async {
        serveFeedNeeding("Basic x")
        let code = await run("list", feedURL)
        XCTAssertEqual(code, .feedFailed)
        XCTAssertTrue(errors.text.contains("answered HTTP 401: the feed needs credentials"), errors.text)
    }

    // MARK: - list --archived

    func test_listArchived_unknownName_listsTheArchivesShows_notAFolderOfTheCurrentDirectory() async {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("one".utf8)))
        let synced = await run("sync", feedURL, "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)
        errors.clear()

        let code = await run("list", "--archived", "No Such Show", "--to", root.path)

        XCTAssertEqual(code, .usage)
        XCTAssertEqual(
            errors.text,
            "podarchive: no subscribed show has the feed URL or folder name 'No Such Show'; the archive's shows are "
                + "'CLI Show'\n")
        XCTAssertFalse(errors.text.contains(folder.url.path), "not resolved against the current directory")
    }

    func test_listArchived_findsAShowByFolderName_evenOnceUnsubscribed() async {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("one".utf8)))
        _ = await run("sync", feedURL, "--to", root.path)
        _ = await run("remove", feedURL, "--to", root.path)
        output.clear()

        let code = await run("list", "--archived", "CLI Show", "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.hasPrefix("CLI Show: 1 archived episode"), output.text)
    }

    // MARK: - Skipped items

    private func writeArrayFeed() throws -> String {
        let json = """
            [{"url": "\(server.url("/a.mp3"))", "title": "A"},
             {"title": "B", "enclosure": {"url": "\(server.url("/b.mp3"))"}}]
            """
        let file = folder.url.appendingPathComponent("episodes.json")
        try Data(json.utf8).write(to: file)
        server.route("/a.mp3", .ok(Data("a".utf8)))
        return file.path
    }

    func test_itemsInAShapeTheFormatDoesNotRead_areCountedInTheSummary_andNamedWithVerbose() async throws {
        let feed = try writeArrayFeed()

        let code = await run("sync", feed, "--to", root.path)
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.contains("episodes: 1 archived, 0 already archived, 1 item skipped"), output.text)

        output.clear()
        _ = await run("sync", feed, "--to", root.path, "--verbose")
        XCTAssertTrue(
            output.text.contains(
                "skipped item \"B\": it has \"enclosure\", which a JSON array of episodes does not read (the file "
                    + "goes in \"url\")"), output.text)

        output.clear()
        _ = await run("sync", feed, "--to", root.path, "--json")
        XCTAssertTrue(
            output.text.contains("\"skippedItems\": [{\"title\": \"B\", \"reason\": \"it has \\\"enclosure\\\""),
            output.text)

        output.clear()
        errors.clear()
        let listed = await run("list", feed)
        XCTAssertEqual(listed, .success)
        XCTAssertTrue(errors.text.contains("podarchive: item \"B\" skipped: it has \"enclosure\""), errors.text)
    }

    // MARK: - verify --json

    func test_verifyJSON_withoutUpstream_printsOneDocumentWithEveryFinding() async throws {
        serveFeed(episodes: [("One", "/1.mp3"), ("Two", "/2.mp3"), ("Three", "/3.mp3")])
        for number in 1...3 { server.route("/\(number).mp3", .ok(Data("audio \(number)".utf8))) }
        let synced = await run("sync", feedURL, "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)
        let show = root.appendingPathComponent("CLI Show")
        try Data("audio X".utf8).write(to: show.appendingPathComponent("One.mp3"))
        try FileManager.default.removeItem(at: show.appendingPathComponent("Two.mp3"))
        output.clear()

        let code = await run("verify", root.path, "--json")

        XCTAssertEqual(code, .episodesFailed)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any], output.text)
        XCTAssertEqual(object["files"] as? Int, 3)
        XCTAssertEqual(object["feeds"] as? Int, 1)
        XCTAssertEqual(object["remaining"] as? Int, 2)
        let problems = try XCTUnwrap(object["problems"] as? [[String: Any]])
        XCTAssertEqual(problems.map { $0["file"] as? String }, ["One.mp3", "Two.mp3"])
        XCTAssertEqual(problems.map { $0["kind"] as? String }, ["changed", "missing"])
        XCTAssertEqual(problems.first?["folder"] as? String, "CLI Show")
    }

    // MARK: - Exit code order

    func test_exitCodeOrder_isTheCodes_inHelpAndManPage() throws {
        let codes: [ExitCode] = [.episodesFailed, .usage, .feedFailed, .locked, .archiveFailed]
        let order = codes.sorted { $0.severity > $1.severity }
            .map { String($0.rawValue) }.joined(separator: ", ")
        XCTAssertEqual(order, "5, 2, 3, 4, 1")
        for (name, text) in [("help", HelpText.exitCodes), ("man page", ManualPage.page)] {
            XCTAssertTrue(text.contains("worst first: \(order)"), name)
            XCTAssertNil(
                text.range(of: "[0-9], then [0-9]", options: .regularExpression),
                "\(name) gives the order once, in its exit code section")
        }
        for command in ["sync", "add", "list", "verify"] {
            XCTAssertTrue(HelpText.text(for: command).contains("worst first: \(order)"), command)
        }
    }
}
