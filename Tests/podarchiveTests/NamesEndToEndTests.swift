import Foundation
import TestSupport
import XCTest

// New names through the built binary against a loopback server: `--ascii-names` saved with the show and used for
// the episodes of later syncs, date formats in `--name`, and `{season}` from `podcast:season`.
@testable import ArchiverCore

final class NamesEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!
    private var items: [(title: String, day: Int)] = [("Café — Ép. 1", 3)]

    override func setUpWithError() throws {
        folder = try TemporaryFolder("names-e2e")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        serveFeed()
    }

    override func tearDown() {
        server?.stop()
        folder.remove()
    }

    private func serveFeed() {
        var xml =
            "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel><title>Émission</title>"
        for (number, item) in items.enumerated() {
            xml +=
                "<item><title>\(item.title)</title><guid>g\(number)</guid>"
                + "<pubDate>0\(item.day) Feb 2025 08:00:00 GMT</pubDate><podcast:season>2</podcast:season>"
                + "<enclosure url=\"/\(number).mp3\" type=\"audio/mpeg\"/></item>"
            server.route("/\(number).mp3", .ok(Data("ID3 \(number)".utf8)))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    private var archive: URL { folder.url.appendingPathComponent("Archive") }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments + ["--to", archive.path],
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), currentDirectory: folder.url)
    }

    private func files() -> [String] {
        let show = archive.appendingPathComponent("Emission")
        let found = FileManager.default.enumerator(atPath: show.path)?.compactMap { $0 as? String } ?? []
        return found.filter { $0.hasSuffix(".mp3") }.sorted()
    }

    func test_asciiNamesAndADateFormat_areSavedWithTheShow_andNameTheEpisodesOfLaterSyncs() throws {
        let first = try podarchive(
            "sync", server.url("/feed.xml").absoluteString, "--ascii-names", "--name",
            "S{season}/{date:%Y.%m.%d} {title}")
        let afterFirst = files()
        items.append(("Привет, épisode deux", 5))
        serveFeed()
        let second = try podarchive("sync")
        let bad = try podarchive("sync", "--name", "{date:%Q} {title}")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(afterFirst, ["S2/2025.02.03 Cafe - Ep. 1.mp3"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(files(), ["S2/2025.02.03 Cafe - Ep. 1.mp3", "S2/2025.02.05 Privet, episode deux.mp3"])
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(bad.stderr.contains("unknown date code %Q"), bad.stderr)
    }
}
