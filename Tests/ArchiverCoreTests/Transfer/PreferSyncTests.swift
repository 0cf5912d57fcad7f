import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// `--prefer` on loopback with the live downloader: the alternate is archived from the first of its http(s) sources
// that gives it (another scheme skipped and said once, a 404 passed over), checked against its own hash, recorded
// as the choice; a later change of preference fetches nothing already archived.
@testable import ArchiverCore

final class PreferSyncTests: LoopbackArchiveTestCase {
    private let opus = Data((0..<90_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ 5) })

    private var opusSRI: String {
        var hasher = SHA256()
        hasher.update(opus)
        return "sha256-" + Data(hasher.finalize()).base64EncodedString()
    }

    private func serveFeed() {
        let xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Flaky</title>
            <item><title>Big one</title><guid>big</guid><enclosure url="/big.mp3" type="audio/mpeg"/>
            <podcast:alternateEnclosure type="audio/opus" codecs="opus" length="\(opus.count)">
            <podcast:source uri="ipfs://QmOpus"/>
            <podcast:source uri="\(server.url("/gone.opus").absoluteString)"/>
            <podcast:source uri="\(server.url("/e.opus").absoluteString)"/>
            <podcast:integrity type="sri" value="\(opusSRI)"/>
            </podcast:alternateEnclosure></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/big.mp3", .ok(audio))
        server.route("/e.opus", .ok(opus))
    }

    func test_prefer_archivesTheAlternateFromItsFirstWorkingSource_andAChangeFetchesNothingAgain() async throws {
        serveFeed()
        var options = SyncOptions(retry: RetryPolicy(retries: 0))
        options.prefer = ["audio/opus"]
        let events = Locked<[SyncEvent]>([])

        let report = try await archiver().sync(
            .remote(server.url("/feed.xml")), into: folder.url, options: options,
            onEvent: { event in events.withLock { $0.append(event) } })

        XCTAssertEqual(report.failed.count, 0)
        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Big one.opus"])
        XCTAssertEqual(try Data(contentsOf: try XCTUnwrap(report.archived.first)), opus)
        XCTAssertEqual(requests("/gone.opus").count, 1, "the 404 source was tried first")
        XCTAssertEqual(requests("/e.opus").count, 1)
        XCTAssertEqual(requests("/big.mp3").count, 0, "the enclosure is not fetched")
        let skipped = events.withLock { $0 }.compactMap { event -> [String]? in
            if case .sourcesSkipped(_, let sources) = event { return sources }
            return nil
        }
        XCTAssertEqual(skipped, [["ipfs://QmOpus"]], "said once")
        let index = try IndexFormat.decode(
            Data(contentsOf: ArchiveLayout.indexFile(of: folder.url.appendingPathComponent("Flaky"))))
        let entry = try XCTUnwrap(index.episodes.first)
        XCTAssertEqual(entry.key, "big", "the identity stays the episode's")
        XCTAssertEqual(entry.publisher?.chosen, "audio/opus")
        XCTAssertEqual(entry.publisher?.source, server.url("/e.opus").absoluteString)
        XCTAssertNotNil(entry.publisher?.integrity, "checked against the alternate's own hash")
        XCTAssertNil(entry.publisher?.mismatch)

        options.prefer = ["audio/mpeg"]
        let again = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: options)
        options.prefer = []
        let plain = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: options)

        XCTAssertEqual(again.archived, [])
        XCTAssertEqual(plain.archived, [])
        XCTAssertEqual(again.alreadyArchived + plain.alreadyArchived, 2)
        XCTAssertEqual(requests("/big.mp3").count, 0, "a changed preference downloads nothing already archived")
        XCTAssertEqual(requests("/e.opus").count, 1)
    }

    func test_anAlternateWhoseSourcesAllFail_failsLikeAnyEpisode() async throws {
        serveFeed()
        server.route("/e.opus", .status(404, "no"))
        var options = SyncOptions(retry: RetryPolicy(retries: 0))
        options.prefer = ["opus"]

        let report = try await sync(options)

        XCTAssertEqual(report.archived, [])
        XCTAssertEqual(report.failed.map(\.failure), [.httpStatus(404)])
        XCTAssertEqual(requests("/gone.opus").count + requests("/e.opus").count, 2)
        XCTAssertEqual(requests("/big.mp3").count, 0)
    }
}
