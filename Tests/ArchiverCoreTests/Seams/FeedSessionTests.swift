import Foundation
import TestSupport
import XCTest

// The live feed fetcher against a real HTTP server on 127.0.0.1: every fetch ends, and none reads without limit.
@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class FeedSessionTests: XCTestCase {
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        IsolatedHome.activate()
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server.stop()
    }

    private func load(
        _ path: String, limits: FeedLimits = FeedLimits(),
        timer: @escaping @Sendable (TimeInterval) async throws -> Void = noDeadline
    ) async throws -> Feed {
        let loader = FeedLoader(fetcher: FeedSession(), files: FileManager.default, timer: timer)
        let url = server.url(path)
        return try await withWatchdog(seconds: 15) { try await loader.load(.remote(url), limits: limits) }
    }

    private func assertFeedError(
        _ path: String, limits: FeedLimits = FeedLimits(),
        timer: @escaping @Sendable (TimeInterval) async throws -> Void = noDeadline, is expected: FeedError,
        file: StaticString = #filePath, line: UInt = #line
    ) async {
        do {
            _ = try await load(path, limits: limits, timer: timer)
            XCTFail("expected \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual(error as? FeedError, expected, file: file, line: line)
        }
    }

    func test_prepare_bringsTheSessionUpOnce_andItsSetUpEnds_thenFetchesAsBefore() async throws {
        server.route("/feed.xml", .ok(Data("<rss><channel><title>Prepared</title></channel></rss>".utf8)))
        // A session's configuration is made with the session: counting them counts the sessions.
        let made = Locked(0)
        @Sendable func configuration() -> URLSessionConfiguration {
            made.withLock { $0 += 1 }
            return .podarchive()
        }
        let session = FeedSession(configuration: configuration())

        session.prepare()
        session.prepare()  // a second call does nothing
        XCTAssertTrue(FeedSession.preparationsEnded(within: 15), "the set-up ended")
        let madeByPreparing = made.current
        let request = URLRequest(url: server.url("/feed.xml"))
        let (data, response) = try await withWatchdog(seconds: 15) {
            try await session.data(for: request, maximumBytes: 1_000)
        }

        XCTAssertEqual(madeByPreparing, 1, "preparing made the session")
        XCTAssertEqual(made.current, 1, "and the fetch used it")
        XCTAssertEqual((response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), "<rss><channel><title>Prepared</title></channel></rss>")
        XCTAssertEqual(server.requestedPaths, ["/feed.xml"], "preparing asks nothing of any server")
    }

    func test_load_401WithBasicChallenge_failsWithTheStatusInsteadOfHanging() async {
        // A lapsed paid subscription: corelibs waits forever for credentials nobody gives (see the notes).
        server.route(
            "/paid.xml",
            TestResponse(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"x\"")], body: Data("no".utf8)))

        await assertFeedError("/paid.xml", is: .httpStatus(url: server.url("/paid.xml").absoluteString, status: 401))
    }

    func test_load_401WithoutChallenge_failsWithTheStatus() async {
        server.route("/paid.xml", .status(401))

        await assertFeedError("/paid.xml", is: .httpStatus(url: server.url("/paid.xml").absoluteString, status: 401))
    }

    func test_load_401Message_saysWhatTheServerWants() {
        let message = FeedError.httpStatus(url: "http://x/feed", status: 401).localizedDescription

        XCTAssertEqual(message, "feed http://x/feed answered HTTP 401: the feed needs credentials")
    }

    func test_load_gzipThatInflatesPastTheCap_stopsReadingAndSaysWhy() async {
        // 64 KB on the wire, 64 MB once inflated: reading stops at the cap, long before the end.
        var response = TestResponse.ok(Fixtures.data("feeds/inflates-to-64mb.xml.gz"), type: "application/rss+xml")
        response.headers.append(("Content-Encoding", "gzip"))
        server.route("/bomb.xml", response)

        await assertFeedError(
            "/bomb.xml", limits: FeedLimits(maximumBytes: 1 << 20),
            is: .tooLarge(url: server.url("/bomb.xml").absoluteString, limit: 1 << 20))
    }

    func test_load_gzipWithinTheCap_isInflatedAndRead() async throws {
        var response = TestResponse.ok(Fixtures.data("feeds/inflates-to-64mb.xml.gz"), type: "application/rss+xml")
        response.headers.append(("Content-Encoding", "gzip"))
        server.route("/bomb.xml", response)

        let feed = try await load("/bomb.xml", limits: FeedLimits(maximumBytes: 65 << 20))

        XCTAssertEqual(feed.title, "Bomb")
    }

    func test_load_serverSendingAByteAtATime_endsAtTheDeadline() async {
        // Never idle long enough for the idle timeout, never done: only a total deadline ends it.
        let feed = Data(String(repeating: " ", count: 10_000).utf8)
        server.route("/slow.xml", TestResponse(body: feed, trickle: (chunk: 1, interval: 0.05)))
        let server = self.server!

        // The deadline passes once some bytes arrived: the fetch is cut mid-body, whatever the machine's speed.
        await assertFeedError(
            "/slow.xml", limits: FeedLimits(timeout: 0.5), timer: { _ in try await server.sent(3, of: "/slow.xml") },
            is: .transport(url: server.url("/slow.xml").absoluteString, reason: "not complete within 0.5 seconds"))
    }

    func test_load_redirectToAFileURL_isRefusedNamingIt() async {
        server.route("/feed.xml", .redirect(to: "file:///etc/passwd"))

        await assertFeedError(
            "/feed.xml",
            is: .refusedRedirect(url: server.url("/feed.xml").absoluteString, location: "file:///etc/passwd"))
        XCTAssertEqual(server.requestedPaths, ["/feed.xml"])
    }

    func test_load_redirectToAnotherScheme_isRefused() async {
        server.route("/feed.xml", .redirect(to: "ftp://127.0.0.1/feed.xml"))

        await assertFeedError(
            "/feed.xml",
            is: .refusedRedirect(url: server.url("/feed.xml").absoluteString, location: "ftp://127.0.0.1/feed.xml"))
    }
}
