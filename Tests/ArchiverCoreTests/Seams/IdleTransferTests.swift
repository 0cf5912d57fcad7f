import CCurlSockets
import Foundation
import TestSupport
import XCTest

// A transfer that waits for the network sleeps until bytes arrive. FoundationNetworking on Linux left every new
// connection's socket watched for writing, which woke libcurl without pause while a body trickled in (a core busy
// for the whole download); CCurlSockets corrects that. Counted in wake-ups, not timed: the benchmark measures CPU.
@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class IdleTransferTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        #if !os(Linux)
            throw XCTSkip("only FoundationNetworking on Linux drives libcurl")
        #endif
        IsolatedHome.activate()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("idle")
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    func test_aDownloadWhoseBodyTrickles_isWokenOnlyAsPiecesArrive() async throws {
        // Four pieces 40 ms apart. Measured here: 6 or 7 wake-ups; without the correction, 13,188.
        let body = Data((0..<4_000).map { UInt8(truncatingIfNeeded: $0) })
        var response = TestResponse.ok(body)
        response.trickle = (chunk: 1_000, interval: 0.04)
        server.route("/slow.mp3", response)
        let destination = folder.url.appendingPathComponent("slow.part")
        let renewedBefore = podarchive_curl_socket_watches_renewed()
        let before = podarchive_curl_socket_actions()

        let result = try await URLSessionDownloader().download(
            URLRequest(url: server.url("/slow.mp3")), to: destination)

        let wakeUps = podarchive_curl_socket_actions() - before
        XCTAssertEqual(result.sha256, SHA256.hex(body))
        XCTAssertGreaterThan(wakeUps, 0, "the transfers went through libcurl's multi interface")
        XCTAssertLessThan(wakeUps, 60, "libcurl was woken \(wakeUps) times for a body of 4 pieces")
        XCTAssertGreaterThan(
            podarchive_curl_socket_watches_renewed(), renewedBefore,
            "the connection's watch for writing was dropped once it was connected")
    }
}
