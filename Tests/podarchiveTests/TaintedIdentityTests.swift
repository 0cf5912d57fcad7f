import Foundation
import TestSupport
import XCTest

// Issue 37, point 1, on episode identities and the name rule: a private show's episodes told apart only by a script
// URL's query (`/get.php?id=N&auth=T`, no GUID) are N episodes, archived once, and its index holds no `id=` value in
// clear (a keyed hash stands for each URL); a public feed keeps ordinary parameters (`author`, `design`, `id`) and
// redacts the compound secret names (`authtoken`, `token1`, ...). An index written before (each such episode keyed
// by the keyed hash of its redacted URL, its `id` in clear) is re-keyed on the next sync, which downloads nothing
// archived.
@testable import ArchiverCore
@testable import podarchive

final class TaintedIdentityTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var base: String { "http://127.0.0.1:\(server.port)" }
    private let ids = ["41101001", "41101002", "41101003"]

    func test_aPrivateFeedsScriptURLs_withoutGUIDs_areOneEpisodeEach_archivedOnce_withNoIdInClear() async throws {
        try await assertScriptEpisodesKeptApart(.token)
    }

    func test_aShowPrivateByItsHeader_withScriptURLs_keepsItsEpisodesApart_withNoIdInClear() async throws {
        try await assertScriptEpisodesKeptApart(.header)
    }

    func test_anIndexWrittenBefore_withATokenInTheScriptURLs_isReKeyed_andSyncedWithoutDownloadingAgain() async throws {
        try await assertEarlierIndexReKeyed(.token)
    }

    func test_anIndexWrittenBefore_ofAShowPrivateByItsHeader_isReKeyed_andSyncedWithoutDownloadingAgain() async throws {
        try await assertEarlierIndexReKeyed(.header)
    }

    func test_aPublicFeed_keepsOrdinaryParameters_andRedactsCompoundSecretNames() async throws {
        let secrets = [
            SoughtSecret("?authtoken=", "PubAuthTok9x"), SoughtSecret("?token1=", "PubTokOne8y"),
            SoughtSecret("?accesstoken=", "PubAccTok7z"), SoughtSecret("?APITOKEN=", "PubApiTok6w"),
            SoughtSecret("hdnts's hmac", "PubHmac5v0a1b2c3"),
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
        let hits = try SecretSpellingSearch.hits(under: root, name: "<root>", secrets: secrets)
        XCTAssertTrue(hits.isEmpty, SecretSpellingSearch.report(hits))
        XCTAssertEqual(
            SecretSpellingSearch.hits(in: output.text + errors.text, place: "output", secrets: secrets).count, 0)
    }

    // MARK: - Script URLs

    /// How the script feed proves who reads it: the feed's token, in its URL and its episodes' (`&auth=`), or a
    /// bearer header.
    private enum Access { case token, header }

    private func feedURL(_ access: Access) -> String {
        base + "/feed.xml" + (access == .token ? "?auth=" + TaintedFeed.feedToken.percentEncoded : "")
    }

    private func arguments(_ access: Access) -> [String] {
        access == .header ? ["--header", "Authorization: Bearer \(TaintedFeed.headerToken.value)"] : []
    }

    /// Episode `id`'s enclosure URL, as the feed holds it once unescaped.
    private func scriptURL(_ access: Access, id: String) -> String {
        base + "/get.php?id=\(id)" + (access == .token ? "&auth=" + TaintedFeed.feedToken.percentEncoded : "")
    }

    /// Which episodes the feed lists: the first three, or all four once the publisher added one.
    private let revision = Locked(0)

    /// Serves a private feed at `/feed.xml` (answering only a request that proves `access`, else 401) whose
    /// episodes share a title, have no GUID and differ only in `/get.php?id=N`: three, or four from `revision` 1
    /// on. Returns each id's audio.
    private func serveScriptFeed(_ access: Access) -> [Data] {
        let ids = ids + [laterID]
        let revisions = [3, 4].map { count in
            ids.prefix(count).reduce("<rss version=\"2.0\"><channel><title>Script Show</title>") { xml, id in
                let url = scriptURL(access, id: id).replacingOccurrences(of: "&", with: "&amp;")
                return xml + "<item><title>Bonus</title><enclosure url=\"\(url)\" type=\"audio/mpeg\"/></item>"
            } + "</channel></rss>"
        }
        let revision = revision
        server.route("/feed.xml") { request, _ in
            let allowed =
                access == .token
                ? (URLComponents(string: "http://host" + request.path)?.queryItems ?? []).contains {
                    $0.name == "auth" && $0.value == TaintedFeed.feedToken.value
                } : request.headers["authorization"] == "Bearer " + TaintedFeed.headerToken.value
            return allowed ? .ok(revisions[revision.current], type: "application/rss+xml") : .status(401, "no")
        }
        let bodies = ids.map { Data(repeating: UInt8($0.suffix(1))!, count: 900) }
        server.route("/get.php") { request, _ in
            let id = URLComponents(string: "http://host" + request.path)?.queryItems?.first { $0.name == "id" }?.value
            return ids.firstIndex(of: id ?? "").map { .ok(bodies[$0], type: "audio/mpeg") } ?? .status(404, "no")
        }
        return bodies
    }

    private let laterID = "41101004"
    private var downloads: [String] { server.requests.map(\.path).filter { $0.hasPrefix("/get.php") } }
    private var show: URL { root.appendingPathComponent("Script Show") }
    private var state: URL { show.appendingPathComponent(".podarchive") }

    private func sync(_ arguments: [String]) async throws -> ExitCode {
        let tool = self.tool()
        return try await withWatchdog(seconds: 60) { await tool.run(["sync"] + arguments) }
    }

    /// Syncs the script feed, then again once it has a fourth episode; checks that each was archived once, as a
    /// file of its own, and that nothing under the root holds an id.
    private func assertScriptEpisodesKeptApart(
        _ access: Access, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let bodies = serveScriptFeed(access)

        let first = try await sync([feedURL(access), "--to", root.path] + arguments(access))
        let requested = downloads
        revision.set(1)
        let second = try await sync(["--to", root.path])

        XCTAssertEqual(first, .success, errors.text, file: file, line: line)
        XCTAssertEqual(second, .success, errors.text, file: file, line: line)
        let visible = try TemporaryFolder.visibleFiles(in: show)
        let archived = visible.compactMap { FileManager.default.contents(atPath: show.appendingPathComponent($0).path) }
        XCTAssertEqual(
            Set(archived.filter(bodies.contains)).count, 4, "four episodes, four files: \(visible)", file: file,
            line: line)
        XCTAssertEqual(requested.count, 3, "each fetched once: \(requested)", file: file, line: line)
        XCTAssertEqual(
            downloads.dropFirst(requested.count).map { $0.contains("id=\(laterID)") }, [true],
            "the second sync downloads the new episode only: \(downloads)", file: file, line: line)
        try assertNoIdWritten(bodies: bodies, file: file, line: line)
    }

    /// Syncs the script feed, puts its index back as podarchive wrote it before issue 37 (an episode whose URL holds
    /// the token keyed by the keyed hash of that URL, its URL kept redacted by the name rule, `id` in clear; a
    /// show private by its header keyed by its URL in clear; no contentType, which 0.1.0 did not write), then syncs
    /// once the feed has a fourth episode: only that one is downloaded, and the index is re-keyed (no id in clear).
    private func assertEarlierIndexReKeyed(
        _ access: Access, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        let bodies = serveScriptFeed(access)
        let first = try await sync([feedURL(access), "--to", root.path] + arguments(access))
        XCTAssertEqual(first, .success, errors.text, file: file, line: line)
        let identity = try JSONDecoder().decode(
            ArchiveIdentity.self, from: Data(contentsOf: root.appendingPathComponent(".podarchive/archive.json")))
        var entries: [String] = []
        for (id, body) in zip(ids, bodies) {
            let file = try XCTUnwrap(
                try TemporaryFolder.visibleFiles(in: show).first {
                    FileManager.default.contents(atPath: show.appendingPathComponent($0).path) == body
                }, "the episode with id \(id) is archived", file: file, line: line)
            let url = scriptURL(access, id: id)
            let key = access == .token ? identity.keyedHash(url) : url
            let kept = access == .token ? "\(base)/get.php?id=\(id)&auth=REDACTED" : url
            let digest = try StreamingFileHasher().sha256(ofFileAtPath: show.appendingPathComponent(file).path).digest
            entries.append(
                #"{"key": "\#(key)", "guid": null, "title": "Bonus", "url": "\#(kept)", "file": "\#(file)", "#
                    + #""size": \#(body.count), "sha256": "\#(digest)", "published": null, "#
                    + #""archived": "1970-01-01T00:00:00Z"}"#)
        }
        let feed = access == .token ? base + "/feed.xml?auth=REDACTED" : feedURL(access)
        let index =
            #"{"version": \#(access == .token ? 3 : 2), "feed": "\#(feed)", "title": "Script Show", "episodes": ["#
            + entries.joined(separator: ",\n") + #"], "failures": []}"#
        try Data(index.utf8).write(to: state.appendingPathComponent("index.json"))
        try? FileManager.default.removeItem(at: state.appendingPathComponent(ArchiveLayout.journalFile))
        let before = downloads.count
        revision.set(1)

        let second = try await sync(["--to", root.path])

        XCTAssertEqual(second, .success, errors.text, file: file, line: line)
        XCTAssertEqual(
            downloads.dropFirst(before).map { $0.contains("id=\(laterID)") }, [true],
            "the new episode only: \(downloads)", file: file, line: line)
        let rewritten = try String(contentsOf: state.appendingPathComponent("index.json"), encoding: .utf8)
        XCTAssertEqual(
            rewritten.components(separatedBy: "\"file\":").count - 1, 4, "four entries: \(rewritten)", file: file,
            line: line)
        try assertNoIdWritten(bodies: bodies, file: file, line: line)
    }

    /// Fails naming each file under the root (but the audio) that holds an id or a secret of the feed's.
    private func assertNoIdWritten(bodies: [Data], file: StaticString = #filePath, line: UInt = #line) throws {
        let secrets =
            (ids + [laterID]).map { SoughtSecret("the ?id= \($0)", $0) } + [
                TaintedFeed.feedToken, TaintedFeed.headerToken,
            ]
        let hits = try SecretSpellingSearch.hits(
            under: root, name: "<root>", secrets: secrets, keepsContents: { _, data in bodies.contains(data) })
        XCTAssertTrue(hits.isEmpty, SecretSpellingSearch.report(hits), file: file, line: line)
    }
}
