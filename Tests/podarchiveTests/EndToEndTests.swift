import Foundation
import TestSupport
import XCTest

// The built binary, run the way cron runs it, against real HTTP servers on 127.0.0.1: our fault-injecting
// one (also as a proxy), and `python3 -m http.server`, which nobody here wrote.
@testable import ArchiverCore

final class EndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("e2e")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
    }

    override func tearDown() {
        folder.remove()
    }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments, environment: ProcessRunner.isolatedEnvironment(home: folder.url),
            currentDirectory: folder.url)
    }

    func test_binary_syncTwice_secondRunDownloadsNothing() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route(
            "/feed.json",
            .ok(
                String(decoding: Fixtures.data("feeds/seed.json"), as: UTF8.self).replacingOccurrences(
                    of: "https://example.com", with: "http://127.0.0.1:\(server.port)"), type: "application/json"))
        server.route("/episodes/1.mp3", .ok(Data("ID3 first episode".utf8)))
        let feed = server.url("/feed.json").absoluteString

        let first = try podarchive("sync", feed, "--to", "archive")
        let second = try podarchive("sync", feed, "--to", "archive")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(server.requestedPaths, ["/feed.json", "/episodes/1.mp3", "/feed.json"])
        XCTAssertEqual(second.stdout, "127.0.0.1-feed: 0 archived, 1 already archived\n")
        let file = folder.url.appendingPathComponent("archive/127.0.0.1-feed/The very first episode ever!.mp3")
        XCTAssertEqual(FileManager.default.contents(atPath: file.path), Data("ID3 first episode".utf8))
        let modified = try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date
        XCTAssertEqual(modified?.timeIntervalSince1970, 1_736_514_000)
    }

    func test_binary_againstPythonHTTPServer_archivesTheDemoFeed() throws {
        let python = try PythonHTTPServer(serving: Fixtures.url("demo"))
        defer { python.stop() }
        let feed = "http://127.0.0.1:\(python.port)/feed.xml"

        let first = try podarchive("sync", feed, "--to", "archive")
        let again = try podarchive("sync", feed, "--to", "archive")
        let missing = try podarchive("sync", "http://127.0.0.1:\(python.port)/no-such-feed.xml", "--to", "archive")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(
            folder.visibleFiles(),
            [
                "archive/podarchive demo/Episode 2.mp3",
                "archive/podarchive demo/Episode 3 - What - why & how.mp3",
                "archive/podarchive demo/The very first episode ever!.mp3",
            ])
        for name in ["episode-1.mp3", "episode-2.mp3", "episode-3.mp3"] {
            let served = Fixtures.data("demo/\(name)")
            XCTAssertTrue(
                folder.files().contains { path in
                    FileManager.default.contents(atPath: folder.url.appendingPathComponent(path).path) == served
                }, "\(name) archived byte for byte")
        }
        XCTAssertEqual(again.status, 0)
        // python's server sends Last-Modified, so the second run asks If-Modified-Since and gets a 304.
        XCTAssertEqual(again.stdout, "podarchive demo: 0 archived, 3 already archived (feed unchanged)\n")
        XCTAssertEqual(missing.status, 3)
        XCTAssertEqual(
            missing.stderr, "podarchive: feed http://127.0.0.1:\(python.port)/no-such-feed.xml answered HTTP 404\n")
    }

    func test_binary_syncJSON_printsAParsableSummaryOnly() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route(
            "/feed.xml",
            .ok(
                "<rss><channel><title>JSON Show</title>"
                    + "<item><title>Good</title><enclosure url=\"/good.mp3\"/></item>"
                    + "<item><title>Gone</title><enclosure url=\"/gone.mp3\"/></item></channel></rss>",
                type: "application/rss+xml"))
        server.route("/good.mp3", .ok(Data("ID3 good".utf8)))

        let result = try podarchive(
            "sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--json", "--retries", "0")

        XCTAssertEqual(result.status, 1)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        let feed = try XCTUnwrap((object["feeds"] as? [[String: Any]])?.first)
        XCTAssertEqual(feed["title"] as? String, "JSON Show")
        XCTAssertEqual(feed["status"] as? String, "episodes-failed")
        XCTAssertEqual(feed["exit"] as? Int, 1)
        XCTAssertEqual(feed["archived"] as? [String], ["JSON Show/Good.mp3"])
        XCTAssertEqual(feed["bytes"] as? Int, 8)
        XCTAssertNotNil(feed["seconds"] as? Double)
        let failed = try XCTUnwrap(feed["failed"] as? [[String: Any]])
        XCTAssertEqual(failed.first?["title"] as? String, "Gone")
        XCTAssertEqual(failed.first?["reason"] as? String, "server answered HTTP 404")
        XCTAssertTrue(result.stderr.contains("Gone"), "failures still go to stderr too")
    }

    func test_binary_syncMetadataAndNameTemplate_writeSidecarAndArtworkWhereTheTemplateSays() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route(
            "/feed.xml",
            .ok(
                "<rss xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel><title>Meta Show</title>"
                    + "<itunes:image href=\"/art.jpg\"/><item><title>First</title><guid>m1</guid>"
                    + "<pubDate>Fri, 10 Jan 2025 13:00:00 GMT</pubDate><itunes:season>3</itunes:season>"
                    + "<description>Notes</description><enclosure url=\"/1.mp3\"/></item></channel></rss>",
                type: "application/rss+xml"))
        server.route("/1.mp3", .ok(Data("ID3 first".utf8)))
        server.route("/art.jpg", .ok(Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("JFIF art".utf8), type: "image/jpeg"))

        let result = try podarchive(
            "sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--json", "--metadata", "--name",
            "S{season}/{date} {title}")

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            folder.visibleFiles(),
            [
                "archive/Meta Show/S3/2025-01-10 First.info.json", "archive/Meta Show/S3/2025-01-10 First.mp3",
                "archive/Meta Show/cover.jpg",
            ])
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        let feed = try XCTUnwrap((object["feeds"] as? [[String: Any]])?.first)
        XCTAssertEqual(feed["archived"] as? [String], ["Meta Show/S3/2025-01-10 First.mp3"])
        XCTAssertEqual(feed["artwork"] as? String, "Meta Show/cover.jpg")
        let sidecar = try Data(
            contentsOf: folder.url.appendingPathComponent("archive/Meta Show/S3/2025-01-10 First.info.json"))
        let fields = try XCTUnwrap(JSONSerialization.jsonObject(with: sidecar) as? [String: Any])
        XCTAssertEqual(fields["description"] as? String, "Notes")
        XCTAssertEqual(fields["season"] as? Int, 3)
    }

    /// Runs the binary on a pseudo-terminal of 60 columns (python's pty module), as a person at a shell would.
    private func podarchiveOnATerminal(_ arguments: [String], term: String) throws -> ProcessResult {
        let script = """
            import fcntl, os, pty, struct, sys, termios
            pid, fd = pty.fork()
            if pid == 0:
                os.execv(sys.argv[1], sys.argv[1:])
            fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 60, 0, 0))
            out = b""
            while True:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    break
                if not data:
                    break
                out += data
            _, status = os.waitpid(pid, 0)
            sys.stdout.buffer.write(out)
            sys.exit(os.waitstatus_to_exitcode(status))
            """
        return try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", script, ProcessRunner.podarchive.path] + arguments,
            environment: ProcessRunner.isolatedEnvironment(home: folder.url, extra: ["TERM": term]),
            currentDirectory: folder.url)
    }

    func test_binary_onATerminal_drawsProgressInPlaceAndLeavesCleanLines_dumbTerminalGetsPlainLines() throws {
        let server = try TestHTTPServer()
        defer { server.stop() }
        server.route(
            "/feed.xml",
            .ok(
                "<rss><channel><title>Pty Show</title><item><title>One</title><enclosure url=\"/1.mp3\"/></item>"
                    + "<item><title>Two</title><enclosure url=\"/2.mp3\"/></item></channel></rss>",
                type: "application/rss+xml"))
        var slow = TestResponse.ok(Data(repeating: 0xFF, count: 300_000))
        slow.trickle = (chunk: 100_000, interval: 0.15)
        server.route("/1.mp3", slow)
        server.route("/2.mp3", .ok(Data("ID3 two".utf8)))
        let feed = server.url("/feed.xml").absoluteString

        let result = try podarchiveOnATerminal(["sync", feed, "--to", "archive"], term: "xterm")

        XCTAssertEqual(result.status, 0, result.stdout)
        XCTAssertTrue(result.stdout.contains("Pty Show: 0 of 2"), "the live area was drawn: \(result.stdout)")
        XCTAssertTrue(result.stdout.contains("\u{1B}[J"), "and redrawn in place")
        XCTAssertEqual(
            Screen(result.stdout.replacingOccurrences(of: "\r\n", with: "\n")).lines,
            [
                "archived Pty Show/One.mp3 (300.0 kB)", "archived Pty Show/Two.mp3 (7 B)",
                "Pty Show: 2 archived, 0 already archived",
            ], "what stays on screen is the lines, in feed order")

        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("archive"))
        let dumb = try podarchiveOnATerminal(["sync", feed, "--to", "archive"], term: "dumb")
        XCTAssertEqual(dumb.status, 0, dumb.stdout)
        XCTAssertFalse(dumb.stdout.contains("\u{1B}"), dumb.stdout)
        XCTAssertEqual(
            dumb.stdout.split(separator: "\r\n").map(String.init),
            [
                "archived Pty Show/One.mp3 (300.0 kB)", "archived Pty Show/Two.mp3 (7 B)",
                "Pty Show: 2 archived, 0 already archived",
            ])
    }

    func test_binary_syncJSON_feedFailure_isJSONToo() throws {
        let refusing = try RefusingPort()
        let feedURL = refusing.url("/feed.xml").absoluteString
        // Asked once: a refused connection is otherwise tried again after 1, 2 and 4 seconds.
        let result = try podarchive("sync", feedURL, "--to", "archive", "--json", "--retries", "0")

        XCTAssertEqual(result.status, 3)
        let object = try XCTUnwrap(
            JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], result.stdout)
        let feed = try XCTUnwrap((object["feeds"] as? [[String: Any]])?.first)
        XCTAssertEqual(feed["status"] as? String, "feed-failed")
        XCTAssertEqual(
            feed["error"] as? String, "feed \(feedURL) could not be fetched: connection refused")
    }

    /// Proxies as curl users set them (libcurl reads http_proxy and no_proxy): the proxy is our loopback server
    /// answering absolute-form requests; the feed's host name ends in .invalid, so only the proxy can reach it.
    func test_binary_httpProxyFromTheEnvironment_carriesTheRequests_noProxyHostsGoDirect() throws {
        let proxy = try TestHTTPServer()
        let direct = try TestHTTPServer(address: "127.0.0.2")
        defer {
            proxy.stop()
            direct.stop()
        }
        let feed = "http://podcasts.invalid/feed.xml"
        proxy.route(
            feed,
            .ok(
                """
                <rss version="2.0"><channel><title>Behind A Proxy</title>
                <item><title>Proxied</title><enclosure url="http://podcasts.invalid/e1.mp3" type="audio/mpeg"/></item>
                <item><title>Direct</title><enclosure url="\(direct.url("/e2.mp3"))" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        proxy.route("http://podcasts.invalid/e1.mp3", .ok(Data(repeating: 1, count: 3000)))
        direct.route("/e2.mp3", .ok(Data(repeating: 2, count: 3000)))
        let environment = ProcessRunner.isolatedEnvironment(
            home: folder.url,
            extra: ["http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": "127.0.0.2"])

        let result = try ProcessRunner.run(
            ProcessRunner.podarchive, ["sync", feed, "--to", "archive"], environment: environment,
            currentDirectory: folder.url)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            folder.visibleFiles().filter { $0.hasSuffix(".mp3") }.sorted(),
            ["archive/Behind A Proxy/Direct.mp3", "archive/Behind A Proxy/Proxied.mp3"])
        XCTAssertEqual(Set(proxy.requestedPaths), [feed, "http://podcasts.invalid/e1.mp3"])
        XCTAssertEqual(direct.requestedPaths, ["/e2.mp3"], "no_proxy hosts are reached directly")
    }

    func test_binary_usageError_exits2() throws {
        let result = try podarchive("sync")

        XCTAssertEqual(result.status, 2, "no feed named and no subscriptions")
        XCTAssertTrue(result.stderr.hasPrefix("podarchive: "), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("has no subscriptions; add one with 'podarchive add <feed>'"), result.stderr)
    }
}

/// `python3 -m http.server` on 127.0.0.1 and a free port, serving a folder; stopped by `stop()`.
final class PythonHTTPServer {
    let port: Int
    private let process: Process

    init(serving directory: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path,
        ]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        // It announces "Serving HTTP on 127.0.0.1 port 40123 (...)" once it listens.
        var announced = Data()
        while !announced.contains(0x0A) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            announced.append(chunk)
        }
        let line = String(decoding: announced, as: UTF8.self)
        guard let range = line.range(of: "port "), let port = Int(line[range.upperBound...].prefix(while: \.isNumber))
        else {
            process.terminate()
            throw CocoaError(
                .fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "python3 -m http.server said: \(line)"])
        }
        self.port = port
    }

    /// SIGKILL: a server started from a Swift concurrency thread inherits its blocked signals, SIGTERM among
    /// them, and would never stop on `terminate()`.
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
