import Foundation
import TestSupport
import XCTest

// The line Ctrl-C (or SIGTERM) leaves promises only what the next run does: which partial downloads it resumes (a
// validator was recorded, the server takes ranges, the body came as it is) and which it starts again. The built
// binary, stopped mid-body, then run again.
@testable import ArchiverCore

final class InterruptedLineTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    /// 3 MB that do not compress (a linear congruential generator's high bytes): gzipped, still 3 MB to send.
    private let big: Data = {
        var state: UInt32 = 12_345
        return Data(
            (0..<3_000_000).map { _ in
                state = state &* 1_664_525 &+ 1_013_904_223
                return UInt8(state >> 24)
            })
    }()

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        folder = try TemporaryFolder("interrupted")
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    /// A feed of one episode for each path, in order.
    private func serveFeed(_ paths: [String]) {
        let items = paths.map {
            "<item><title>\($0.dropFirst().dropLast(4))</title><guid>\($0)</guid><enclosure url=\"\($0)\" type=\"audio/mpeg\"/></item>"
        }
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Stop Show</title>\(items.joined())</channel></rss>",
                type: "application/rss+xml"))
    }

    /// `path` served as `response` makes it: slowly the first time (so the run can be stopped mid-body), at once
    /// after.
    private func serve(_ path: String, _ response: @escaping @Sendable (RecordedRequest) -> TestResponse) {
        server.route(path) { request, count in
            var answer = response(request)
            if count == 0 { answer.trickle = (chunk: 65_536, interval: 0.05) }
            return answer
        }
    }

    private func sync() throws -> RunningProcess {
        try ProcessRunner.start(
            ProcessRunner.podarchive,
            ["sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--jobs", "2"],
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), currentDirectory: folder.url)
    }

    /// Starts a sync, stops it with SIGINT once each of `paths` has sent some bytes, and returns what it said.
    private func interrupt(once paths: [String]) throws -> ProcessResult {
        let run = try sync()
        for path in paths { XCTAssertTrue(server.waitUntilSent(300_000, of: path), path) }
        run.send(SIGINT)
        return run.wait()
    }

    private func ranges(_ path: String) -> [String?] {
        server.requests.filter { $0.path == path }.map { $0.headers["range"] }
    }

    private func assertArchived(_ names: [String], file: StaticString = #filePath, line: UInt = #line) {
        for name in names {
            XCTAssertEqual(
                FileManager.default.contents(
                    atPath: folder.url.appendingPathComponent("archive/Stop Show/\(name)").path),
                big, name, file: file, line: line)
        }
    }

    func test_aPartialWithAValidator_isSaidToResume_andDoes() throws {
        serveFeed(["/tagged.mp3"])
        let big = self.big
        serve("/tagged.mp3") { TestResponse.file(big, for: $0, etag: "\"t\"") }

        let stopped = try interrupt(once: ["/tagged.mp3"])

        XCTAssertEqual(stopped.status, 130, stopped.stderr)
        XCTAssertEqual(stopped.stderr, "podarchive: interrupted: 1 partial download kept, the next run resumes it\n")
        let next = try sync().wait()
        XCTAssertEqual(next.status, 0, next.stderr)
        assertArchived(["tagged.mp3"])
        XCTAssertNotNil(ranges("/tagged.mp3").last ?? nil, "resumed")
    }

    /// No ETag and no Last-Modified: nothing to resume against. "The next run resumes it" was said all the same.
    func test_aPartialWithoutAValidator_isSaidToStartAgain_andDoes() throws {
        serveFeed(["/plain.mp3"])
        let big = self.big
        serve("/plain.mp3") { TestResponse.file(big, for: $0) }

        let stopped = try interrupt(once: ["/plain.mp3"])

        XCTAssertEqual(stopped.status, 130, stopped.stderr)
        XCTAssertEqual(
            stopped.stderr,
            "podarchive: interrupted: 1 partial download cannot be resumed, the next run starts it again (its server "
                + "named no version of it, ETag or Last-Modified, took no ranges, or sent it compressed)\n")
        let next = try sync().wait()
        XCTAssertEqual(next.status, 0, next.stderr)
        assertArchived(["plain.mp3"])
        XCTAssertEqual(ranges("/plain.mp3"), [nil, nil], "started again, as said")
    }

    func test_aResumableAndACompressedPartial_areEachSaidForWhatTheyAre() throws {
        serveFeed(["/tagged.mp3", "/gzipped.mp3"])
        let big = self.big
        serve("/tagged.mp3") { TestResponse.file(big, for: $0, etag: "\"t\"") }
        // gzip of bytes that do not compress: the body sent is as large as the file.
        let gzipped = Gzip.compress(big)
        serve("/gzipped.mp3") { _ in
            TestResponse(
                headers: [("Content-Type", "audio/mpeg"), ("Content-Encoding", "gzip"), ("ETag", "\"g\"")],
                body: gzipped)
        }

        let stopped = try interrupt(once: ["/tagged.mp3", "/gzipped.mp3"])

        XCTAssertEqual(stopped.status, 130, stopped.stderr)
        XCTAssertEqual(
            stopped.stderr,
            "podarchive: interrupted: 2 partial downloads kept, the next run resumes 1 of them and starts 1 again "
                + "(its server named no version of it, ETag or Last-Modified, took no ranges, or sent it "
                + "compressed)\n")
        let next = try sync().wait()
        XCTAssertEqual(next.status, 0, next.stderr)
        assertArchived(["tagged.mp3", "gzipped.mp3"])
        XCTAssertNotNil(ranges("/tagged.mp3").last ?? nil, "resumed, as said")
        XCTAssertEqual(ranges("/gzipped.mp3"), [nil, nil], "started again, as said")
    }
}
