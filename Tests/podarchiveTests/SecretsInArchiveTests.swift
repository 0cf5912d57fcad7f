import Foundation
import TestSupport
import XCTest

// A private feed whose every URL carries a token, synced with metadata and the site, then the archive walked as
// whoever it is served or copied to would: no secret in any file under the root, in any output, in the OPML
// export; the secrets kept only in the configuration folder; the archive copied elsewhere fails clearly.
@testable import ArchiverCore
@testable import podarchive

final class SecretsInArchiveTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private let secrets = [
        "FEEDTOK", "EPTOK", "JSESS", "FRAGTOK", "AMZSIG", "GUIDTOK", "HDRVALUE", "RELTOK", "AUTHTOK",
    ]

    /// A feed at `/feed.xml?token=FEEDTOK` answering only the header `X-Key: HDRVALUE`, whose episodes carry
    /// tokens in their query, path, fragment and GUID, and whose author names a URL with one (the index keeps it).
    private func serveTokenFeed() {
        let guarded: @Sendable (TestResponse) -> (@Sendable (RecordedRequest, Int) -> TestResponse) = { response in
            { request, _ in request.headers["x-key"] == "HDRVALUE" ? response : .status(401, "no") }
        }
        let base = server.url("").absoluteString
        let xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"
             xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Tokens</title>
            <itunes:author>Tok Maker \(base)/about?who=AUTHTOK</itunes:author>
            <link>\(base)/show?token=FEEDTOK</link>
            <item><title>One</title><guid>\(base)/e1?token=GUIDTOK</guid>
            <link>\(base)/e1.html?session=EPTOK</link><comments>e1/comments?a=b&amp;token=RELTOK</comments>
            <enclosure url="\(base)/e1.mp3?a=1&amp;token=EPTOK" type="audio/mpeg"/></item>
            <item><title>Two</title><guid>2</guid><enclosure url="\(base)/e2.mp3;jsessionid=JSESS" type="audio/mpeg"/>
            </item>
            <item><title>Three</title><guid>3</guid>
            <enclosure url="\(base)/e3.mp3?X-Amz-Signature=AMZSIG#access_token=FRAGTOK" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", handler: guarded(.ok(xml, type: "application/rss+xml")))
        server.route("/e1.mp3", handler: guarded(.ok(Data(repeating: 1, count: 1000))))
        server.route("/e2.mp3;jsessionid=JSESS", handler: guarded(.ok(Data(repeating: 2, count: 1000))))
        server.route("/e3.mp3", handler: guarded(.ok(Data(repeating: 3, count: 1000))))
    }

    private var feedURL: String { server.url("/feed.xml").absoluteString + "?token=FEEDTOK" }

    func test_aSyncOfATokenFeed_leavesNoSecretUnderTheRoot_andKeepsThemInTheConfigurationFolderOnly() async throws {
        serveTokenFeed()

        let code = await run("sync", feedURL, "--to", root.path, "--header", "X-Key: HDRVALUE", "--metadata", "--site")

        XCTAssertEqual(code, .success, errors.text)
        let visible = try TemporaryFolder.visibleFiles(in: root)
        for name in ["One.mp3", "Two.mp3", "Three.mp3", "One.info.json", "index.html", "feed.xml"] {
            XCTAssertTrue(visible.contains("Tokens/\(name)"), "\(name) in \(visible)")
        }
        XCTAssertEqual(
            try SecretSearch.files(under: root, holding: secrets), [],
            "files under the root hold a secret: "
                + ((try? String(
                    contentsOf: root.appendingPathComponent("Tokens/.podarchive/index.json"), encoding: .utf8)) ?? ""))
        for secret in secrets {
            XCTAssertFalse((output.text + errors.text).contains(secret), "output shows \(secret)")
        }
        let kept = try SecretSearch.files(under: configurationFolder, holding: ["FEEDTOK", "HDRVALUE"])
        XCTAssertEqual(kept.count, 1, "one credentials file keeps the feed's token and header: \(kept)")

        // The nightly run finds everything archived: the keyed hashes stand for the secret GUIDs and URLs.
        output.clear()
        let requestsBefore = server.requests.count
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(
            server.requests.dropFirst(requestsBefore).filter { $0.path.contains(".mp3") }.count, 0,
            "nothing downloaded again")
        XCTAssertEqual(try SecretSearch.files(under: root, holding: secrets), [])
    }

    func test_feedsOPML_isRedacted_unlessSecretsAreAskedFor_andARedactedExportMatchesItsShow() async throws {
        serveTokenFeed()
        _ = await run("sync", feedURL, "--to", root.path, "--header", "X-Key: HDRVALUE")
        output.clear()
        errors.clear()

        let code1 = await run("feeds", "--opml", "--to", root.path)
        XCTAssertEqual(code1, .success)
        let redacted = output.text
        XCTAssertFalse(redacted.contains("FEEDTOK"), redacted)
        XCTAssertTrue(redacted.contains("token=REDACTED"), redacted)
        output.clear()

        let code2 = await run("feeds", "--opml", "--include-secrets", "--to", root.path)
        XCTAssertEqual(code2, .success)
        XCTAssertTrue(output.text.contains("token=FEEDTOK"), output.text + errors.text)
        XCTAssertTrue(errors.text.contains("keep it private"), errors.text)

        // Read back, the redacted export is the show already followed: synced with its real URL.
        let opml = folder.url.appendingPathComponent("export.opml")
        try Data(redacted.utf8).write(to: opml)
        errors.clear()
        let code3 = await run("sync", "--opml", opml.path, "--to", root.path)
        XCTAssertEqual(code3, .success, errors.text)
        XCTAssertFalse(server.requests.contains { $0.path.contains("REDACTED") }, "\(server.requests)")

        // Into an archive that does not follow it, it is named and skipped: never fetched as REDACTED.
        let other = folder.url.appendingPathComponent("other")
        let requests = server.requests.count
        let code4 = await run("sync", "--opml", opml.path, "--to", other.path)
        XCTAssertEqual(code4, .feedFailed)
        XCTAssertEqual(server.requests.count, requests, "nothing fetched")
        XCTAssertTrue(errors.text.contains("token=REDACTED"), errors.text)
        XCTAssertTrue(errors.text.contains("give the feed's real URL"), errors.text)
    }

    func test_anArchiveCopiedWithoutItsConfigurationFolder_failsThatShowClearly_andRemoveDeletesItsSecrets()
        async throws
    {
        serveTokenFeed()
        _ = await run("sync", feedURL, "--to", root.path, "--header", "X-Key: HDRVALUE")
        errors.clear()
        output.clear()

        let elsewhere = folder.url.appendingPathComponent("other-config").path
        let code = await run("sync", "--to", root.path, variables: ["PODARCHIVE_CONFIG_DIR": elsewhere])

        XCTAssertEqual(code, .feedFailed, errors.text)
        XCTAssertTrue(errors.text.contains("Tokens"), "names the show: \(errors.text)")
        XCTAssertTrue(errors.text.contains(elsewhere), "names where it looked: \(errors.text)")
        XCTAssertEqual(errors.lines.count, 1, errors.text)
        let index = try String(
            contentsOf: root.appendingPathComponent("Tokens/.podarchive/index.json"), encoding: .utf8)
        XCTAssertTrue(index.contains("One.mp3"), "nothing archived is forgotten")

        // Where they are kept, as the owner asks.
        output.clear()
        let code5 = await run("credentials", "--to", root.path)
        XCTAssertEqual(code5, .success, errors.text)
        XCTAssertTrue(output.text.contains(configurationFolder.appendingPathComponent("credentials").path), output.text)

        let code6 = await run("remove", "Tokens", "--to", root.path)
        XCTAssertEqual(code6, .success, errors.text)
        XCTAssertEqual(
            try SecretSearch.files(under: configurationFolder, holding: secrets), [], "removed with the show")
    }

    func test_aURLCarryingTheRedactionMarker_isNeverFetchedOrSubscribed() async throws {
        serveTokenFeed()
        let marked = server.url("/feed.xml").absoluteString + "?token=REDACTED"

        let added = await run("add", marked, "--to", root.path)
        let synced = await run("sync", marked, "--to", root.path)

        XCTAssertEqual(added, .feedFailed, errors.text)
        XCTAssertEqual(synced, .feedFailed, errors.text)
        XCTAssertEqual(server.requests.count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent(".podarchive/feeds").path))
    }
}
