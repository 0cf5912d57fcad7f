import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// An episode whose URL answers with the way to the media (a playlist, a torrent) and has no other file: recorded as
// such once, then neither asked for nor failed while the feed offers it there, whether the feed is read again or
// answers 304; a new URL, or retrying what was given up, asks again. On loopback with the live sessions.
@testable import ArchiverCore

final class NotMediaSyncTests: LoopbackArchiveTestCase {
    private let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg1.ts\n"

    private func failures() throws -> [ArchiveIndex.Failure] {
        try IndexFormat.decode(Data(contentsOf: folder.url.appendingPathComponent("Flaky/.podarchive/index.json")))
            .failures
    }

    func test_aPlaylistInPlaceOfTheEpisode_isRecordedOnce_andNotAskedAgainWhileTheFeedOffersItThere() async throws {
        serveFeed(etag: "\"f1\"")
        server.route("/big.mp3", .ok(playlist, type: "application/octet-stream"))
        var retryGone = SyncOptions()
        retryGone.retryGone = true

        let first = try await sync()
        let recorded = try failures()
        let unchanged = try await sync()
        let askedWhileUnchanged = requests("/big.mp3").count
        let retried = try await sync(retryGone)

        XCTAssertEqual(first.failed.map(\.failure), [.notMedia(.hls)])
        XCTAssertEqual(sleeper.delays, [], "not tried again within the run")
        XCTAssertEqual(recorded.map(\.notMedia), ["hls"])
        XCTAssertEqual(folder.visibleFiles(), [])
        XCTAssertTrue(unchanged.feedUnchanged, "the feed answered 304")
        XCTAssertEqual(unchanged.failed.count, 0, "not a failure of the run any more")
        XCTAssertEqual(askedWhileUnchanged, 1, "not asked again")
        XCTAssertEqual(retried.failed.map(\.failure), [.notMedia(.hls)], "retrying what was given up asks again")
        XCTAssertEqual(requests("/big.mp3").count, 2)
    }

    func test_aPlaylistInPlaceOfTheEpisode_isAskedAgainWhenTheFeedOffersAnotherURL() async throws {
        serveFeed()
        server.route("/big.mp3", .ok(playlist, type: "application/vnd.apple.mpegurl"))
        server.route("/fixed.mp3", .ok(audio))

        _ = try await sync()
        let readAgain = try await sync()
        serveFeed(enclosure: "/fixed.mp3")
        let moved = try await sync()

        XCTAssertEqual(readAgain.failed.count, 0)
        XCTAssertEqual(requests("/big.mp3").count, 1, "the feed read in full, the same URL: not asked again")
        XCTAssertEqual(moved.archived.count, 1)
        XCTAssertEqual(archived, audio)
        XCTAssertEqual(try failures(), [])
    }
}
