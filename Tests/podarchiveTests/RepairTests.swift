import Foundation
import TestSupport
import XCTest

// `verify --repair` through the command line on a real archive: a repaired episode keeps everything that belongs
// to it (companions, sidecar, artwork, dates, its index entry), and two index entries that name one file are
// named by `verify` and left untouched by `--repair`, never one episode written over the other.
@testable import ArchiverCore
@testable import podarchive

final class RepairTests: CommandLineTestCase {
    private var show: URL { folder.url.appendingPathComponent("archive/Talk Show") }
    private var indexURL: URL { show.appendingPathComponent(".podarchive/index.json") }
    private let published = Date(timeIntervalSince1970: 1_736_514_000)  // Fri, 10 Jan 2025 13:00:00 GMT

    private func serveShow() {
        let xml = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0">
            <channel><title>Talk Show</title><itunes:image href="/cover.jpg"/>
            <item><title>Pilot</title><guid>p1</guid><pubDate>Fri, 10 Jan 2025 13:00:00 GMT</pubDate>
              <description>Show notes</description>
              <enclosure url="/pilot.mp3" type="audio/mpeg"/><itunes:image href="/pilot.png"/>
              <podcast:transcript url="/pilot.srt" type="application/srt" language="en"/>
              <podcast:chapters url="/pilot-chapters.json" type="application/json+chapters"/>
            </item>
            <item><title>Second</title><guid>p2</guid><enclosure url="/second.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data("pilot audio".utf8)))
        server.route("/second.mp3", .ok(Data("second audio".utf8)))
        server.route(
            "/pilot.png",
            .ok(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data("art".utf8), type: "image/png"))
        server.route("/cover.jpg", .ok(Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data("cover".utf8), type: "image/jpeg"))
        server.route("/pilot.srt", .ok("1\n00:00:00,000 --> 00:00:01,000\nHello\n", type: "application/x-subrip"))
        server.route(
            "/pilot-chapters.json",
            .ok(#"{"version":"1.2.0","chapters":[{"startTime":0,"title":"Hello"}]}"#, type: "application/json"))
    }

    private func modified(_ name: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: show.appendingPathComponent(name).path)[.modificationDate]
            as? Date
    }

    private func contents() -> [String: Data] {
        Dictionary(
            uniqueKeysWithValues: folder.visibleFiles().map {
                ($0, FileManager.default.contents(atPath: folder.url.appendingPathComponent($0).path) ?? Data())
            })
    }

    func test_repairOfAnEpisode_keepsItsCompanionsSidecarArtworkDatesAndEntry() async throws {
        serveShow()
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--metadata")
        XCTAssertEqual(synced, .success, errors.text)
        let before = try IndexFormat.decode(Data(contentsOf: indexURL))
        let pilot = try XCTUnwrap(before.episodes.first { $0.key == "p1" })
        XCTAssertEqual(
            pilot.companions?.map(\.file).sorted(), ["Pilot.chapters.json", "Pilot.en.srt", "Pilot.png"],
            "kept when archived")
        let files = contents()
        let sidecarDate = try modified("Pilot.info.json")
        try Data("pilot audiO".utf8).write(to: show.appendingPathComponent("Pilot.mp3"))
        output.clear()
        let requests = server.requests.count

        let repair = await run("verify", "archive", "--repair")

        XCTAssertEqual(repair, .success, errors.text)
        XCTAssertEqual(
            output.lines.suffix(2),
            ["repaired Talk Show/Pilot.mp3", "verified 5 files in 1 feed: 1 problem, 1 repaired"])
        XCTAssertEqual(
            server.requests.dropFirst(requests).map(\.path), ["/pilot.mp3"], "only the damaged file is fetched")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: show.appendingPathComponent(".podarchive/index.journal").path),
            "the repair's record is folded into index.json")
        let after = try IndexFormat.decode(Data(contentsOf: indexURL))
        XCTAssertEqual(after.episodes, before.episodes, "every entry as it was: companions, dates, key, title")
        XCTAssertEqual(contents(), files, "every file as it was, the repaired one as archived")
        XCTAssertEqual(try modified("Pilot.mp3"), published, "dated like the episode")
        XCTAssertEqual(try modified("Pilot.info.json"), sidecarDate)

        // The next sync finds everything kept: nothing fetched again, nothing "exists already".
        output.clear()
        errors.clear()
        let again = await run("sync", "--to", "archive", "--metadata", "--verbose")
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(errors.text, "")
        XCTAssertFalse(output.text.contains("not kept"), output.text)
        XCTAssertEqual(try IndexFormat.decode(Data(contentsOf: indexURL)).episodes, before.episodes)
        output.clear()
        let verify = await run("verify", "archive")
        XCTAssertEqual(verify, .success)
        XCTAssertEqual(output.lines, ["verified 5 files in 1 feed: all intact"])
    }

    /// The show archived, then its index edited as `edit` says (a hand edit, a bad merge).
    private func archiveWithEditedIndex(_ edit: (String) -> String) async throws -> String {
        serveShow()
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive")
        XCTAssertEqual(synced, .success, errors.text)
        let text = try String(contentsOf: indexURL, encoding: .utf8)
        let edited = edit(text)
        XCTAssertNotEqual(edited, text)
        try Data(edited.utf8).write(to: indexURL)
        output.clear()
        errors.clear()
        return edited
    }

    func test_twoEntriesNamingOneFile_areNamedByVerify_andRepairTouchesNeither() async throws {
        let index = try await archiveWithEditedIndex {
            $0.replacingOccurrences(of: #""file": "Second.mp3""#, with: #""file": "Pilot.mp3""#)
        }
        let files = contents()
        let requests = server.requests.count
        let conflict =
            "conflict Talk Show/.podarchive/index.json: entry 1 \"Pilot\" and entry 2 \"Second\" both name the file "
            + "Pilot.mp3"

        let verify = await run("verify", "archive")
        let verifyLines = output.lines
        output.clear()
        let repair = await run("verify", "archive", "--repair")

        XCTAssertEqual(verify, .episodesFailed)
        XCTAssertEqual(
            verifyLines,
            [
                conflict, "resized  Talk Show/Pilot.mp3: 11 bytes, the index says 12",
                "verified 4 files in 1 feed: 1 problem; 1 pair of index entries claiming one file or episode",
            ])
        XCTAssertEqual(repair, .archiveFailed)
        XCTAssertEqual(output.lines.first, conflict)
        XCTAssertEqual(
            errors.lines,
            [
                "podarchive: cannot repair entry 1 \"Pilot\" and entry 2 \"Second\" of Talk Show/.podarchive/index.json: "
                    + "they both name the file Pilot.mp3; neither is touched until the index gives each file and each "
                    + "episode one entry"
            ])
        XCTAssertEqual(server.requests.count, requests, "nothing fetched to write over either episode")
        XCTAssertEqual(contents(), files, "every file as it was")
        XCTAssertEqual(try String(contentsOf: indexURL, encoding: .utf8), index)
    }

    func test_oneGUIDTwice_isNamedByVerify_andRepairTouchesNeitherEntrysFile() async throws {
        _ = try await archiveWithEditedIndex {
            $0.replacingOccurrences(of: #"{"key": "p2", "guid": "p2""#, with: #"{"key": "p1", "guid": "p1""#)
        }
        try Data("second audiO".utf8).write(to: show.appendingPathComponent("Second.mp3"))
        let files = contents()
        let requests = server.requests.count

        let verify = await run("verify", "archive")
        let verifyLines = output.lines
        output.clear()
        let repair = await run("verify", "archive", "--repair")

        XCTAssertEqual(verify, .episodesFailed)
        XCTAssertEqual(
            verifyLines.first,
            "conflict Talk Show/.podarchive/index.json: entry 1 \"Pilot\" and entry 2 \"Second\" are both the episode p1"
        )
        XCTAssertEqual(repair, .archiveFailed)
        XCTAssertEqual(
            errors.lines,
            [
                "podarchive: cannot repair entry 1 \"Pilot\" and entry 2 \"Second\" of Talk Show/.podarchive/index.json: "
                    + "they are both the episode p1; neither is touched until the index gives each file and each "
                    + "episode one entry"
            ])
        XCTAssertEqual(server.requests.count, requests, "the damaged Second.mp3 is not fetched for either entry")
        XCTAssertEqual(contents(), files)
    }
}
