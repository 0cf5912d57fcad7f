import Foundation
import TestSupport
import XCTest

// Paid and private feeds, end to end on loopback servers: a login in the URL, a .netrc login and a bearer header
// each reach the feed and its episodes; nothing reaches a second host (127.0.0.2), not even through a redirect;
// afterwards the secrets are found only in the configuration folder's 0600 credentials files, never under the
// archive root, and in no output.
@testable import ArchiverCore
@testable import podarchive

final class PrivateFeedTests: CommandLineTestCase {
    private var other: TestHTTPServer!
    private var root: URL { folder.url.appendingPathComponent("archive") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        other = try TestHTTPServer(address: "127.0.0.2")
    }

    override func tearDown() {
        other.stop()
        super.tearDown()
    }

    /// Serves a private feed on `server`: the feed, two episodes and a transcript answer only requests carrying
    /// `authorization` (else 401); a third episode lives on the other host, and a fourth redirects there.
    private func servePrivateFeed(authorization: String) {
        let guarded: @Sendable (TestResponse) -> (@Sendable (RecordedRequest, Int) -> TestResponse) = { response in
            { request, _ in request.headers["authorization"] == authorization ? response : .status(401, "no") }
        }
        let xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Members Only</title>
            <item><title>One</title><guid>1</guid><enclosure url="e1.mp3" type="audio/mpeg"/>
            <podcast:transcript url="e1.srt" type="application/srt"/></item>
            <item><title>Two</title><guid>2</guid><enclosure url="\(server.url("/e2.mp3"))?token=t0kenQ" type="audio/mpeg"/></item>
            <item><title>Three</title><guid>3</guid><enclosure url="\(other.url("/e3.mp3"))" type="audio/mpeg"/></item>
            <item><title>Four</title><guid>4</guid><enclosure url="\(server.url("/e4.mp3"))" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", handler: guarded(.ok(xml, type: "application/rss+xml")))
        server.route("/e1.mp3", handler: guarded(.ok(Data(repeating: 1, count: 2000))))
        server.route(
            "/e1.srt", handler: guarded(.ok("1\n00:00:01,000 --> 00:00:02,000\nHi\n", type: "application/srt")))
        server.route("/e2.mp3", handler: guarded(.ok(Data(repeating: 2, count: 2000))))
        server.route("/e4.mp3", handler: guarded(.redirect(to: other.url("/e4.mp3").absoluteString)))
        other.route("/e3.mp3", .ok(Data(repeating: 3, count: 2000)))
        other.route("/e4.mp3", .ok(Data(repeating: 4, count: 2000)))
    }

    private func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    private var feedURL: String { server.url("/feed.xml").absoluteString }

    func test_loginInTheURL_reachesTheFeedAndItsEpisodes_neverAnotherHost_andIsKeptInTheRecordOnly() async throws {
        servePrivateFeed(authorization: basic("alice", "s3cret"))
        let withLogin = feedURL.replacingOccurrences(of: "http://", with: "http://alice:s3cret@")

        let code = await run("sync", withLogin, "--to", root.path, "--metadata")

        XCTAssertEqual(code, .success, errors.text)
        let visible = try TemporaryFolder.visibleFiles(in: root)
        for name in ["One.mp3", "One.transcript.srt", "Two.mp3", "Three.mp3", "Four.mp3"] {
            XCTAssertTrue(visible.contains("Members Only/\(name)"), "\(name) in \(visible)")
        }
        XCTAssertFalse(other.requests.isEmpty)
        for request in other.requests {
            XCTAssertNil(request.headers["authorization"], "the other host got \(request)")
        }
        try assertSecrets(["s3cret"], onlyIn: root, output: output.text + errors.text)
        XCTAssertFalse(output.text.contains("t0kenQ"), "a token parameter is shown REDACTED")

        // The saved login serves the nightly run that names no feed.
        output.clear()
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        try assertSecrets(["s3cret"], onlyIn: root, output: output.text + errors.text)
    }

    func test_verify_repairsAndAsksUpstream_withTheShowsSavedLogin() async throws {
        servePrivateFeed(authorization: basic("alice", "s3cret"))
        let withLogin = feedURL.replacingOccurrences(of: "http://", with: "http://alice:s3cret@")
        let synced = await run("sync", withLogin, "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)
        try FileManager.default.removeItem(at: root.appendingPathComponent("Members Only/One.mp3"))

        let repaired = await run("verify", root.path, "--repair")

        XCTAssertEqual(repaired, .success, errors.text + output.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("Members Only/One.mp3").path))
        output.clear()
        let upstream = await run("verify", root.path, "--upstream", "--json")
        XCTAssertEqual(upstream, .success, errors.text)
        XCTAssertTrue(output.text.contains("\"online\": 4"), output.text)
        for request in other.requests { XCTAssertNil(request.headers["authorization"], "\(request)") }
    }

    func test_netrcLogin_fromHomeOrAFileNamed_andABearerHeader_areUsedAndSaved() async throws {
        servePrivateFeed(authorization: basic("bob", "n3trc-pw"))
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("machine 127.0.0.1 login bob password n3trc-pw\n".utf8).write(
            to: home.appendingPathComponent(".netrc"))

        let fromHome = await run("list", feedURL, variables: ["HOME": home.path])
        XCTAssertEqual(fromHome, .success, errors.text)
        XCTAssertTrue(output.text.contains("One"), output.text)

        let named = folder.url.appendingPathComponent("logins")
        try FileManager.default.moveItem(at: home.appendingPathComponent(".netrc"), to: named)
        let code = await run("sync", feedURL, "--to", root.path, "--netrc-file", named.path)
        XCTAssertEqual(code, .success, errors.text)
        try assertSecrets(["n3trc-pw"], onlyIn: nil, output: output.text + errors.text)
        // The file's path is saved, not its passwords: a later run reads it again.
        let later = await run("sync", "--to", root.path)
        XCTAssertEqual(later, .success, errors.text)

        let bearer = "Bearer t0k-\(UUID().uuidString)"
        servePrivateFeed(authorization: bearer)
        let viaHeader = await run("sync", feedURL, "--to", root.path, "--header", "Authorization: \(bearer)")
        XCTAssertEqual(viaHeader, .success, errors.text)
        let saved = await run("sync", "--to", root.path)
        XCTAssertEqual(saved, .success, errors.text)
        try assertSecrets([String(bearer.dropFirst(7))], onlyIn: root, output: output.text + errors.text)
    }

    func test_401And403_sayWhatToDo() async throws {
        server.route("/feed.xml", .status(401, "members only"))
        let code = await run("sync", feedURL, "--to", root.path)
        XCTAssertEqual(code, .feedFailed)
        XCTAssertTrue(
            errors.text.contains(
                "answered HTTP 401: the feed needs credentials (user:password@ in the URL, ~/.netrc, or --header)"),
            errors.text)

        errors.clear()
        serveFeed(episodes: [("Blocked", "blocked.mp3")])
        server.route("/blocked.mp3", .status(403, "no bots"))
        let episode = await run("sync", feedURL, "--to", root.path)
        XCTAssertEqual(episode, .episodesFailed)
        XCTAssertTrue(errors.text.contains("server answered HTTP 403: access denied"), errors.text)
        XCTAssertTrue(errors.text.contains("(--user-agent)"), errors.text)

        // An episode refusing the credentials sent says so, rather than that it needs some.
        errors.clear()
        serveFeed(episodes: [("Members", "members.mp3")])
        server.route("/members.mp3", .status(401, "wrong token"))
        let refused = await run("sync", feedURL, "--to", root.path, "--header", "Authorization: Bearer OLD")
        XCTAssertEqual(refused, .episodesFailed)
        XCTAssertTrue(
            errors.text.contains("server answered HTTP 401: it refused the credentials sent (a wrong login or token?"),
            errors.text)
        XCTAssertFalse(errors.text.contains("Bearer OLD"), errors.text)
    }

    func test_userAgent_isSentToEveryHost_andSaved() async throws {
        serveFeed(episodes: [("Here", "here.mp3"), ("There", other.url("/there.mp3").absoluteString)])
        server.route("/here.mp3", .ok(Data(repeating: 1, count: 100)))
        other.route("/there.mp3", .ok(Data(repeating: 2, count: 100)))
        let code = await run("sync", feedURL, "--to", root.path, "--user-agent", "Mozilla/5.0 (podarchive test)")
        XCTAssertEqual(code, .success, errors.text)
        let agents = Set((server.requests + other.requests).map { $0.headers["user-agent"] ?? "" })
        XCTAssertEqual(agents, ["Mozilla/5.0 (podarchive test)"])
        output.clear()
        _ = await run("feeds", "--to", root.path, "--json")
        XCTAssertTrue(output.text.contains("\"userAgent\": \"Mozilla/5.0 (podarchive test)\""), output.text)
        XCTAssertTrue(output.text.contains("\"credentials\": false"), output.text)
    }

    func test_oneShow_opensAtMost4ConnectionsToAHost_whateverJobsSays() async throws {
        serveFeed(episodes: (0..<8).map { ("E\($0)", "e\($0).mp3") })
        for index in 0..<8 {
            var response = TestResponse.ok(Data(repeating: UInt8(index), count: 500))
            // The first four answer only once four are running at once: the cap is reached, not merely kept.
            if index < 4 { response.holdUntilActive = 4 }
            server.route("/e\(index).mp3", response)
        }
        let code = await run("sync", feedURL, "--to", root.path, "--jobs", "8")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.maximumConcurrentRequests, 4)
    }

    func test_badAccessOptions_areUsageErrors_thatNameTheValue_andTouchNothing() async throws {
        serveFeed(episodes: [("One", "one.mp3")])
        let cases: [([String], String)] = [
            (["sync", "--to", root.path, "--header", "X-Token: t"], "needs the feeds it is for named"),
            (["sync", feedURL, "--to", root.path, "--header", "no colon here"], "got 'no colon here'"),
            (["sync", feedURL, "--to", root.path, "--limit-rate", "fast"], "got 'fast'"),
            (["sync", feedURL, "--to", root.path, "--limit-rate", "10"], "at least 1K"),
            (["sync", feedURL, "--to", root.path, "--user-agent", "two\nlines"], "one line of text"),
            (["sync", feedURL, "--to", root.path, "--netrc-file", "missing.netrc"], "missing.netrc cannot be read"),
        ]
        for (arguments, message) in cases {
            errors.clear()
            let tool = CommandLineTool(
                environment: ProcessEnvironment(variables: [:], currentDirectory: folder.url.path), output: output,
                errors: errors, makeArchiver: { Archiver.live() })
            let code = await tool.run(arguments)
            XCTAssertEqual(code, .usage, "\(arguments)")
            XCTAssertTrue(errors.text.contains(message), "\(arguments): \(errors.text)")
            XCTAssertEqual(try TemporaryFolder.visibleFiles(in: root), [], "\(arguments)")
        }
    }

    func test_limitRate_capsTheRun() async throws {
        // 1 MB at 512 KB a second takes 2 s; the bound allows for any slowness and asserts only the cap.
        serveFeed(episodes: [("Big", "big.mp3")])
        server.route("/big.mp3", .ok(Data(repeating: 7, count: 1 << 20)))
        let started = Date()
        let code = await run("sync", feedURL, "--to", root.path, "--limit-rate", "512K")
        let seconds = Date().timeIntervalSince(started)
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertGreaterThanOrEqual(seconds, 1.5, "1 MB at 512K/s must take about 2 s")
    }

    func test_anArchiveThatKeptTheLoginInItsURLs_syncsAsBeforeAndSaysSo_thenCredentialsMove_takesEverySecretOut()
        async throws
    {
        servePrivateFeed(authorization: basic("alice", "s3cret"))
        let withLogin = feedURL.replacingOccurrences(of: "http://", with: "http://alice:s3cret@")
        // What podarchive wrote before credentials had a place of their own: the URL with its login everywhere.
        let show = root.appendingPathComponent("Members Only")
        let records = root.appendingPathComponent(".podarchive/feeds")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: show.appendingPathComponent(".podarchive"), withIntermediateDirectories: true)
        try Data(#"{"feed": "\#(withLogin)", "folder": "Members Only", "added": "2026-01-01T00:00:00Z"}"#.utf8)
            .write(to: records.appendingPathComponent("\(StableName.of(withLogin)).json"))
        let episode = show.appendingPathComponent("One.mp3")
        try Data(repeating: 1, count: 2000).write(to: episode)
        let digest = try StreamingFileHasher().sha256(ofFileAtPath: episode.path).digest
        let oldURL = withLogin.replacingOccurrences(of: "feed.xml", with: "e1.mp3")
        try Data(
            #"""
            {"version": 2, "feed": "\#(withLogin)", "title": "Members Only", "episodes": [{"key": "1", "guid": "1",
            "title": "One", "url": "\#(oldURL)", "file": "One.mp3", "size": 2000, "sha256": "\#(digest)",
            "archived": "2026-01-01T00:00:00Z"}], "failures": []}
            """#.utf8
        ).write(to: show.appendingPathComponent(".podarchive/index.json"))
        try FileManager.default.setAttributes(
            [FileAttributeKey("NSFileExtendedAttributes"): ["user.xdg.origin.url": Data(oldURL.utf8)]],
            ofItemAtPath: episode.path)
        try Data(#"{"url": "\#(oldURL)", "feed": {"title": "Members Only", "url": "\#(withLogin)"}}"#.utf8)
            .write(to: show.appendingPathComponent("One.info.json"))
        let history = show.appendingPathComponent(".podarchive/history")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        let oldDocument = Data(#"<rss><channel><item><enclosure url="\#(oldURL)"/></item></channel></rss>"#.utf8)
        try Gzip.compress(oldDocument).write(to: history.appendingPathComponent("2026-01-01T00-00-00Z.xml.gz"))
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: records.path)

        let code = await run("sync", "--to", root.path)

        // A sync uses the secrets where they are, and says once how to move them; it never moves them itself.
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(server.requests.filter { $0.path == "/e1.mp3" }.count, 0, "One was archived already")
        XCTAssertEqual(
            errors.lines.filter { $0.contains("podarchive credentials --move") }.count, 1, errors.text)
        XCTAssertFalse(try SecretSearch.files(under: records, holding: ["s3cret"]).isEmpty, "the record still has it")
        errors.clear()
        output.clear()

        let moved = await run("credentials", "--move", "--to", root.path)
        XCTAssertEqual(moved, .success, errors.text)

        try assertSecrets(["s3cret"], onlyIn: root, output: output.text + errors.text)
        XCTAssertTrue(output.text.contains("moved 1 show's credentials"), output.text)
        output.clear()
        let again = await run("sync", "--to", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(errors.text, "", "moved: nothing more to say")
        XCTAssertEqual(server.requests.filter { $0.path == "/e1.mp3" }.count, 0, "One was archived already")
        let sidecar = try String(contentsOf: show.appendingPathComponent("One.info.json"), encoding: .utf8)
        XCTAssertTrue(
            sidecar.contains(feedURL.replacingOccurrences(of: "/", with: "\\/")) || sidecar.contains(feedURL), sidecar)
        output.clear()
        _ = await run("feeds", "--to", root.path, "--json")
        XCTAssertTrue(output.text.contains("\"credentials\": true"), output.text)
        XCTAssertTrue(output.text.contains("\"episodes\": 4"), output.text)
    }

    // MARK: - Looking for secrets

    /// Every file under `root` (contents, extended attributes) and the output are searched for each secret: none
    /// may hold it. With `kept`, the configuration folder must: in its `credentials/` files only, each 0600, in a
    /// 0700 folder.
    private func assertSecrets(
        _ secrets: [String], onlyIn root: URL?, kept: Bool = true, output: String, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        for secret in secrets {
            XCTAssertFalse(output.contains(secret), "output shows \(secret): \(output)", file: file, line: line)
        }
        guard let root else { return }
        let inArchive = try SecretSearch.files(under: root, holding: secrets)
        XCTAssertEqual(inArchive, [], "files in the archive hold a secret", file: file, line: line)
        guard kept else { return }
        let credentials = configurationFolder.appendingPathComponent("credentials")
        let holders = try SecretSearch.files(under: configurationFolder, holding: secrets)
        XCTAssertFalse(holders.isEmpty, "the configuration folder keeps the secret", file: file, line: line)
        for holder in holders {
            XCTAssertTrue(holder.hasPrefix(credentials.path + "/"), "\(holder) holds a secret", file: file, line: line)
            XCTAssertEqual(try permissions(holder), 0o600, holder, file: file, line: line)
        }
        XCTAssertEqual(try permissions(credentials.path), 0o700, credentials.path, file: file, line: line)
    }

    private func permissions(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

extension Subscription {
    /// The folder of subscription records in `root`, as a path.
    static func folderPath(in root: URL) -> String {
        root.appendingPathComponent(".podarchive/feeds").path
    }
}

extension TemporaryFolder {
    /// The files under `folder` outside podarchive's state folders, relative and sorted; none when it is missing.
    static func visibleFiles(in folder: URL) throws -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: folder.path) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: folder.appendingPathComponent(relative).path, isDirectory: &isFolder)
            if !isFolder.boolValue, !relative.contains(".podarchive") { files.append(relative) }
        }
        return files.sorted()
    }
}
