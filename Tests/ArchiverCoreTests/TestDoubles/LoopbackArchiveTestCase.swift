import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// The set-up the loopback archive tests share: a test server, a temporary archive, the live downloader with a
// spy for waits, and a one-episode feed.
@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A test case syncing from its own loopback server into a temporary folder; subclasses add the tests.
class LoopbackArchiveTestCase: XCTestCase {
    var server: TestHTTPServer!
    var folder: TemporaryFolder!
    let sleeper = SpySleeper()
    let audio = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) })

    override func setUpWithError() throws {
        try super.setUpWithError()
        IsolatedHome.activate()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("resilience")
    }

    override func tearDown() {
        server.stop()
        folder.remove()
        super.tearDown()
    }

    func archiver(
        idleTimeout: TimeInterval = 60, timer: @escaping @Sendable (TimeInterval) async throws -> Void = noDeadline
    ) -> Archiver {
        let sleeper = self.sleeper
        return Archiver.live(
            downloader: URLSessionDownloader(configuration: .podarchive(idleTimeout: idleTimeout)),
            sleep: { try await sleeper.sleep($0) }, timer: timer, jitter: { 0.5 })
    }

    func serveFeed(etag: String? = nil, enclosure: String = "/big.mp3") {
        let xml = """
            <rss version="2.0"><channel><title>Flaky</title>
            <item><title>Big one</title><guid>big</guid><enclosure url="\(enclosure)" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml") { request, _ in
            if let etag, request.headers["if-none-match"] == etag { return TestResponse(status: 304) }
            var response = TestResponse.ok(xml, type: "application/rss+xml")
            if let etag { response.headers.append(("ETag", etag)) }
            return response
        }
    }

    var archived: Data? {
        FileManager.default.contents(atPath: folder.url.appendingPathComponent("Flaky/Big one.mp3").path)
    }

    func requests(_ path: String) -> [RecordedRequest] {
        server.requests.filter { $0.path == path }
    }

    func sync(
        _ options: SyncOptions = SyncOptions(), idleTimeout: TimeInterval = 60,
        timer: @escaping @Sendable (TimeInterval) async throws -> Void = noDeadline
    ) async throws -> SyncReport {
        try await archiver(idleTimeout: idleTimeout, timer: timer).sync(
            .remote(server.url("/feed.xml")), into: folder.url, options: options)
    }
}
