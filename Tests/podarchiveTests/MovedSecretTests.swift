import Foundation
import TestSupport
import XCTest

// A secret never follows a move it was not given for (issue 37, point 10), through the command line against two
// loopback origins (127.0.0.1 the show's first home, 127.0.0.2 another): a `.netrc` `default` login stays with
// the origin the show was first subscribed at after a 301 or an announced new feed URL to another (a `machine`
// entry for the new host still goes), and the line says so; a look-alike feed on another origin that copies a
// private show's `podcast:guid` and title, with no episode in common, never takes its subscription over, by
// `add` or by `itunes:new-feed-url`.
@testable import ArchiverCore
@testable import podarchive

final class MovedSecretTests: CommandLineTestCase {
    private var other: TestHTTPServer!
    private var root: String { folder.url.appendingPathComponent("archive").path }
    private let basic = "Basic " + Data("alice:PW-s3cret".utf8).base64EncodedString()

    override func setUpWithError() throws {
        try super.setUpWithError()
        other = try TestHTTPServer(address: "127.0.0.2")
    }

    override func tearDown() {
        other.stop()
        super.tearDown()
    }

    /// An RSS document of `title` with `podcast:guid` G, an episode per GUID (its enclosure on `host`), and an
    /// `itunes:new-feed-url` when given.
    private func rss(_ title: String, guids: [String], on host: TestHTTPServer, newFeedURL: String? = nil) -> String {
        var xml =
            "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\" "
            + "xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel><title>\(title)</title>"
            + "<podcast:guid>5e1d1a5e-0000-4000-8000-000000000037</podcast:guid>"
            + (newFeedURL.map { "<itunes:new-feed-url>\($0)</itunes:new-feed-url>" } ?? "")
        for guid in guids {
            xml +=
                "<item><title>Episode \(guid)</title><guid>\(guid)</guid>"
                + "<enclosure url=\"\(host.url("/\(guid).mp3").absoluteString)\" type=\"audio/mpeg\"/></item>"
            host.route("/\(guid).mp3", .ok(Data("audio \(guid)".utf8)))
        }
        return xml + "</channel></rss>"
    }

    private func netrc(_ text: String) throws -> String {
        let file = folder.url.appendingPathComponent("netrc")
        try Data(text.utf8).write(to: file)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
        return file.path
    }

    private func feeds() async throws -> [[String: Any]] {
        output.clear()
        _ = await run("feeds", "--json", "--to", root)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["feeds"] as? [[String: Any]], output.text)
    }

    private var otherAuthorizations: [String] { other.requests.compactMap { $0.headers["authorization"] } }

    func test_aNetrcDefaultLogin_staysHome_afterAnAnnouncedMoveToAnotherOrigin_andTheLineSaysSo() async throws {
        let new = other.url("/feed.xml").absoluteString
        server.route("/feed.xml", .ok(rss("Show", guids: ["e1"], on: server, newFeedURL: new), type: "text/xml"))
        other.route("/feed.xml", .ok(rss("Show", guids: ["e1", "e2"], on: other), type: "text/xml"))
        let file = try netrc("default login alice password PW-s3cret\n")

        let moved = await run("sync", server.url("/feed.xml").absoluteString, "--netrc-file", file, "--to", root)
        let movedLines = output.text
        let again = await run("sync", "--to", root)

        XCTAssertEqual(moved, .success, errors.text)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertTrue(movedLines.contains("moved to <\(new)>"), movedLines)
        XCTAssertTrue(
            movedLines.contains(
                "the .netrc default login stays with \(server.url("/").absoluteString.dropLast()), where the show "
                    + "was first subscribed: add a line 'machine 127.0.0.2 login ... password ...' to send one to "
                    + "127.0.0.2"),
            movedLines)
        XCTAssertTrue(other.requestedPaths.contains("/e2.mp3"))
        XCTAssertEqual(otherAuthorizations, [], "the move took the default login along")
        XCTAssertTrue(server.requests.contains { $0.headers["authorization"] == basic }, "home still had it")
    }

    func test_aNetrcDefaultLogin_staysHome_afterA301ToAnotherOrigin_butAMachineEntryForTheNewHostGoes() async throws {
        try await defaultLoginStaysHomeAfterA301(recordOf010: false)
    }

    func test_aRecordWrittenBy010_takesItsFeedsOriginAsTheFirst_andKeepsItThroughA301() async throws {
        try await defaultLoginStaysHomeAfterA301(recordOf010: true)
    }

    private func defaultLoginStaysHomeAfterA301(recordOf010: Bool) async throws {
        server.route("/feed.xml", .ok(rss("Show", guids: ["e1"], on: server), type: "text/xml"))
        other.route("/feed.xml", .ok(rss("Show", guids: ["e1", "e2"], on: other), type: "text/xml"))
        let file = try netrc("default login alice password PW-s3cret\n")
        let first = await run("sync", server.url("/feed.xml").absoluteString, "--netrc-file", file, "--to", root)
        XCTAssertEqual(first, .success, errors.text)
        if recordOf010 {
            // 0.1.0 wrote no `home`: the record as it would have left it.
            let records = URL(fileURLWithPath: root).appendingPathComponent(".podarchive/feeds")
            for name in try FileManager.default.contentsOfDirectory(atPath: records.path) {
                let url = records.appendingPathComponent(name)
                var record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
                XCTAssertNotNil(record.removeValue(forKey: "home"), "this version writes it")
                try JSONSerialization.data(withJSONObject: record).write(to: url)
            }
        }
        server.route("/feed.xml", .redirect(to: other.url("/feed.xml").absoluteString, status: 301))

        let moved = await run("sync", "--to", root)
        let again = await run("sync", "--to", root)

        XCTAssertEqual(moved, .success, errors.text)
        XCTAssertEqual(again, .success, errors.text)
        let shows = try await feeds()
        XCTAssertEqual(shows.map { $0["feed"] as? String }, [other.url("/feed.xml").absoluteString])
        XCTAssertEqual(otherAuthorizations, [], "the move took the default login along")

        try Data("default login alice password PW-s3cret\nmachine 127.0.0.2 login alice password PW-s3cret\n".utf8)
            .write(to: URL(fileURLWithPath: file))
        let withMachine = await run("sync", "--to", root)
        XCTAssertEqual(withMachine, .success, errors.text)
        XCTAssertEqual(other.requests.last { $0.path == "/feed.xml" }?.headers["authorization"], basic)
    }

    /// A private show (a bearer token) on 127.0.0.1, synced; a look-alike on 127.0.0.2 copying its title and
    /// `podcast:guid`, with no episode in common.
    private func privateShowAndLookAlike(announcing: Bool) async throws {
        let lookAlike = other.url("/feed.xml").absoluteString
        let xml = rss("Members", guids: ["m1"], on: server, newFeedURL: announcing ? lookAlike : nil)
        server.route(
            "/feed.xml",
            handler: { request, _ in
                request.headers["authorization"] == "Bearer T0KEN" ? .ok(xml, type: "text/xml") : .status(401)
            })
        other.route("/feed.xml", .ok(rss("Members", guids: ["x9"], on: other), type: "text/xml"))
        let first = await run(
            "sync", server.url("/feed.xml").absoluteString, "--header", "Authorization: Bearer T0KEN", "--to", root)
        XCTAssertEqual(first, .success, errors.text)
    }

    func test_add_aLookAlikeOnAnotherOrigin_copyingAPrivateShowsGuidAndTitle_doesNotTakeItOver() async throws {
        try await privateShowAndLookAlike(announcing: false)

        output.clear()
        let added = await run("add", other.url("/feed.xml").absoluteString, "--to", root)
        let addedLines = output.text
        let synced = await run("sync", "--to", root)

        XCTAssertEqual(added, .success, errors.text)
        XCTAssertFalse(addedLines.contains("the same show as"), addedLines)
        XCTAssertEqual(synced, .success, errors.text)
        let shows = try await feeds()
        XCTAssertEqual(
            Set(shows.compactMap { $0["feed"] as? String }),
            [server.url("/feed.xml").absoluteString, other.url("/feed.xml").absoluteString])
        XCTAssertEqual(
            folder.files().filter { $0.hasPrefix("archive/Members/") && $0.hasSuffix(".mp3") },
            ["archive/Members/Episode m1.mp3"], "nothing of the look-alike in the private show's folder")
    }

    func test_newFeedURL_toALookAlikeOnAnotherOrigin_copyingAPrivateShowsGuid_isNotFollowed() async throws {
        try await privateShowAndLookAlike(announcing: true)

        let again = await run("sync", "--to", root)

        XCTAssertEqual(again, .success, errors.text)
        let shows = try await feeds()
        XCTAssertEqual(shows.map { $0["feed"] as? String }, [server.url("/feed.xml").absoluteString])
        XCTAssertFalse(other.requestedPaths.contains("/x9.mp3"), "the look-alike's episode was archived")
        XCTAssertEqual(folder.files().filter { $0.hasSuffix(".mp3") }, ["archive/Members/Episode m1.mp3"])
    }
}
