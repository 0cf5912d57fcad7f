import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// The hidden body of a download (`.podarchive/download-<hash>.part`), end to end on loopback: an episode that
// answers 404 leaves none behind, and a later run removes any a killed or earlier run left that no download record
// can resume or adopt, even when the feed is unchanged; one a record can resume stays.
@testable import ArchiverCore

final class PartialLeftoverTests: LoopbackArchiveTestCase {
    private var state: URL { folder.url.appendingPathComponent("Flaky/.podarchive") }

    private func stateFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: state.path).sorted()
    }

    func test_anEpisodeThatAnswers404_leavesNoPartialFile_andNoRecord() async throws {
        let xml = """
            <rss version="2.0"><channel><title>Flaky</title>
            <item><title>Here</title><guid>here</guid><enclosure url="/here.mp3" type="audio/mpeg"/></item>
            <item><title>Gone</title><guid>gone</guid><enclosure url="/gone.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/here.mp3", .ok(audio))
        server.route("/gone.mp3", .status(404, "no such file"))

        let report = try await sync()

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Here.mp3"])
        XCTAssertEqual(report.failed.map(\.1), [.httpStatus(404)])
        let files = try stateFiles()
        XCTAssertEqual(files.filter { $0.hasSuffix(".part") }, [], "\(files)")
        XCTAssertFalse(files.contains(ArchiveLayout.downloadLog), "no record is left either: \(files)")
    }

    func test_aPartialFileNoRecordCanUse_isRemovedByTheNextRun_evenAFeedUnchanged_andOneItCanResumeStays()
        async throws
    {
        serveFeed(etag: "\"v1\"")
        server.route("/big.mp3", .ok(audio))
        _ = try await sync()
        // As a killed run or an earlier version left them: a body with no record (a 404's, a transfer killed before
        // its headers), one whose record has no validator to resume it with, and one a record can resume.
        let orphan = state.appendingPathComponent("download-0123456789abcdef.part")
        let unresumable = state.appendingPathComponent("download-1123456789abcdef.part")
        let resumable = state.appendingPathComponent("download-2123456789abcdef.part")
        try Data().write(to: orphan)
        try Data("half".utf8).write(to: unresumable)
        try Data("half".utf8).write(to: resumable)
        let log = """

            {"download":"1123456789abcdef","expectedSize":100,"url":"\(server.url("/old.mp3"))"}

            {"download":"2123456789abcdef","expectedSize":100,"url":"\(server.url("/new.mp3"))","validator":"\\"e\\""}

            """
        try Data(log.utf8).write(to: state.appendingPathComponent(ArchiveLayout.downloadLog))

        let report = try await sync()

        XCTAssertTrue(report.feedUnchanged, "a 304")
        let files = try stateFiles()
        XCTAssertFalse(files.contains(orphan.lastPathComponent), "\(files)")
        XCTAssertFalse(files.contains(unresumable.lastPathComponent), "\(files)")
        XCTAssertTrue(files.contains(resumable.lastPathComponent), "\(files)")
        let kept = try String(contentsOf: state.appendingPathComponent(ArchiveLayout.downloadLog), encoding: .utf8)
        XCTAssertTrue(kept.contains("2123456789abcdef"), kept)
        XCTAssertFalse(kept.contains("1123456789abcdef"), "its record goes with it: \(kept)")
    }
}
