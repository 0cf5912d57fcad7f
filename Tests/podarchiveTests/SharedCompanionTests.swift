import Foundation
import TestSupport
import XCTest

// A companion several episodes name (one transcript, chapters document and image URL for three episodes), end to
// end on loopback: fetched once, kept for each episode as a file of its own, the run exits 0, later runs fetch
// nothing again, and verify checks each copy.
@testable import ArchiverCore
@testable import podarchive

final class SharedCompanionTests: CommandLineTestCase {
    private let transcript = "WEBVTT\n\n00:00.000 --> 00:01.000\nOne transcript for the whole series\n"
    private let chapters = #"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Intro"}]}"#
    private let image = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("series art".utf8)
    private var show: URL { folder.url.appendingPathComponent("archive/Series") }

    /// A feed of `titles`, each episode naming the same transcript, chapters and image URLs.
    private func serve(_ titles: [String]) {
        let items = titles.map { title in
            """
            <item><title>\(title)</title><guid>\(title)</guid><pubDate>Fri, 10 Jan 2025 13:00:00 GMT</pubDate>
              <enclosure url="/\(Self.path(title))" type="audio/mpeg"/><itunes:image href="/series.png"/>
              <podcast:transcript url="/series.vtt" type="text/vtt" language="en"/>
              <podcast:chapters url="/series-chapters.json" type="application/json+chapters"/>
            </item>
            """
        }
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                     xmlns:podcast="https://podcastindex.org/namespace/1.0">
                <channel><title>Series</title>\(items.joined())</channel></rss>
                """, type: "application/rss+xml"))
        for title in titles { server.route("/\(Self.path(title))", .ok(Data("audio of \(title)".utf8))) }
        server.route("/series.vtt", .ok(transcript, type: "text/vtt"))
        server.route("/series-chapters.json", .ok(chapters, type: "application/json+chapters"))
        server.route("/series.png", .ok(image, type: "image/png"))
    }

    private static func path(_ title: String) -> String { title.replacingOccurrences(of: " ", with: "-") + ".mp3" }

    private func sync() async -> ExitCode {
        await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--metadata")
    }

    private func companionRequests() -> [String] {
        server.requestedPaths.filter { ["/series.vtt", "/series-chapters.json", "/series.png"].contains($0) }.sorted()
    }

    private func assertKept(for titles: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        for title in titles {
            for (name, bytes) in [
                ("\(title).en.vtt", Data(transcript.utf8)), ("\(title).chapters.json", Data(chapters.utf8)),
                ("\(title).png", image),
            ] {
                XCTAssertEqual(
                    FileManager.default.contents(atPath: show.appendingPathComponent(name).path), bytes, name,
                    file: file, line: line)
            }
        }
        let index = try IndexFormat.decode(Data(contentsOf: show.appendingPathComponent(".podarchive/index.json")))
        for title in titles {
            let entry = try XCTUnwrap(index.episodes.first { $0.file == "\(title).mp3" }, file: file, line: line)
            XCTAssertEqual(
                Set((entry.companions ?? []).map(\.file)),
                ["\(title).en.vtt", "\(title).chapters.json", "\(title).png"], "each its own file", file: file,
                line: line)
            XCTAssertEqual(
                entry.companions?.first { $0.kind == "transcript" }?.sha256, SHA256.hex(Data(transcript.utf8)),
                file: file, line: line)
        }
    }

    func test_threeEpisodesNamingOneTranscriptChaptersAndImage_fetchEachOnce_keepEachForEach_exit0() async throws {
        serve(["Ep 1", "Ep 2", "Ep 3"])

        let first = await sync()

        XCTAssertEqual(first, .success, errors.text)
        XCTAssertEqual(errors.text, "")
        try assertKept(for: ["Ep 1", "Ep 2", "Ep 3"])
        XCTAssertEqual(
            companionRequests(), ["/series-chapters.json", "/series.png", "/series.vtt"], "each URL fetched once")
        XCTAssertEqual(folder.files().filter { $0.contains(".tmp-") || $0.hasSuffix(".part") }, [])

        // Later runs (the feed read in full again) fetch nothing again, and verify checks every copy.
        let second = await sync()
        let verified = await run("verify", "archive")

        XCTAssertEqual(second, .success, errors.text)
        XCTAssertEqual(companionRequests().count, 3, "nothing fetched again")
        XCTAssertEqual(verified, .success, errors.text)
        XCTAssertTrue(output.text.contains("verified 12 files in 1 feed: all intact"), output.text)
    }

    func test_aNewEpisodeNamingACompanionAlreadyKept_getsACopy_andNothingIsFetched() async throws {
        serve(["Ep 1"])
        let earlier = await sync()
        XCTAssertEqual(earlier, .success, errors.text)
        serve(["Ep 1", "Ep 2"])

        let code = await sync()

        XCTAssertEqual(code, .success, errors.text)
        try assertKept(for: ["Ep 1", "Ep 2"])
        XCTAssertEqual(companionRequests().count, 3, "each fetched once, by the first run")
    }

    func test_aKeptCopyThatIsDamaged_isNotCopied_theCompanionIsFetchedAgain() async throws {
        serve(["Ep 1"])
        let earlier = await sync()
        XCTAssertEqual(earlier, .success, errors.text)
        try Data("damaged".utf8).write(to: show.appendingPathComponent("Ep 1.en.vtt"))
        serve(["Ep 1", "Ep 2"])

        let code = await sync()

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(
            FileManager.default.contents(atPath: show.appendingPathComponent("Ep 2.en.vtt").path),
            Data(transcript.utf8), "fetched, not copied from the damaged file")
        XCTAssertEqual(companionRequests().filter { $0 == "/series.vtt" }.count, 2)
    }
}
