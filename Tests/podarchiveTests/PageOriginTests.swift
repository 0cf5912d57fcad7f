import Foundation
import TestSupport
import XCTest

// Credentials typed with a show's web page stay with the page's origin (issue 37, point 5), through the command
// line against two loopback origins (127.0.0.2 serves the page, 127.0.0.1 the feed it names): a login or a header
// given with the page, and a `.netrc` `default` login, never reach a feed a page on another origin names, with
// `add` or `sync`, then or on any later run; the line says how to give them with the feed's URL. A feed on the
// page's own origin still gets them, and a `.netrc` `machine` entry for the feed's host still applies.
@testable import ArchiverCore
@testable import podarchive

final class PageOriginTests: CommandLineTestCase {
    private var other: TestHTTPServer!
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private let basic = "Basic " + Data("alice:PW-s3cret".utf8).base64EncodedString()

    override func setUpWithError() throws {
        try super.setUpWithError()
        other = try TestHTTPServer(address: "127.0.0.2")
    }

    override func tearDown() {
        other.stop()
        super.tearDown()
    }

    /// A public feed on 127.0.0.1 with one episode, and a web page at `on`'s `/show` linking to it.
    private func serveShow(pageOn host: TestHTTPServer) {
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Page Show</title><item><title>One</title><guid>1</guid>"
                    + "<enclosure url=\"/one.mp3\" type=\"audio/mpeg\"/></item></channel></rss>",
                type: "application/rss+xml"))
        server.route("/one.mp3", .ok(Data(repeating: 1, count: 100)))
        host.route(
            "/show",
            .ok(
                "<!DOCTYPE html>\n<html><head><title>Page Show</title><link rel=\"alternate\" "
                    + "type=\"application/rss+xml\" href=\"\(server.url("/feed.xml").absoluteString)\"></head>"
                    + "<body></body></html>", type: "text/html"))
    }

    private var feedAuthorizations: [String] { server.requests.compactMap { $0.headers["authorization"] } }

    private func netrc(_ text: String) throws -> String {
        let file = folder.url.appendingPathComponent("netrc")
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file.path
    }

    private func pageURL(on host: TestHTTPServer, login: Bool) -> String {
        let page = host.url("/show").absoluteString
        return login ? page.replacingOccurrences(of: "http://", with: "http://alice:PW-s3cret@") : page
    }

    func test_add_aLoginTypedWithAPage_neverReachesAFeedOnAnotherOrigin_andTheLineSaysHowToGiveIt() async throws {
        try await loginStaysWithThePage(command: "add")
    }

    func test_sync_aLoginTypedWithAPage_neverReachesAFeedOnAnotherOrigin_andTheLineSaysHowToGiveIt() async throws {
        try await loginStaysWithThePage(command: "sync")
    }

    private func loginStaysWithThePage(command: String) async throws {
        serveShow(pageOn: other)

        let code = await run(command, pageURL(on: other, login: true), "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(feedAuthorizations, [], "the page chose who got the password")
        XCTAssertTrue(other.requests.allSatisfy { $0.headers["authorization"] == nil }, "\(other.requests)")
        let feed = server.url("/feed.xml").absoluteString
        XCTAssertTrue(
            errors.text.contains(
                "(a login) goes to its origin only: its feed <\(feed)> is on another, read without it; to send it "
                    + "there, give it with the feed's URL: podarchive add '"
                    + feed + "' (user:password@ in the URL)\n"),
            errors.text)
        XCTAssertFalse(errors.text.contains("PW-s3cret") || output.text.contains("PW-s3cret"))
        // Nothing was saved for the feed: the nightly run sends nothing either.
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(feedAuthorizations, [])
    }

    func test_add_aHeaderGivenWithAPage_neverReachesAFeedOnAnotherOrigin() async throws {
        try await headerStaysWithThePage(command: "add")
    }

    func test_sync_aHeaderGivenWithAPage_neverReachesAFeedOnAnotherOrigin() async throws {
        try await headerStaysWithThePage(command: "sync")
    }

    private func headerStaysWithThePage(command: String) async throws {
        serveShow(pageOn: other)

        let code = await run(
            command, pageURL(on: other, login: false), "--header", "Authorization: Bearer T0KEN", "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(feedAuthorizations, [], "the page chose who got the header")
        XCTAssertTrue(other.requests.allSatisfy { $0.headers["authorization"] == nil }, "\(other.requests)")
        XCTAssertTrue(
            errors.text.contains(
                "(headers) goes to its origin only: its feed <\(server.url("/feed.xml").absoluteString)> is on another, read without it; "
                    + "to send it there, give it with the feed's URL: podarchive add '"
                    + server.url("/feed.xml").absoluteString + "' --header 'NAME: VALUE'\n"),
            errors.text)
        XCTAssertFalse(errors.text.contains("T0KEN") || output.text.contains("T0KEN"))
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(feedAuthorizations, [])
    }

    func test_aLoginTypedWithAPage_goesToAFeedOnThePagesOwnOrigin() async throws {
        serveShow(pageOn: server)

        let code = await run("add", pageURL(on: server, login: true), "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertNil(server.requests.first { $0.path == "/show" }?.headers["authorization"], "never the page")
        XCTAssertEqual(server.requests.last { $0.path == "/feed.xml" }?.headers["authorization"], basic)
        XCTAssertEqual(errors.text, "")
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(server.requests.last { $0.path == "/one.mp3" }?.headers["authorization"], basic)
    }

    func test_aNetrcDefaultLogin_neverReachesAFeedAPageOnAnotherOriginNames_onAnyRun() async throws {
        serveShow(pageOn: other)
        let file = try netrc("default login alice password PW-s3cret\n")

        let added = await run("add", pageURL(on: other, login: false), "--netrc-file", file, "--to", root.path)
        XCTAssertEqual(added, .success, errors.text)
        XCTAssertTrue(
            output.text.contains(
                "the .netrc default login stays with \(other.url("/").absoluteString.dropLast()), where the show was "
                    + "first subscribed: add a line 'machine 127.0.0.1 login ... password ...' to send one to "
                    + "127.0.0.1\n"),
            output.text)
        let synced = await run("sync", "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)

        XCTAssertTrue(server.requestedPaths.contains("/one.mp3"))
        XCTAssertEqual(feedAuthorizations, [], "the page chose who got the default login")
    }

    func test_aNetrcMachineEntryForTheFeedsHost_stillGoesToAFeedAPageNames() async throws {
        serveShow(pageOn: other)
        let file = try netrc("machine 127.0.0.1 login alice password PW-s3cret\n")

        let code = await run("sync", pageURL(on: other, login: false), "--netrc-file", file, "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertFalse(server.requests.isEmpty)
        XCTAssertEqual(Set(feedAuthorizations), [basic])
        XCTAssertEqual(feedAuthorizations.count, server.requests.count, "every request to the feed's host has it")
    }
}
