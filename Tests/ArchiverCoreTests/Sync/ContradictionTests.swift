import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// A length announced for one version of a file holds: an answer under the same strong ETag that brings another
// size (a `200` to `If-Range` carrying only the rest of the file) is never kept, in that run or a later one; a
// Last-Modified date, which names no one version's bytes, decides no such thing.
@testable import ArchiverCore

final class ContradictionTests: LoopbackArchiveTestCase {
    private let once = SyncOptions(retry: RetryPolicy(retries: 0))

    private func failures(_ report: SyncReport) -> [String] {
        report.failed.map(\.failure.reason)
    }

    func test_aBodyContradictingTheLengthAnnouncedBefore_isReportedAsSuch() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { _, count in
            let headers = [("Content-Type", "audio/mpeg"), ("ETag", "\"v1\""), ("Accept-Ranges", "bytes")]
            switch count {
            case 0: return TestResponse(headers: headers, body: audio, cutAfter: 200_000)
            case 1, 2: return TestResponse(headers: headers, body: audio.suffix(from: 200_000))
            default: return TestResponse(headers: headers, body: audio)
            }
        }

        _ = try await sync(once)
        let second = try await sync(once)
        // The next run holds the answer to the same announcement: what caught the lie is not forgotten with it.
        let third = try await sync(once)
        let fourth = try await sync(once)

        let refusal =
            "the server announced 300000 bytes for this version of it (\"v1\") before, and 100000 now; not kept, "
            + "fetched again from its start"
        XCTAssertEqual(second.archived, [])
        XCTAssertEqual(failures(second), [refusal])
        XCTAssertEqual(third.archived, [], "the tail is never kept as the whole file")
        XCTAssertEqual(failures(third), [refusal])
        XCTAssertEqual(fourth.archived.count, 1)
        XCTAssertEqual(archived, audio)
    }

    /// A Last-Modified date (or a weak ETag) names no one version's bytes: servers that insert ads serve several
    /// sizes under one date. A whole body of another size under it is the file, not a contradiction.
    func test_anotherSizeUnderTheSameLastModified_isNoContradiction() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { _, count in
            let headers = [
                ("Content-Type", "audio/mpeg"), ("Last-Modified", "Fri, 10 Jan 2025 13:00:00 GMT"),
                ("Accept-Ranges", "bytes"),
            ]
            return count == 0
                ? TestResponse(headers: headers, body: audio, cutAfter: 200_000)
                : TestResponse(headers: headers, body: audio.prefix(250_000))
        }

        _ = try await sync(once)
        let second = try await sync(once)

        XCTAssertEqual(second.archived.count, 1, failures(second).joined())
        XCTAssertEqual(archived, audio.prefix(250_000))
    }
}
