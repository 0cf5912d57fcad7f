// Issue 37, point 1, on episode identities and the name rule: a private show's episodes told apart only by a script
// URL's query (`/get.php?id=N&auth=T`, no GUID) are N episodes, archived once, and its index holds no `id=` value in
// clear (a keyed hash stands for each URL); a public feed keeps ordinary parameters (`author`, `design`, `id`) and
// redacts the compound secret names (`authtoken`, `token1`, ...).
import ArchiverCore
import Foundation
import TestSupport
import XCTest

@testable import podarchive

final class TaintedIdentityTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var base: String { "http://127.0.0.1:\(server.port)" }
    private let ids = ["41101001", "41101002", "41101003"]

    func test_aPrivateFeedsScriptURLs_withoutGUIDs_areOneEpisodeEach_archivedOnce_withNoIdInClear() async throws {
        let token = TaintedFeed.feedToken
        let feed = base + "/feed.xml?auth=" + token.percentEncoded
        try await assertScriptEpisodesKeptApart(feed: feed, arguments: [], after: "&amp;auth=" + token.percentEncoded) {
            request in
            (URLComponents(string: "http://host" + request.path)?.queryItems ?? []).contains {
                $0.name == "auth" && $0.value == token.value
            }
        }
    }

    func test_aShowPrivateByItsHeader_withScriptURLs_keepsItsEpisodesApart_withNoIdInClear() async throws {
        let bearer = "Bearer " + TaintedFeed.headerToken.value
        try await assertScriptEpisodesKeptApart(
            feed: base + "/feed.xml", arguments: ["--header", "Authorization: \(bearer)"], after: ""
        ) { request in request.headers["authorization"] == bearer }
    }

    func test_aPublicFeed_keepsOrdinaryParameters_andRedactsCompoundSecretNames() async throws {
        let secrets = [
            SecretValue("?authtoken=", "PubAuthTok9x"), SecretValue("?token1=", "PubTokOne8y"),
            SecretValue("?accesstoken=", "PubAccTok7z"), SecretValue("?APITOKEN=", "PubApiTok6w"),
            SecretValue("hdnts's hmac", "PubHmac5v0a1b2c3"),
        ]
        let queries = [
            "author=x&design=y&id=3", "authtoken=PubAuthTok9x", "token1=PubTokOne8y", "accesstoken=PubAccTok7z",
            "APITOKEN=PubApiTok6w", "hdnts=exp=1767225600~acl=/*~hmac=PubHmac5v0a1b2c3",
        ]
        var xml = "<rss version=\"2.0\"><channel><title>Open Show</title>"
        for (number, query) in queries.enumerated() {
            let escaped = query.replacingOccurrences(of: "&", with: "&amp;")
            xml +=
                "<item><title>E\(number)</title><guid>g\(number)</guid>"
                + "<enclosure url=\"\(base)/e\(number).mp3?\(escaped)\" type=\"audio/mpeg\"/></item>"
            server.route("/e\(number).mp3", .ok(Data(repeating: UInt8(number), count: 700)))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
        let tool = self.tool()
        let feed = server.url("/feed.xml").absoluteString

        let code = try await withWatchdog(seconds: 60) { [root] in
            await tool.run(["sync", feed, "--to", root.path, "--metadata"])
        }

        XCTAssertEqual(code, .success, errors.text)
        let index = try String(
            contentsOf: root.appendingPathComponent("Open Show/.podarchive/index.json"), encoding: .utf8)
        XCTAssertTrue(index.contains("/e0.mp3?author=x&design=y&id=3"), "no over-redaction: \(index)")
        for name in ["authtoken", "token1", "accesstoken", "APITOKEN", "hdnts"] {
            XCTAssertTrue(index.contains("\(name)=REDACTED"), "\(name) redacted: \(index)")
        }
        let hits = try TaintSearch.hits(under: root, name: "<root>", secrets: secrets)
        XCTAssertTrue(hits.isEmpty, TaintSearch.report(hits))
        XCTAssertEqual(TaintSearch.hits(in: output.text + errors.text, place: "output", secrets: secrets).count, 0)
    }

    // MARK: - Script URLs

    /// Serves a private feed at `feed` (answering only a request `allowed` accepts) whose three episodes share a
    /// title, have no GUID and differ only in `/get.php?id=N<after>`; syncs it twice, then checks that each was
    /// archived once, as a file of its own, and that nothing under the root holds an id.
    private func assertScriptEpisodesKeptApart(
        feed: String, arguments: [String], after: String,
        allowed: @escaping @Sendable (RecordedRequest) -> Bool, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        var xml = "<rss version=\"2.0\"><channel><title>Script Show</title>"
        for id in ids {
            xml +=
                "<item><title>Bonus</title><enclosure url=\"\(base)/get.php?id=\(id)\(after)\" type=\"audio/mpeg\"/></item>"
        }
        let document = xml + "</channel></rss>"
        server.route("/feed.xml") { request, _ in
            allowed(request) ? .ok(document, type: "application/rss+xml") : .status(401, "members only")
        }
        let bodies = ids.map { Data(repeating: UInt8($0.suffix(1))!, count: 900) }
        let ids = ids
        server.route("/get.php") { request, _ in
            let id = URLComponents(string: "http://host" + request.path)?.queryItems?.first { $0.name == "id" }?.value
            return ids.firstIndex(of: id ?? "").map { .ok(bodies[$0], type: "audio/mpeg") } ?? .status(404, "no")
        }
        let tool = self.tool()

        let first = try await withWatchdog(seconds: 60) { [root] in
            await tool.run(["sync", feed, "--to", root.path] + arguments)
        }
        let requested = server.requests.filter { $0.path.hasPrefix("/get.php") }.count
        let second = try await withWatchdog(seconds: 60) { [root] in await tool.run(["sync", "--to", root.path]) }

        XCTAssertEqual(first, .success, errors.text, file: file, line: line)
        XCTAssertEqual(second, .success, errors.text, file: file, line: line)
        let show = root.appendingPathComponent("Script Show")
        let visible = try TemporaryFolder.visibleFiles(in: show)
        let archived = visible.compactMap { FileManager.default.contents(atPath: show.appendingPathComponent($0).path) }
        XCTAssertEqual(
            Set(archived.filter(bodies.contains)).count, 3, "three episodes, three files: \(visible)", file: file,
            line: line)
        XCTAssertEqual(requested, 3, "each fetched once", file: file, line: line)
        XCTAssertEqual(
            server.requests.filter { $0.path.hasPrefix("/get.php") }.count, requested,
            "the second sync downloads nothing", file: file, line: line)
        let secrets = ids.map { SecretValue("the ?id= \($0)", $0) } + [TaintedFeed.feedToken, TaintedFeed.headerToken]
        let hits = try TaintSearch.hits(
            under: root, name: "<root>", secrets: secrets, keepsContents: { _, data in bodies.contains(data) })
        XCTAssertTrue(hits.isEmpty, TaintSearch.report(hits), file: file, line: line)
    }
}
