import Foundation
import TestSupport
import XCTest

// A private feed's taint, end to end on the loopback server: every value of its documents' URLs is redacted
// whatever its name, episodes told apart only by a script URL's query stay apart, an archive written before the
// taint syncs with nothing downloaded, and a companion holding the feed's token is left out of what is published.
@testable import ArchiverCore
@testable import podarchive

final class TaintTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private let token = "Fe3dT0k/en+9="
    private var encodedToken: String { token.addingPercentEncoding(withAllowedCharacters: .alphanumerics)! }
    private var feedURL: String { server.url("/feed.xml").absoluteString + "?auth=" + encodedToken }

    /// Three episodes without GUIDs: two told apart only by `get.php?id=N` (with an innocent-looking `k` value),
    /// one with an `authtoken`; show notes with a token in a URL and a bare `&sid=`.
    private func serveFeed(transcript: String? = nil) {
        let php = server.url("/get.php").absoluteString
        let transcriptTag = transcript.map { _ in
            "<podcast:transcript url=\"\(server.url("/t1.vtt"))?sig=Tr4nsS1g\" type=\"text/vtt\"/>"
        }
        let xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Private</title>
            <item><title>One</title><description>see \(server.url("/x"))?a=Inn0centA&amp;token=DescTok3n99 and &amp;sid=Inn0centS</description>
            <enclosure url="\(php)?id=1&amp;k=Inn0centK" type="audio/mpeg"/>\(transcriptTag ?? "")</item>
            <item><title>Two</title><enclosure url="\(php)?id=2&amp;k=Inn0centK" type="audio/mpeg"/></item>
            <item><title>Three</title><enclosure url="\(server.url("/e3.mp3"))?authtoken=AuthT0kenX" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route(
            "/get.php",
            handler: { request, _ in
                .ok(Data(repeating: request.path.contains("id=1") ? 1 : 2, count: 2000), type: "audio/mpeg")
            })
        server.route("/e3.mp3", .ok(Data(repeating: 3, count: 2000), type: "audio/mpeg"))
        if let transcript { server.route("/t1.vtt", .ok(transcript, type: "text/vtt")) }
    }

    private var innocentValues: [String] { ["Inn0centK", "Inn0centA", "Inn0centS", "id=1", "id=2"] }
    private var secrets: [String] { [token, encodedToken, "DescTok3n99", "AuthT0kenX"] }

    func test_privateFeed_everyValueOfItsURLsIsRedacted_andScriptURLEpisodesStayApart() async throws {
        serveFeed()

        let code = await run("sync", feedURL, "--to", root.path, "--metadata", "--site")

        XCTAssertEqual(code, .success, errors.text)
        let visible = try TemporaryFolder.visibleFiles(in: root)
        for name in ["One.mp3", "Two.mp3", "Three.mp3"] {
            XCTAssertTrue(visible.contains("Private/\(name)"), "\(name) in \(visible)")
        }
        XCTAssertEqual(
            FileManager.default.contents(atPath: root.appendingPathComponent("Private/Two.mp3").path),
            Data(repeating: 2, count: 2000), "episode 2 is its own file, not episode 1's")
        let hits = try SecretSearch.files(under: root, holding: secrets + innocentValues)
        XCTAssertEqual(hits, [], "a private feed's URL values stay out of the archive")
        let index = try String(
            contentsOf: root.appendingPathComponent("Private/.podarchive/index.json"), encoding: .utf8)
        XCTAssertTrue(index.contains("get.php?id=REDACTED&k=REDACTED"), index)
        XCTAssertTrue(index.contains("feed.xml?auth=REDACTED"), "the feed keeps naming the show: \(index)")
        for secret in secrets + ["Inn0centK"] { XCTAssertFalse((output.text + errors.text).contains(secret)) }

        // Known by their keyed hashes: the next run downloads nothing.
        output.clear()
        let before = server.requests.filter { $0.path.hasPrefix("/get.php") }.count
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(server.requests.filter { $0.path.hasPrefix("/get.php") }.count, before)
        XCTAssertTrue(output.text.contains("0 archived, 3 already archived"), output.text)
    }

    func test_listJSON_ofAPrivateFeed_showsNoValueOfItsURLs() async throws {
        serveFeed()

        let code = await run("list", feedURL, "--json")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.contains("get.php?id=REDACTED"), output.text)
        for value in secrets + innocentValues { XCTAssertFalse(output.text.contains(value), value) }
    }

    func test_aPublicFeed_keepsOrdinaryValues_andRedactsSecretNames() async throws {
        let xml = """
            <rss version="2.0"><channel><title>Public</title>
            <item><title>One</title><guid>1</guid><enclosure url="\(server.url("/get.php"))?author=Ann&amp;design=Blue&amp;id=3&amp;token1=T0kenOne" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/get.php", .ok(Data(repeating: 1, count: 2000), type: "audio/mpeg"))

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        let index = try String(
            contentsOf: root.appendingPathComponent("Public/.podarchive/index.json"), encoding: .utf8)
        XCTAssertTrue(index.contains("get.php?author=Ann&design=Blue&id=3&token1=REDACTED"), index)
    }

    private static func hex(_ data: Data) -> String {
        var hasher = SHA256()
        hasher.update(data)
        return hasher.hexDigest()
    }

    /// An archive of the private feed as the name rule alone kept it (every release before the taint): keys and
    /// URLs with the `id` and `k` values in clear.
    private func writeArchiveAsBefore() throws {
        let show = root.appendingPathComponent("Private")
        let state = show.appendingPathComponent(".podarchive")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        let php = server.url("/get.php").absoluteString
        var entries: [String] = []
        for (number, title) in [(1, "One"), (2, "Two")] {
            let data = Data(repeating: UInt8(number), count: 2000)
            try data.write(to: show.appendingPathComponent("\(title).mp3"))
            let url = "\(php)?id=\(number)&k=Inn0centK"
            entries.append(
                """
                {"key": "\(url)", "guid": null, "title": "\(title)", "url": "\(url)", "file": "\(title).mp3", \
                "size": 2000, "sha256": "\(Self.hex(data))", "published": null, "archived": "2026-01-01T00:00:00Z"}
                """)
        }
        let three = Data(repeating: 3, count: 2000)
        try three.write(to: show.appendingPathComponent("Three.mp3"))
        entries.append(
            """
            {"key": "hmac-sha256:0000000000000000000000000000000000000000000000000000000000000000", "guid": null, \
            "title": "Three", "url": "\(server.url("/e3.mp3"))?authtoken=REDACTED", "file": "Three.mp3", \
            "size": 2000, "sha256": "\(Self.hex(three))", "published": null, "archived": "2026-01-01T00:00:00Z"}
            """)
        let index = """
            {"version": 3, "feed": "\(server.url("/feed.xml"))?auth=REDACTED", "title": "Private",
            "episodes": [\(entries.joined(separator: ",\n"))], "failures": []}
            """
        try Data(index.utf8).write(to: state.appendingPathComponent("index.json"))
    }

    func test_anArchiveKeptByTheNameRule_isReKeyed_andSyncsWithNothingDownloaded() async throws {
        serveFeed()
        try writeArchiveAsBefore()

        let code = await run("sync", feedURL, "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.requests.filter { $0.path.hasPrefix("/get.php") }, [], "nothing downloaded again")
        let index = try String(
            contentsOf: root.appendingPathComponent("Private/.podarchive/index.json"), encoding: .utf8)
        for value in innocentValues { XCTAssertFalse(index.contains(value), "\(value) in \(index)") }
        XCTAssertEqual(
            try TemporaryFolder.visibleFiles(in: root).filter { $0.hasPrefix("Private/") }.sorted(),
            ["Private/One.mp3", "Private/Three.mp3", "Private/Two.mp3"])
    }

    func test_aCompanionHoldingTheFeedsToken_isLeftOutOfSiteOutAndExport_andSaidSo() async throws {
        serveFeed(transcript: "WEBVTT\n\n00:00.000 --> 00:01.000\nyour link: \(feedURL)\n")
        let out = folder.url.appendingPathComponent("published")

        let code = await run("sync", feedURL, "--to", root.path, "--metadata")
        XCTAssertEqual(code, .success, errors.text)
        let transcript = root.appendingPathComponent("Private/One.transcript.vtt")
        XCTAssertTrue(
            String(decoding: FileManager.default.contents(atPath: transcript.path) ?? Data(), as: UTF8.self)
                .contains(encodedToken), "the publisher's file is kept byte for byte")

        errors.clear()
        let site = await run("site", "--out", out.path, "--to", root.path)
        XCTAssertEqual(site, .success, errors.text)
        XCTAssertTrue(errors.text.contains("left out 1 file"), errors.text)
        XCTAssertTrue(errors.text.contains("Private/One.transcript.vtt"), errors.text)
        XCTAssertEqual(try SecretSearch.files(under: out, holding: secrets), [])
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: out.appendingPathComponent("Private/One.transcript.vtt").path))

        errors.clear()
        let warc = folder.url.appendingPathComponent("out.warc")
        let export = await run("export", "--warc", warc.path, "--to", root.path)
        XCTAssertEqual(export, .success, errors.text)
        XCTAssertTrue(errors.text.contains("Private/One.transcript.vtt"), errors.text)
        let written = String(decoding: FileManager.default.contents(atPath: warc.path) ?? Data(), as: UTF8.self)
        for secret in secrets { XCTAssertFalse(written.contains(secret), secret) }
        XCTAssertTrue(written.contains("One.mp3") || written.contains("get.php"), "the rest is exported")
    }
}
