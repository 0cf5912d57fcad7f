import Foundation
import TestSupport
import XCTest

// `sync --notify` and `--exec-after-run` through the built binary, against loopback receivers the test starts: one
// that records what it is sent, one that never answers, one that answers 500. One notification a run (every show),
// the URL a secret in every output, the exit status the run's whatever the notification came to.
final class NotifyEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!
    private var receiver: TestHTTPServer!

    /// The receiver's path: the token an ntfy topic or a webhook's path is.
    private let topic = "/alerts-t0p1cS3cret"

    override func setUpWithError() throws {
        folder = try TemporaryFolder("notify-e2e")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        receiver = try TestHTTPServer(address: "127.0.0.2")
        server.route(
            "/one.xml",
            .ok(Self.feed("Night Show", [("Pilot", "/pilot.mp3"), ("Lost", "/lost.mp3")]), type: "application/rss+xml"))
        server.route("/two.xml", .ok(Self.feed("Day Show", [("Morning", "/morning.mp3")]), type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data("ID3 pilot".utf8)))
        server.route("/morning.mp3", .ok(Data("ID3 morning".utf8)))
        server.route("/lost.mp3", .status(404))
        receiver.route(topic, .ok("ok", type: "text/plain"))
    }

    override func tearDown() {
        server?.stop()
        receiver?.stop()
        folder.remove()
    }

    private static func feed(_ title: String, _ items: [(String, String)]) -> String {
        "<rss version=\"2.0\"><channel><title>\(title)</title>"
            + items.map { name, path in
                "<item><title>\(name)</title><guid>\(name)</guid><enclosure url=\"\(path)?token=feedS3cret\" "
                    + "type=\"audio/mpeg\"/></item>"
            }.joined() + "</channel></rss>"
    }

    private var configuration: URL { folder.url.appendingPathComponent("settings") }
    private var archive: URL { folder.url.appendingPathComponent("Archive") }
    private var notifyURL: String { receiver.url(topic).absoluteString }

    private func podarchive(_ arguments: String...) async throws -> ProcessResult {
        try await podarchive(arguments)
    }

    /// Both shows subscribed, nothing downloaded: the next `sync` is a run of every subscription.
    private func subscribeBoth() async throws {
        let add = try await podarchive(
            "add", server.url("/one.xml").absoluteString + "?token=feedS3cret", server.url("/two.xml").absoluteString,
            "--to", archive.path)
        XCTAssertEqual(add.status, 0, add.stderr)
    }

    private var posts: [RecordedRequest] { receiver.requests.filter { $0.path == topic } }

    private func assertNoSecret(_ result: ProcessResult, file: StaticString = #filePath, line: UInt = #line) {
        for text in [result.stdout, result.stderr] {
            XCTAssertFalse(text.contains("t0p1cS3cret"), text, file: file, line: line)
            XCTAssertFalse(text.contains("feedS3cret"), text, file: file, line: line)
        }
    }

    func test_binary_everySubscriptionSynced_oneJSONNotification_withTheRunsSummary() async throws {
        try await subscribeBoth()

        let sync = try await podarchive("sync", "--to", archive.path, "--notify", notifyURL, "--feed-jobs", "2")

        XCTAssertEqual(sync.status, 1, "an episode failed: \(sync.stderr)")
        XCTAssertEqual(posts.count, 1, "one notification for the run, not one a show")
        let post = try XCTUnwrap(posts.first)
        XCTAssertEqual(post.method, "POST")
        XCTAssertEqual(post.headers["content-type"], "application/json")
        let body = String(decoding: post.body, as: UTF8.self)
        XCTAssertFalse(body.contains("S3cret"), "no secret in the body: \(body)")
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: post.body) as? [String: Any], body)
        XCTAssertEqual(json["status"] as? String, "episodes-failed")
        XCTAssertEqual(json["exit"] as? Int, 1)
        let archived = try XCTUnwrap(json["archived"] as? [[String: String]])
        XCTAssertEqual(
            Set(archived.map { $0["show"]! + " " + $0["file"]! }),
            ["Night Show Night Show/Pilot.mp3", "Day Show Day Show/Morning.mp3"])
        let failed = try XCTUnwrap(json["failed"] as? [[String: String]])
        XCTAssertEqual(failed.map { $0["show"]! + " " + $0["title"]! }, ["Night Show Lost"])
        XCTAssertTrue(failed[0]["reason"]!.contains("404"), failed[0]["reason"]!)
        XCTAssertEqual((json["gone"] as? [Any])?.count, 0)
        XCTAssertEqual((json["showsFailed"] as? [Any])?.count, 0)
        assertNoSecret(sync)
    }

    func test_binary_textFormat_isNtfysPlainText_withATitle() async throws {
        try await subscribeBoth()

        let sync = try await podarchive(
            "sync", "--to", archive.path, "--notify", notifyURL, "--notify-format", "text", "--notify-on", "always")

        XCTAssertEqual(sync.status, 1, sync.stderr)
        let post = try XCTUnwrap(posts.first)
        XCTAssertEqual(post.headers["content-type"], "text/plain; charset=utf-8")
        XCTAssertEqual(post.headers["title"], "podarchive sync: episodes-failed (exit 1): 2 new, 1 failed")
        XCTAssertEqual(post.headers["priority"], "high")
        let lines = String(decoding: post.body, as: UTF8.self).split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "podarchive sync: episodes-failed (exit 1): 2 new, 1 failed")
        XCTAssertTrue(lines.contains { $0.hasPrefix("failed: Night Show: Lost: ") && $0.contains("404") }, "\(lines)")
        XCTAssertEqual(
            Set(lines.filter { $0.hasPrefix("new: ") }), ["new: Night Show: Pilot.mp3", "new: Day Show: Morning.mp3"])
    }

    func test_binary_notifyOn_failureByDefault_newWhenSomethingCame_alwaysEveryRun() async throws {
        server.route("/lost.mp3", .ok(Data("ID3 found".utf8)))
        try await subscribeBoth()

        let first = try await podarchive("sync", "--to", archive.path, "--notify", notifyURL)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(posts.count, 0, "a run that succeeded is not told by default")

        let nothingNew = try await podarchive("sync", "--to", archive.path, "--notify", notifyURL, "--notify-on", "new")
        XCTAssertEqual(nothingNew.status, 0, nothingNew.stderr)
        XCTAssertEqual(posts.count, 0, "nothing new, nothing failed")

        let always = try await podarchive("sync", "--to", archive.path, "--notify", notifyURL, "--notify-on", "always")
        XCTAssertEqual(always.status, 0, always.stderr)
        XCTAssertEqual(posts.count, 1)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: posts[0].body) as? [String: Any])
        XCTAssertEqual(json["status"] as? String, "ok")
        XCTAssertEqual(json["exit"] as? Int, 0)
    }

    func test_binary_aReceiverThatNeverAnswers_isGivenUpAtTheTimeout_oneLine_statusUnchanged() async throws {
        receiver.route(topic, TestResponse(status: 200, body: Data("late".utf8), delayBeforeHeaders: 3600))
        try await subscribeBoth()

        let sync = try await podarchive(
            "sync", "--to", archive.path, "--notify", notifyURL, "--notify-timeout", "1")

        XCTAssertEqual(sync.status, 1, "the run's own status: \(sync.stderr)")
        XCTAssertEqual(posts.count, 1, "it was asked")
        let said = sync.stderr.split(separator: "\n").filter { $0.contains("notify") }
        XCTAssertEqual(
            said,
            [
                "podarchive: could not notify http://127.0.0.2:\(receiver.port)/REDACTED: no answer within 1 second "
                    + "(--notify-timeout sets how long it may take)"
            ])
        assertNoSecret(sync)
    }

    func test_binary_aReceiverAnswering500_isOneLine_statusUnchanged() async throws {
        receiver.route(topic, .status(500, "down"))
        server.route("/lost.mp3", .ok(Data("ID3 found".utf8)))
        try await subscribeBoth()

        let sync = try await podarchive("sync", "--to", archive.path, "--notify", notifyURL, "--notify-on", "always")

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(
            sync.stderr, "podarchive: could not notify http://127.0.0.2:\(receiver.port)/REDACTED: HTTP 500\n")
        XCTAssertEqual(posts.count, 1)
    }

    func test_binary_theConfigurationFilesNotify_isUsed_andShownRedacted() async throws {
        try FileManager.default.createDirectory(at: configuration, withIntermediateDirectories: true)
        try Data("notify = \(notifyURL)\nnotify-on = always\n".utf8).write(
            to: configuration.appendingPathComponent("config"))
        try await subscribeBoth()

        let sync = try await podarchive("sync", "--to", archive.path, "--json")
        let config = try await podarchive("config")
        let feeds = try await podarchive("feeds", "--to", archive.path, "--json")

        XCTAssertEqual(sync.status, 1, sync.stderr)
        XCTAssertEqual(posts.count, 1)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)), sync.stdout)
        XCTAssertEqual(config.status, 0, config.stderr)
        XCTAssertEqual(feeds.status, 0, feeds.stderr)
        XCTAssertTrue(config.stdout.contains("127.0.0.2:\(receiver.port)/REDACTED"), config.stdout)
        for result in [sync, config, feeds] { assertNoSecret(result) }
        let saved = FileManager.default.enumerator(at: archive, includingPropertiesForKeys: nil)?.allObjects as? [URL]
        for file in saved ?? [] where !file.hasDirectoryPath {
            let bytes = (try? Data(contentsOf: file)) ?? Data()
            XCTAssertNil(bytes.range(of: Data("t0p1cS3cret".utf8)), "never saved: \(file.path)")
        }
    }

    func test_binary_execAfterRun_getsTheJSONOnItsInput_itsFailureIsOneLineWithItsOutput() async throws {
        try await subscribeBoth()

        let sync = try await podarchive(
            "sync", "--to", archive.path, "--exec-after-run", "cat > after.json; echo it broke; exit 3")

        XCTAssertEqual(sync.status, 1, "the run's own status: \(sync.stderr)")
        let written = try Data(contentsOf: folder.url.appendingPathComponent("after.json"))
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: written) as? [String: Any])
        XCTAssertEqual(json["status"] as? String, "episodes-failed")
        XCTAssertEqual((json["archived"] as? [Any])?.count, 2)
        XCTAssertTrue(
            sync.stderr.contains(
                "podarchive: --exec-after-run exited with status 3; the run's exit status is unchanged\n  | it broke\n"),
            sync.stderr)
    }

    func test_binary_execAfterRun_thatSucceeds_isQuiet_butShownWithVerbose() async throws {
        try await subscribeBoth()

        let quiet = try await podarchive("sync", "--to", archive.path, "--exec-after-run", "echo hello from after")
        let verbose = try await podarchive(
            "sync", "--to", archive.path, "--exec-after-run", "echo hello from after", "-v")

        XCTAssertFalse(quiet.stderr.contains("hello from after"), quiet.stderr)
        XCTAssertTrue(verbose.stderr.contains("--exec-after-run printed:\n  | hello from after\n"), verbose.stderr)
    }

    func test_binary_badValues_areOneLine_exit2() async throws {
        for (arguments, expected) in [
            (
                ["--notify", "ftp://example.com/t0p1cS3cret"],
                "podarchive: option '--notify' needs an http(s) URL such as https://ntfy.sh/my-topic, got 'ftp://example.com/REDACTED'"
            ),
            (
                ["--notify", notifyURL, "--notify-on", "sometimes"],
                "podarchive: option '--notify-on' needs failure, new or always, got 'sometimes'"
            ),
            (
                ["--notify", notifyURL, "--notify-format", "xml"],
                "podarchive: option '--notify-format' needs json or text, got 'xml'"
            ),
            (
                ["--notify", notifyURL, "--notify-timeout", "0"],
                "podarchive: option '--notify-timeout' needs a number of seconds, got '0'"
            ),
        ] {
            let sync = try await podarchive(["sync", "--to", archive.path] + arguments)
            XCTAssertEqual(sync.status, 2, "\(arguments): \(sync.stderr)")
            XCTAssertEqual(sync.stderr.split(separator: "\n").first.map(String.init), expected, "\(arguments)")
            assertNoSecret(sync)
        }
        XCTAssertEqual(posts.count, 0)
    }

    private func podarchive(_ arguments: [String]) async throws -> ProcessResult {
        let environment = ProcessRunner.isolatedEnvironment(
            home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": configuration.path])
        let directory = folder.url
        return try await withWatchdog(seconds: 90) {
            try ProcessRunner.run(
                ProcessRunner.podarchive, arguments, environment: environment, currentDirectory: directory,
                timeout: 60)
        }
    }
}
