import Foundation
import TestSupport
import XCTest

// The lines a failed sync prints, through the command line against a loopback server: each says what happened
// once, and names the option that helps where one does (the core never names one).
@testable import ArchiverCore
@testable import podarchive

final class FailureLinesTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var feed: String { server.url("/feed.xml").absoluteString }
    private let mp3 = Data("ID3 the episode as mp3".utf8)

    private func sync(_ arguments: String...) async -> ExitCode {
        await run(["sync", feed] + arguments + ["--to", root.path])
    }

    /// A companion's line said "not kept: … not kept, fetched again from its start; tried again next run".
    func test_aCompanionNotKept_saysSoOnce() async throws {
        let vtt = Data(("WEBVTT\n\n" + String(repeating: "00:00.000 --> 00:01.000\nHello\n\n", count: 200)).utf8)
        let gzipped = Gzip.compress(vtt)
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Show</title>
                <item><title>Ep</title><guid>ep</guid><enclosure url="/ep.mp3" type="audio/mpeg"/>
                <podcast:transcript url="/ep.vtt" type="text/vtt" language="en"/></item></channel></rss>
                """, type: "application/rss+xml"))
        server.route("/ep.mp3", .ok(mp3))
        server.route(
            "/ep.vtt",
            TestResponse(
                headers: [("Content-Type", "text/vtt"), ("Content-Encoding", "gzip")],
                body: Data(gzipped.prefix(gzipped.count / 2))))

        let code = await sync("--retries", "0")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(
            output.lines.contains(
                "not kept: <\(server.url("/ep.vtt"))> of Ep: its gzip-encoded body ended before its compressed "
                    + "stream did (cut short); tried again next run"), output.text)
    }

    /// `Retry-After: 3600` with a 60 s `--timeout` failed at once with only "server answered HTTP 503".
    func test_aRetryAfterPastTheTimeout_saysWhyItWasNotWaitedFor_andWhichOptionSetsIt() async throws {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Show</title>
                <item><title>Ep</title><guid>ep</guid><enclosure url="/ep.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/ep.mp3", TestResponse(status: 503, headers: [("Retry-After", "3600")]))

        let code = await sync("--timeout", "60")

        XCTAssertEqual(code, .episodesFailed)
        XCTAssertEqual(
            errors.text,
            "podarchive: episode \"Ep\" <\(server.url("/ep.mp3"))>: server answered HTTP 503 and asked to wait 3600 s "
                + "before another try, longer than the 60 s the episode may take; tried again next run (--timeout "
                + "sets how long an episode may take)\n")
        XCTAssertEqual(server.requests.count { $0.path == "/ep.mp3" }, 1)
    }

    func test_aFeedsRetryAfterPastTheTimeout_saysWhichOptionSetsIt() async throws {
        server.route("/feed.xml", TestResponse(status: 503, headers: [("Retry-After", "3600")]))

        let code = await sync("--timeout", "60")

        XCTAssertEqual(code, .feedFailed)
        XCTAssertEqual(
            errors.text,
            "podarchive: feed \(feed) answered HTTP 503 (a server error) and asked to wait 3600 s before another try, "
                + "longer than the 60 s the feed may take (--timeout sets how long a feed may take)\n")
    }

    /// A body cut short of its Content-Length said "network error -1".
    func test_anEpisodeCutShort_saysWhereTheConnectionClosed() async throws {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Show</title>
                <item><title>Ep</title><guid>ep</guid><enclosure url="/ep.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route(
            "/ep.mp3",
            TestResponse(
                headers: [("Content-Type", "audio/mpeg")], body: Data(repeating: 7, count: 100_000), cutAfter: 40_000))

        let code = await sync("--retries", "0")

        XCTAssertEqual(code, .episodesFailed)
        XCTAssertEqual(
            errors.text,
            "podarchive: episode \"Ep\" <\(server.url("/ep.mp3"))>: the connection closed after 40000 of 100000 bytes\n"
        )
    }
}
