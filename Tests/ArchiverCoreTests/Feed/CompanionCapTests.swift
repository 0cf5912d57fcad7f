import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// Transcripts, chapters and artwork are held to their size cap while they stream, on loopback: a body without
// Content-Length, or compressed, that never ends is stopped at the cap (counted after decoding), its hidden file
// and record removed, reported once; the client hangs up, the episode is archived and the run ends. A companion
// that trickles forever is held to the episode's deadline. The cap is made small through the options: no test
// sends 20 MB.
//
// The endless servers send at a network's pace (16 MB/s, or 50 MB/s once decoded): one that outruns the client
// keeps corelibs from cancelling the task for as long as it does (see the README's notes on URLSession).
@testable import ArchiverCore

final class CompanionCapTests: LoopbackArchiveTestCase {
    /// The cap these tests give: 64 KB, four pieces of an endless plain body, a sixteenth of one compressed piece.
    private let cap: Int64 = 64 << 10
    private static let textPiece = Data(repeating: 0x41, count: 16 << 10)
    private let refusal = "it grew past the 64 KB it may be while it downloaded; stopped there, nothing kept"

    private func serveShow(transcripts: [String], artwork: String = "/cover.jpg", episodeArtwork: String? = nil) {
        // Each in a language of its own: one name each beside the episode.
        let links = zip(transcripts, ["en", "de", "fr"]).map { url, language in
            #"<podcast:transcript url="\#(url)" type="text/plain" language="\#(language)"/>"#
        }.joined()
        let xml = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel><title>Talk Show</title><itunes:image href="\(artwork)"/>
            <item><title>Pilot</title><guid>p1</guid><enclosure url="/pilot.mp3" type="audio/mpeg"/>
              \(episodeArtwork.map { "<itunes:image href=\"\($0)\"/>" } ?? "")\(links)
            </item></channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data("pilot audio".utf8)))
        server.route("/cover.jpg", .ok(Data("cover".utf8), type: "image/jpeg"))
    }

    /// Plain text without end, 16 KB a millisecond.
    private func endlessText(type: String = "text/plain") -> TestResponse {
        .endless(type: type, every: 0.001) { _ in Self.textPiece }
    }

    private func sync(
        _ options: SyncOptions, events: EventLog,
        timer: @escaping @Sendable (TimeInterval) async throws -> Void = noDeadline
    ) async throws -> SyncReport {
        let archiver = self.archiver(timer: timer)
        let (feed, root) = (server.url("/feed.xml"), folder.url)
        // A body that is never stopped would hold the run forever: that fails here instead.
        return try await withWatchdog(seconds: 30) {
            try await archiver.sync(.remote(feed), into: root, options: options, onEvent: { events.append($0) })
        }
    }

    private func capped(metadata: Bool = false) -> SyncOptions {
        var options = SyncOptions(metadata: metadata)
        options.companionMaximumBytes = cap
        return options
    }

    /// `path: reason` of each companion that was not kept.
    private func companionFailures(_ events: EventLog) -> [String] {
        events.all.compactMap { event in
            guard case .companionFailed(_, let url, let failure) = event else { return nil }
            return "\(url.replacingOccurrences(of: server.url("").absoluteString, with: "")): \(failure.reason)"
        }
    }

    /// Hidden files a download leaves behind: a partial body or its record.
    private var leftovers: [String] {
        folder.files().filter {
            $0.hasSuffix(".part") || $0.contains(".podarchive/download-")
                || $0.hasSuffix(".podarchive/" + ArchiveLayout.downloadLog)
        }
    }

    func test_chunkedTranscriptWithoutLength_isStoppedAtTheCap_andTheEpisodeIsArchived() async throws {
        serveShow(transcripts: ["/endless.txt"])
        server.route("/endless.txt", endlessText())
        let events = EventLog()

        let report = try await sync(capped(), events: events)

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Pilot.mp3"])
        XCTAssertTrue(report.failed.isEmpty, "a companion never fails its episode")
        XCTAssertEqual(companionFailures(events), ["/endless.txt: \(refusal)"])
        XCTAssertEqual(folder.visibleFiles(), ["Talk Show/Pilot.mp3"])
        XCTAssertEqual(leftovers, [], "neither the hidden file nor its download record is left")
        XCTAssertTrue(server.waitUntilHungUp(on: "/endless.txt"), "the client gave up on the body")
        XCTAssertLessThan(server.bytesSent("/endless.txt"), 8 << 20, "stopped near the cap, not read on")
    }

    func test_compressedTranscripts_areCountedDecoded_gzipAndDeflate() async throws {
        // 2 KB of gzip with its Content-Length, decoding to 2 MB: announced below the cap, past it on disk. Then two
        // bodies that never end, one in each encoding (6.6 KB sent for each 1 MB decoded).
        let compressed = Gzip.compress(Data(count: 2 << 20))
        serveShow(transcripts: ["/small.gz.txt", "/endless.gz.txt", "/endless.deflate.txt"])
        server.route(
            "/small.gz.txt",
            TestResponse(headers: [("Content-Type", "text/plain"), ("Content-Encoding", "gzip")], body: compressed))
        for (path, encoding) in [("/endless.gz.txt", "gzip"), ("/endless.deflate.txt", "deflate")] {
            let headers = [("Content-Encoding", encoding)]
            server.route(
                path,
                .endless(type: "text/plain", headers: headers, every: 0.02) {
                    EndlessDeflate.piece($0, encoding: encoding)
                })
        }
        let events = EventLog()

        let report = try await sync(capped(), events: events)

        XCTAssertLessThan(Int64(compressed.count), cap)
        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Pilot.mp3"])
        XCTAssertEqual(
            companionFailures(events).sorted(),
            ["/endless.deflate.txt: \(refusal)", "/endless.gz.txt: \(refusal)", "/small.gz.txt: \(refusal)"])
        XCTAssertEqual(server.bytesSent("/small.gz.txt"), compressed.count)
        XCTAssertEqual(folder.visibleFiles(), ["Talk Show/Pilot.mp3"])
        XCTAssertEqual(leftovers, [])
        XCTAssertTrue(server.waitUntilHungUp(on: "/endless.gz.txt"))
        XCTAssertTrue(server.waitUntilHungUp(on: "/endless.deflate.txt"))
    }

    func test_artworkOverTheCap_theShowsAndAnEpisodes_isStopped_andTheRunGoesOn() async throws {
        serveShow(transcripts: [], artwork: "/endless-cover.jpg", episodeArtwork: "/endless-pilot.png")
        server.route("/endless-cover.jpg", endlessText(type: "image/jpeg"))
        server.route("/endless-pilot.png", endlessText(type: "image/png"))
        let events = EventLog()

        let report = try await sync(capped(metadata: true), events: events)

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Pilot.mp3"])
        XCTAssertTrue(report.failed.isEmpty)
        XCTAssertEqual(report.artworkFailure, refusal)
        let artworkFailures = events.all.filter {
            if case .artworkFailed = $0 { return true }
            return false
        }
        XCTAssertEqual(artworkFailures.count, 1)
        XCTAssertEqual(companionFailures(events), ["/endless-pilot.png: \(refusal)"])
        XCTAssertEqual(folder.visibleFiles(), ["Talk Show/Pilot.info.json", "Talk Show/Pilot.mp3"])
        XCTAssertEqual(leftovers, [])
        XCTAssertTrue(server.waitUntilHungUp(on: "/endless-cover.jpg"))
        XCTAssertTrue(server.waitUntilHungUp(on: "/endless-pilot.png"))
    }

    func test_aTranscriptAnnouncedOverTheCap_isRefusedBeforeItsBody() async throws {
        serveShow(transcripts: ["/announced.txt"])
        server.route("/announced.txt", .ok(Data(repeating: 0x41, count: Int(cap) + 1), type: "text/plain"))
        let events = EventLog()

        _ = try await sync(capped(), events: events)

        XCTAssertEqual(
            companionFailures(events),
            ["/announced.txt: it is 65537 bytes, more than the 64 KB it may be; not downloaded"])
        XCTAssertEqual(leftovers, [], "not even the empty file the download opened")
    }

    func test_aTranscriptThatTricklesForever_isHeldToTheEpisodesDeadline() async throws {
        serveShow(transcripts: ["/slow.txt"])
        server.route("/slow.txt", .endless(type: "text/plain", every: 0.05) { _ in Data(repeating: 0x41, count: 100) })
        let server = self.server!
        let events = EventLog()

        // Every deadline passes once 1,000 bytes of the transcript went out: the feed's and the episode's are over
        // long before; the transcript's is not (far below the cap, it never ends).
        let report = try await sync(
            SyncOptions(episodeTimeout: 0.6), events: events,
            timer: { _ in try await server.sent(1_000, of: "/slow.txt") })

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Pilot.mp3"])
        XCTAssertEqual(companionFailures(events), ["/slow.txt: \(EpisodeFailure.timedOut(0.6).reason)"])
        XCTAssertEqual(folder.visibleFiles(), ["Talk Show/Pilot.mp3"])
        XCTAssertTrue(server.waitUntilHungUp(on: "/slow.txt"), "the transfer was cancelled")
    }
}
