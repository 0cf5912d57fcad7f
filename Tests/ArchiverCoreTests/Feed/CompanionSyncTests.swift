import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// Transcripts, chapters and episode artwork kept beside the episodes, on loopback: fetched through the episode
// path, named after the episode's file, recorded and rechecked; one that fails never fails its episode.
@testable import ArchiverCore

final class CompanionSyncTests: LoopbackArchiveTestCase {
    private func showXML(extraItems: String = "", transcripts: String) -> String {
        """
        <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
             xmlns:podcast="https://podcastindex.org/namespace/1.0" xmlns:psc="http://podlove.org/simple-chapters">
        <channel><title>Talk Show</title><itunes:image href="/cover.jpg"/>
        <item><title>Pilot</title><guid>p1</guid><pubDate>Fri, 10 Jan 2025 13:00:00 GMT</pubDate>
          <enclosure url="/pilot.mp3" type="audio/mpeg"/><itunes:image href="/pilot.png"/>
          \(transcripts)
          <psc:chapters><psc:chapter start="0" title="Hello"/><psc:chapter start="1:00" title="Bye"/></psc:chapters>
        </item>\(extraItems)
        </channel></rss>
        """
    }

    private func serveShow(extraItems: String = "", transcripts: String) {
        let xml = showXML(extraItems: extraItems, transcripts: transcripts)
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data("pilot audio".utf8)))
        server.route(
            "/pilot.png",
            .ok(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("art".utf8), type: "image/png"))
        server.route("/cover.jpg", .ok(Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("cover".utf8), type: "image/jpeg"))
    }

    private func sync(_ options: SyncOptions = SyncOptions(), events: EventLog? = nil) async throws -> SyncReport {
        try await archiver().sync(
            .remote(server.url("/feed.xml")), into: folder.url, options: options, onEvent: { events?.append($0) })
    }

    func test_transcriptsChaptersAndArtwork_areKeptBesideTheEpisode_recordedAndDated() async throws {
        serveShow(
            transcripts: """
                <podcast:transcript url="/pilot.srt" type="application/srt" language="en"/>
                <podcast:transcript url="/pilot.vtt" type="text/vtt" language="de"/>
                <podcast:transcript url="/pilot.html" type="text/html"/>
                """)
        server.route("/pilot.srt", .ok("1\n00:00:00,000 --> 00:00:01,000\nHello\n", type: "application/x-subrip"))
        server.route("/pilot.vtt", .ok("WEBVTT\n\n00:00.000 --> 00:01.000\nHallo\n", type: "text/vtt"))
        server.route("/pilot.html", .ok("<html><body><p>Hello</p></body></html>", type: "text/html"))
        var options = SyncOptions()
        options.metadata = true

        let report = try await sync(options)

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Pilot.mp3"])
        XCTAssertEqual(
            folder.visibleFiles(),
            [
                "Talk Show/Pilot.chapters.json", "Talk Show/Pilot.de.vtt", "Talk Show/Pilot.en.srt",
                "Talk Show/Pilot.info.json", "Talk Show/Pilot.mp3", "Talk Show/Pilot.png",
                "Talk Show/Pilot.transcript.html.txt", "Talk Show/cover.jpg",
            ])
        let srt = folder.url.appendingPathComponent("Talk Show/Pilot.en.srt")
        let date = try FileManager.default.attributesOfItem(atPath: srt.path)[.modificationDate] as? Date
        XCTAssertEqual(date, FeedDate.parseRFC822("Fri, 10 Jan 2025 13:00:00 GMT"), "dated like its episode")
        let index = try IndexFormat.decode(
            Data(contentsOf: folder.url.appendingPathComponent("Talk Show/.podarchive/index.json")))
        let kept = try XCTUnwrap(index.episodes.first?.companions)
        XCTAssertEqual(
            kept.map(\.file).sorted(),
            [
                "Pilot.chapters.json", "Pilot.de.vtt", "Pilot.en.srt", "Pilot.png", "Pilot.transcript.html.txt",
            ])
        XCTAssertEqual(
            kept.first { $0.file == "Pilot.en.srt" }?.sha256,
            SHA256.hex(Data("1\n00:00:00,000 --> 00:00:01,000\nHello\n".utf8)))
        let sidecar =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: folder.url.appendingPathComponent("Talk Show/Pilot.info.json")))
            as? [String: Any]
        let listed = (sidecar?["companions"] as? [[String: Any]])?.compactMap { $0["file"] as? String }
        XCTAssertEqual(listed?.sorted(), kept.map(\.file).sorted(), "the sidecar lists them")

        // One deleted by hand is fetched again by the next sync that reads the feed.
        try FileManager.default.removeItem(at: srt)
        _ = try await sync(options)
        XCTAssertTrue(FileManager.default.fileExists(atPath: srt.path))
    }

    func test_failingCompanions_areReported_theEpisodeIsArchived_andTheyAreTriedAgain() async throws {
        serveShow(
            transcripts: """
                <podcast:transcript url="/missing.srt" type="application/srt" language="en"/>
                <podcast:transcript url="/error-page.srt" type="application/srt" language="fr"/>
                <podcast:transcript url="/huge.txt" type="text/plain"/>
                <podcast:transcript url="ftp://127.0.0.1/pilot.vtt" type="text/vtt" language="de"/>
                """)
        server.route("/missing.srt", .status(404))
        server.route("/error-page.srt", .ok("<html><body>Log in</body></html>", type: "text/html"))
        server.route("/huge.txt", .ok(Data(repeating: 0x41, count: 21 << 20), type: "text/plain"))
        let events = EventLog()

        let report = try await sync(events: events)
        server.route("/missing.srt", .ok("1\n00:00:00,000 --> 00:00:01,000\nBack\n", type: "application/srt"))
        let again = try await sync()

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Pilot.mp3"])
        XCTAssertTrue(report.failed.isEmpty, "a companion never fails its episode")
        let failures = events.all.compactMap { event -> String? in
            if case .companionFailed(_, let url, let failure) = event { return "\(url): \(failure.reason)" }
            return nil
        }
        XCTAssertEqual(failures.count, 4, "\(failures)")
        XCTAssertTrue(failures.contains { $0.hasSuffix("/missing.srt: server answered HTTP 404") }, "\(failures)")
        XCTAssertTrue(
            failures.contains { $0.hasSuffix("/error-page.srt: server sent an HTML page instead of media") },
            "\(failures)")
        XCTAssertTrue(
            failures.contains { $0.contains("/huge.txt: it is 22020096 bytes, more than the 20 MB it may be") },
            "\(failures)")
        // "it is N bytes" is the refusal on its Content-Length, before the body (how many bytes loopback's socket
        // buffers took meanwhile is the kernel's business, not podarchive's: CompanionCapTests measure the stop).
        XCTAssertTrue(failures.contains { $0.hasPrefix("ftp://127.0.0.1/pilot.vtt: ftp: URLs are not downloaded") })
        XCTAssertTrue(again.archived.isEmpty)
        XCTAssertTrue(folder.visibleFiles().contains("Talk Show/Pilot.en.srt"), "tried again and kept")
        XCTAssertFalse(folder.visibleFiles().contains { $0.contains("huge") || $0.contains("Pilot.transcript.txt") })
        XCTAssertEqual(folder.files().filter { $0.hasSuffix(".part") }, [], "nothing half-fetched left behind")
    }

    func test_verify_findsADamagedTranscript() async throws {
        serveShow(transcripts: #"<podcast:transcript url="/pilot.srt" type="application/srt" language="en"/>"#)
        server.route("/pilot.srt", .ok("1\n00:00:00,000 --> 00:00:01,000\nHello\n", type: "application/srt"))
        _ = try await sync()
        try Data("1\n00:00:00,000 --> 00:00:01,000\nHellp\n".utf8).write(
            to: folder.url.appendingPathComponent("Talk Show/Pilot.en.srt"))

        let report = try await archiver().verify(folder.url, repair: false)

        XCTAssertEqual(report.problems.map(\.file), ["Pilot.en.srt"])
        XCTAssertEqual(report.problems.map(\.kind), [.changed])
        XCTAssertEqual(report.remaining, 1)
    }

    func test_repair_fetchesADamagedTranscriptAgain() async throws {
        serveShow(transcripts: #"<podcast:transcript url="/pilot.srt" type="application/srt" language="en"/>"#)
        let text = "1\n00:00:00,000 --> 00:00:01,000\nHello\n"
        server.route("/pilot.srt", .ok(text, type: "application/srt"))
        _ = try await sync()
        let file = folder.url.appendingPathComponent("Talk Show/Pilot.en.srt")
        try Data("damaged".utf8).write(to: file)

        let repaired = try await archiver().verify(folder.url, repair: true)
        let after = try await archiver().verify(folder.url, repair: false)

        XCTAssertEqual(repaired.repaired.map(\.file), ["Pilot.en.srt"])
        XCTAssertEqual(try Data(contentsOf: file), Data(text.utf8))
        XCTAssertEqual(after.problems, [])
        XCTAssertEqual(folder.files().filter { $0.contains("damaged-") || $0.hasSuffix(".part") }, [])
    }

    func test_noCompanions_keepsNone() async throws {
        serveShow(transcripts: #"<podcast:transcript url="/pilot.srt" type="application/srt" language="en"/>"#)
        var options = SyncOptions()
        options.companions = false

        _ = try await sync(options)

        XCTAssertEqual(folder.visibleFiles(), ["Talk Show/Pilot.mp3"])
        XCTAssertFalse(server.requestedPaths.contains("/pilot.srt"))
    }

    func test_aCompanionNotThereOnThreeRunsInARow_isGivenUpOnce_leavesNoPart_andTheFeedIsFetchedConditionallyAgain()
        async throws
    {
        let transcript = #"<podcast:transcript url="/gone.srt" type="application/srt" language="en"/>"#
        serveShow(transcripts: transcript)
        // The feed with an ETag, answering 304 to it: what a sync of a settled show asks.
        let xml = Data(showXML(transcripts: transcript).utf8)
        server.route("/feed.xml") { request, _ in
            request.headers["if-none-match"] == "\"v1\""
                ? TestResponse(status: 304, headers: [("ETag", "\"v1\"")], body: Data())
                : TestResponse(
                    status: 200, headers: [("Content-Type", "application/rss+xml"), ("ETag", "\"v1\"")], body: xml)
        }
        server.route("/gone.srt", .status(404, "not here"))
        var outcomes: [[String]] = []
        for _ in 0..<4 {
            let events = EventLog()
            _ = try await sync(events: events)
            outcomes.append(
                events.all.compactMap { event in
                    switch event {
                    case .companionFailed: return "failed"
                    case .companionGivenUp: return "given up"
                    default: return nil
                    }
                })
        }

        XCTAssertEqual(outcomes, [["failed"], ["failed"], ["given up"], []])
        XCTAssertEqual(server.requestedPaths.filter { $0 == "/gone.srt" }.count, 3, "not asked for again")
        let state = folder.url.appendingPathComponent("Talk Show/.podarchive")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: state.path).filter {
            $0.hasSuffix(".part") || ArchiveNames.isDownloadRecord($0)
        }
        XCTAssertEqual(leftovers, [], "nothing of a missing companion is kept")
        XCTAssertEqual(
            server.requests.last { $0.path == "/feed.xml" }?.headers["if-none-match"], "\"v1\"",
            "settled: the feed is asked for conditionally again")
    }

    func test_everyTranscriptIsKept_underANameOfItsOwn_andChaptersThatAreNotChaptersAreGivenUpOnce() async throws {
        let second = """
            <item><title>Second</title><guid>s2</guid><enclosure url="/second.mp3" type="audio/mpeg"/>
              <podcast:chapters url="/truncated.json" type="application/json+chapters"/></item>
            <item><title>Third</title><guid>s3</guid><enclosure url="/third.mp3" type="audio/mpeg"/>
              <podcast:chapters url="/deep.json" type="application/json+chapters"/></item>
            """
        serveShow(
            extraItems: second,
            transcripts: """
                <podcast:transcript url="/a.vtt" type="text/vtt" language="en"/>
                <podcast:transcript url="/captions.vtt" type="text/vtt" language="en" rel="captions"/>
                <podcast:transcript url="/b.vtt" type="text/vtt" language="en"/>
                """)
        for name in ["a", "captions", "b"] {
            server.route("/\(name).vtt", .ok("WEBVTT\n\n00:00.000 --> 00:01.000\n\(name)\n", type: "text/vtt"))
        }
        server.route("/second.mp3", .ok(Data("second".utf8)))
        server.route("/third.mp3", .ok(Data("third".utf8)))
        server.route(
            "/truncated.json", .ok(#"{"version": "1.2.0", "chapters": [{"startTime": 0, "ti"#, type: "application/json")
        )
        server.route(
            "/deep.json",
            .ok(
                #"{"chapters": [{"startTime": 0, "deep": "# + String(repeating: "[", count: 100_000)
                    + String(repeating: "]", count: 100_000) + "}]}",
                type: "application/json"))
        let events = EventLog()

        _ = try await sync(events: events)
        let again = EventLog()
        _ = try await sync(events: again)

        let show = folder.url.appendingPathComponent("Talk Show")
        for (name, text) in [("Pilot.en.vtt", "a"), ("Pilot.captions.en.vtt", "captions"), ("Pilot.en.2.vtt", "b")] {
            XCTAssertEqual(
                try String(contentsOf: show.appendingPathComponent(name), encoding: .utf8),
                "WEBVTT\n\n00:00.000 --> 00:01.000\n\(text)\n", name)
        }
        let givenUp = events.all.compactMap { event -> String? in
            if case .companionGivenUp(_, let url, let reason) = event { return "\(url): \(reason)" }
            return nil
        }
        XCTAssertEqual(givenUp.count, 2, "\(givenUp)")
        XCTAssertTrue(
            givenUp.contains {
                $0.hasSuffix(
                    "truncated.json: not a valid chapters document: it is not a whole JSON document (truncated?)")
            }, "\(givenUp)")
        XCTAssertTrue(
            givenUp.contains {
                $0.hasSuffix("deep.json: not a valid chapters document: it nests deeper than 32 levels")
            }, "\(givenUp)")
        XCTAssertFalse(
            folder.visibleFiles().contains { $0.contains("Second.chapters") || $0.contains("Third.chapters") })
        XCTAssertEqual(server.requestedPaths.filter { $0.hasSuffix(".json") }.count, 2, "said and fetched once")
        XCTAssertFalse(again.all.contains { if case .companionGivenUp = $0 { return true } else { return false } })
    }

    /// Artwork that answers with a torrent is not kept, and given up at once, as a chapters document that is none; a
    /// transcript whose type is text is what its type says, whatever its first bytes.
    func test_artworkAnsweringWithATorrent_isGivenUpOnce_aTextTranscriptIsWhatItsTypeSays() async throws {
        serveShow(transcripts: #"<podcast:transcript url="/pilot.txt" type="text/plain"/>"#)
        let playlistLike = "#EXTM3U\n#EXT-X-VERSION:3\n(the show's own notes on its stream)\n"
        server.route("/pilot.txt", .ok(playlistLike, type: "text/plain"))
        server.route(
            "/pilot.png", .ok(Data("d8:announce9:udp://x:14:infod6:lengthi1eee".utf8), type: "application/x-bittorrent")
        )
        var options = SyncOptions()
        options.metadata = true
        let events = EventLog()

        _ = try await sync(options, events: events)
        let again = EventLog()
        _ = try await sync(options, events: again)

        let givenUp = events.all.compactMap { event -> String? in
            if case .companionGivenUp(_, let url, let reason) = event { return "\(url): \(reason)" }
            return nil
        }
        XCTAssertEqual(
            givenUp, [server.url("/pilot.png").absoluteString + ": it is a BitTorrent file, not the episode's media"])
        XCTAssertFalse(folder.visibleFiles().contains("Talk Show/Pilot.png"), "\(folder.visibleFiles())")
        XCTAssertEqual(
            FileManager.default.contents(
                atPath: folder.url.appendingPathComponent("Talk Show/Pilot.transcript.txt").path),
            Data(playlistLike.utf8), "\(folder.visibleFiles())")
        XCTAssertEqual(server.requestedPaths.filter { $0 == "/pilot.png" }.count, 1, "given up, not asked again")
        XCTAssertFalse(again.all.contains { if case .companionGivenUp = $0 { return true } else { return false } })
    }
}
