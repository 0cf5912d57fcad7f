import Foundation
import TestSupport
import XCTest

// `podarchive sync` against transcripts that never end, with the real 20 MB cap: each is stopped there, said once
// (its URL redacted), leaves nothing behind, and the run archives the episode and succeeds. The servers make the
// bodies as they go and send them at a network's pace: no test holds 20 MB.
@testable import ArchiverCore
@testable import podarchive

final class CompanionCapCommandTests: CommandLineTestCase {
    func test_sync_transcriptsThatNeverEnd_areStoppedAt20MB_saidOnceEach_andTheRunSucceeds() async throws {
        let xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Talk</title>
            <item><title>Pilot</title><guid>p1</guid><enclosure url="/pilot.mp3" type="audio/mpeg"/>
            <podcast:transcript url="/endless.txt?token=PLAINSECRET" type="text/plain" language="en"/>
            <podcast:transcript url="/endless.gz.txt?token=GZIPSECRET" type="text/plain" language="de"/>
            </item></channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data("pilot audio".utf8)))
        let piece = Data(repeating: 0x41, count: 64 << 10)
        // 64 MB/s of text; 330 KB/s of gzip, 50 MB/s once decoded.
        server.route("/endless.txt", .endless(type: "text/plain", every: 0.001) { _ in piece })
        server.route(
            "/endless.gz.txt",
            .endless(type: "text/plain", headers: [("Content-Encoding", "gzip")], every: 0.02) {
                EndlessDeflate.piece($0)
            })
        let tool = self.tool()
        let feed = server.url("/feed.xml").absoluteString

        let code = try await withWatchdog(seconds: 60) { await tool.run(["sync", feed, "--to", "archive"]) }

        XCTAssertEqual(code, .success, errors.text)
        let warnings = output.lines.filter { $0.hasPrefix("not kept:") }
        XCTAssertEqual(warnings.count, 2, output.text)
        for path in ["/endless.txt", "/endless.gz.txt"] {
            XCTAssertEqual(
                warnings.filter {
                    $0.contains("\(path)?token=REDACTED> of Pilot: it grew past the 20 MB it may be")
                }.count, 1, "\(path) in \(warnings)")
        }
        XCTAssertFalse((output.text + errors.text).contains("SECRET"), "the URLs are redacted")
        let archive = folder.url.appendingPathComponent("archive")
        XCTAssertEqual(try TemporaryFolder.visibleFiles(in: archive), ["Talk/Pilot.mp3"])
        let hidden = try FileManager.default.subpathsOfDirectory(atPath: archive.path)
        XCTAssertEqual(
            hidden.filter {
                $0.hasSuffix(".part") || $0.contains("download-") || $0.hasSuffix("/" + ArchiveLayout.downloadLog)
            }, [])
        for path in ["/endless.txt", "/endless.gz.txt"] {
            XCTAssertTrue(server.waitUntilHungUp(on: path), "the client gave up on \(path)")
        }
        XCTAssertLessThan(server.bytesSent("/endless.txt"), 40 << 20, "stopped near the cap")
        XCTAssertLessThan(server.bytesSent("/endless.gz.txt"), 1 << 20, "20 MB decoded from about 140 KB sent")
    }
}
