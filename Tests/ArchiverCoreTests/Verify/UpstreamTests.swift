import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// Link rot on loopback: after a sync, the publisher deletes some files and refuses HEAD for others; `verify
// --upstream` names the episodes that exist only in this archive, and touches nothing.
@testable import ArchiverCore

final class UpstreamTests: LoopbackArchiveTestCase {
    func test_upstreamCheck_namesWhatExistsOnlyHere_HEADRefusedFallsBackToAByte() async throws {
        var xml = "<rss version=\"2.0\"><channel><title>Rotting</title>"
        for name in ["kept", "deleted", "expired", "noHEAD"] {
            xml +=
                "<item><title>\(name)</title><guid>\(name)</guid>"
                + "<enclosure url=\"/\(name).mp3\" type=\"audio/mpeg\"/></item>"
            server.route("/\(name).mp3", .ok(Data("audio \(name)".utf8)))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
        _ = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url)
        let before = folder.files()
        server.route("/deleted.mp3", .status(404))
        server.route("/expired.mp3", .status(410))
        server.route("/noHEAD.mp3") { request, _ in
            request.method == "HEAD" ? .status(405) : TestResponse.file(Data("audio noHEAD".utf8), for: request)
        }

        let report = try await archiver().checkUpstream(folder.url, jobs: 2)

        XCTAssertEqual(report.checks.count, 4)
        XCTAssertEqual(report.gone.map(\.file).sorted(), ["deleted.mp3", "expired.mp3"])
        XCTAssertEqual(report.gone.map(\.state), [.gone("HTTP 404"), .gone("HTTP 410")])
        XCTAssertEqual(report.online, 2, "noHEAD answered its first byte")
        XCTAssertEqual(
            server.requests.filter { $0.path == "/noHEAD.mp3" }.suffix(2).map(\.method), ["HEAD", "GET"])
        XCTAssertEqual(folder.files(), before, "nothing touched")
    }
}
