import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// The publisher's hash (`podcast:integrity`) applied to downloads on loopback with the live downloader: a file that
// matches is kept and recorded, one that differs fails naming both digests and is tried again, and the third run in
// a row that differs keeps the file, recorded as not matching and said once.
@testable import ArchiverCore

final class IntegrityCheckTests: LoopbackArchiveTestCase {
    private func sri(_ variant: SHA512.Variant, _ data: Data) -> String {
        var hasher = SHA512(variant)
        hasher.update(data)
        return (variant == .sha384 ? "sha384-" : "sha512-") + Data(hasher.finalize()).base64EncodedString()
    }

    /// A feed whose enclosure is described by a `default="true"` alternate carrying `integrity`.
    private func serveFeed(integrity: String) {
        let xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Flaky</title>
            <item><title>Big one</title><guid>big</guid><enclosure url="/big.mp3" type="audio/mpeg"/>
            <podcast:alternateEnclosure type="audio/mpeg" default="true">
            <podcast:source uri="\(server.url("/big.mp3").absoluteString)"/>
            <podcast:integrity type="sri" value="\(integrity)"/>
            </podcast:alternateEnclosure></item>
            </channel></rss>
            """
        server.route("/feed.xml") { request, _ in
            if request.headers["if-none-match"] == "\"f1\"" { return TestResponse(status: 304) }
            var response = TestResponse.ok(xml, type: "application/rss+xml")
            response.headers.append(("ETag", "\"f1\""))
            return response
        }
    }

    private func index() throws -> ArchiveIndex {
        try IndexFormat.decode(
            XCTUnwrap(
                FileManager.default.contents(
                    atPath: ArchiveLayout.indexFile(of: folder.url.appendingPathComponent("Flaky")).path)))
    }

    private var once: SyncOptions { SyncOptions(retry: RetryPolicy(retries: 0)) }

    func test_aMatchingFile_isKeptWithThePublishersHashRecorded() async throws {
        // Several values: an unknown algorithm and a weaker one are ignored; any value of the strongest matches.
        let value =
            "md5-AAAA sha256-\(Data(repeating: 1, count: 32).base64EncodedString()) "
            + "sha384-\(Data(repeating: 2, count: 48).base64EncodedString()) \(sri(.sha384, audio))?ct=audio/mpeg"
        serveFeed(integrity: value)
        server.route("/big.mp3", .ok(audio))
        var options = once
        options.metadata = true

        let report = try await sync(options)

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(report.failed.count, 0)
        XCTAssertEqual(archived, audio)
        let entry = try XCTUnwrap(index().episodes.first)
        XCTAssertEqual(entry.publisher?.integrity, value)
        XCTAssertNil(entry.publisher?.mismatch, "it matched")
        XCTAssertEqual(entry.publisher?.alternates?.first?.isDefault, true)
        let sidecar =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.url.appendingPathComponent("Flaky/Big one.info.json"))) as? [String: Any]
        let publisher = sidecar?["publisher"] as? [String: Any]
        XCTAssertEqual(publisher?["integrity"] as? String, value, "the sidecar carries the publisher's hash")
        XCTAssertEqual((publisher?["alternates"] as? [[String: Any]])?.first?["type"] as? String, "audio/mpeg")

        let verified = try await archiver().verify(folder.url, repair: false)
        XCTAssertEqual(verified.problems, [])
        XCTAssertEqual(verified.notes, 0)
    }

    func test_verify_checksTheRecordedHashToo() async throws {
        serveFeed(integrity: sri(.sha384, audio))
        server.route("/big.mp3", .ok(audio))
        _ = try await sync(once)
        // The recorded hash no longer describes the file (an index edited by hand, or a file changed along with
        // its recorded SHA-256): SHA-256 alone would not notice.
        let show = folder.url.appendingPathComponent("Flaky")
        var edited = try index()
        var entry = try XCTUnwrap(edited.episodes.first)
        entry.publisher?.integrity = sri(.sha384, Data(audio.reversed()))
        edited.record(entry)
        try IndexFormat.encode(edited).write(to: ArchiveLayout.indexFile(of: show))

        let verified = try await archiver().verify(folder.url, repair: false)
        XCTAssertEqual(verified.problems.map(\.kind), [.changed])
        XCTAssertEqual(verified.remaining, 1)
    }

    func test_aDifferingFile_failsTwiceNamingBothDigests_andIsKeptOnTheThirdRun() async throws {
        let published = Data(audio.reversed())  // what the publisher hashed; the host serves another file
        serveFeed(integrity: sri(.sha512, published))
        server.route("/big.mp3", .ok(audio))
        let expected = sri(.sha512, published)
        let received = sri(.sha512, audio)

        for run in 1...2 {
            let report = try await sync(once)
            XCTAssertEqual(report.archived.count, 0, "run \(run)")
            XCTAssertEqual(
                report.failed.first?.failure, .integrityMismatch(expected: expected, received: received), "run \(run)")
            XCTAssertTrue(report.failed.first?.failure.reason.contains(expected) == true)
            XCTAssertTrue(report.failed.first?.failure.reason.contains(received) == true)
            XCTAssertNil(archived, "a file that does not match is not kept (run \(run))")
            XCTAssertEqual(try index().failures.first?.publisher?.mismatches, run)
        }
        XCTAssertEqual(requests("/feed.xml").last?.headers["if-none-match"], "\"f1\"", "run 2 retried on a 304")

        let events = Locked<[SyncEvent]>([])
        let third = try await archiver().sync(
            .remote(server.url("/feed.xml")), into: folder.url, options: once,
            onEvent: { event in events.withLock { $0.append(event) } })

        XCTAssertEqual(third.archived.count, 1, "the third run that differs keeps the file")
        XCTAssertEqual(third.failed.count, 0)
        XCTAssertEqual(archived, audio)
        let kept = events.withLock { $0 }.filter {
            if case .integrityKept = $0 { return true }
            return false
        }
        XCTAssertEqual(kept.count, 1, "said once")
        let entry = try XCTUnwrap(index().episodes.first)
        XCTAssertEqual(entry.publisher?.mismatch, received)
        XCTAssertEqual(entry.sha256, SHA256.hex(audio))
        XCTAssertEqual(try index().failures, [])

        let notes = Locked<[String]>([])
        let verified = try await archiver().verify(folder.url, repair: false) { event in
            if case .note(_, let file, let reason) = event { notes.withLock { $0.append(file + ": " + reason) } }
        }
        XCTAssertEqual(verified.problems, [], "a file kept although it differs is no problem of the archive")
        XCTAssertEqual(verified.remaining, 0)
        XCTAssertEqual(verified.notes, 1)
        XCTAssertEqual(notes.withLock { $0 }.count, 1)
        XCTAssertTrue(notes.withLock { $0 }.first?.contains(received) == true)

        let fourth = try await sync(once)
        XCTAssertEqual(fourth.archived.count, 0, "an archived episode is not fetched again")
        XCTAssertEqual(fourth.failed.count, 0)
        XCTAssertEqual(requests("/big.mp3").count, 3)
    }

    func test_anotherFailureBetween_neitherCountsNorResetsTheDifferingRuns() async throws {
        let published = Data(audio.reversed())
        serveFeed(integrity: sri(.sha384, published))
        let audio = self.audio
        server.route("/big.mp3") { _, count in count == 1 ? .status(500, "boom") : .ok(audio) }

        _ = try await sync(once)  // differs
        let second = try await sync(once)  // 500
        XCTAssertEqual(second.failed.first?.failure, .httpStatus(500))
        XCTAssertEqual(try index().failures.first?.publisher?.mismatches, 1)
        _ = try await sync(once)  // differs: the second time
        XCTAssertNil(archived)
        let fourth = try await sync(once)  // differs: the third time, kept
        XCTAssertEqual(fourth.archived.count, 1)
    }

    func test_aMalformedHash_isSaidAndTheFileArchivedUnchecked() async throws {
        serveFeed(integrity: "sha384-not*base64 md5-AAAA")
        server.route("/big.mp3", .ok(audio))
        let said = Locked<[String]>([])

        let report = try await archiver().sync(
            .remote(server.url("/feed.xml")), into: folder.url, options: once,
            onEvent: { event in
                if case .integrityUnreadable(_, let value) = event { said.withLock { $0.append(value) } }
            })

        XCTAssertEqual(report.archived.count, 1, "nothing is lost to a hash that cannot be read")
        XCTAssertEqual(said.withLock { $0 }, ["sha384-not*base64 md5-AAAA"])
        XCTAssertNil(try index().episodes.first?.publisher?.integrity, "no hash was checked")
    }

    func test_aResumedDownload_isHashedWhole() async throws {
        serveFeed(integrity: sri(.sha384, audio))
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            var response = TestResponse.file(audio, for: request, etag: "\"v1\"")
            if count == 0 { response.cutAfter = 120_000 }
            return response
        }

        let report = try await sync()

        XCTAssertEqual(report.failed.map(\.failure), [])
        XCTAssertEqual(report.archived.count, 1, "the bytes kept from the first attempt are hashed too")
        XCTAssertEqual(requests("/big.mp3").last?.headers["range"], "bytes=120000-")
        XCTAssertNil(try index().episodes.first?.publisher?.mismatch)
    }
}
