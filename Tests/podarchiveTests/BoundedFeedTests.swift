import Foundation
import TestSupport
import XCTest

// Feeds (and their pages) past the XML reader's limits, as a user meets them: a document nested 100,000 deep is
// refused in one line naming the limit and the URL, with the exit code of any feed that cannot be read; what the
// show archived before stays, and the other shows of the run sync on. The built binary's peak memory is measured
// against the same bombs and a billion laughs (`BoundedCompanionTests` does so for companions).
@testable import ArchiverCore
@testable import podarchive

final class BoundedFeedTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }

    /// `<name>.xml`, a show of the given episodes (each served), with `extra` inside its last item.
    private func serve(_ name: String, _ episodes: [String], extra: String = "", next: String? = nil) {
        var xml = #"<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Show \#(name)</title>"#
        if let next { xml += #"<atom:link rel="next" href="\#(next)"/>"# }
        for (position, episode) in episodes.enumerated() {
            server.route("/\(name)/\(episode).mp3", .ok(Data("audio of \(name) \(episode)".utf8)))
            xml +=
                "<item><title>\(episode)</title><guid>\(name)-\(episode)</guid>"
                + #"<enclosure url="/\#(name)/\#(episode).mp3" type="audio/mpeg"/>"#
                + (position == episodes.count - 1 ? extra : "") + "</item>"
        }
        server.route("/\(name).xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    private static let nested = String(repeating: "<x>", count: 100_000) + String(repeating: "</x>", count: 100_000)

    func test_sync_aFeedNested100000Deep_isRefusedInOneLine_theArchiveKept_theOtherShowsGoOn() async throws {
        serve("deep", ["Kept"])
        serve("good", ["One"])
        let added = await run([
            "add", server.url("/deep.xml").absoluteString, server.url("/good.xml").absoluteString,
            "--to", root,
        ])
        XCTAssertEqual(added, .success, errors.text)
        let first = await run("sync", "--to", root)
        XCTAssertEqual(first, .success, errors.text)
        output.clear()
        errors.clear()
        // The deep show's feed now nests 100,000 deep, in a new episode; the good show has a new episode too.
        serve("deep", ["Kept", "New"], extra: Self.nested)
        serve("good", ["One", "Two"])

        let code = await run("sync", "--to", root)

        XCTAssertEqual(code, .feedFailed, output.text + errors.text)
        let said = (output.lines + errors.lines).filter { $0.contains("nests") }
        XCTAssertEqual(
            said,
            ["podarchive: feed \(server.url("/deep.xml")) is not a podcast feed: it nests deeper than 256 levels"],
            output.text + errors.text)
        XCTAssertEqual(
            try TemporaryFolder.visibleFiles(in: URL(fileURLWithPath: root)),
            ["Show deep/Kept.mp3", "Show good/One.mp3", "Show good/Two.mp3"])
        XCTAssertEqual(
            try Data(contentsOf: URL(fileURLWithPath: root + "/Show deep/Kept.mp3")), Data("audio of deep Kept".utf8))
        XCTAssertFalse(server.requestedPaths.contains("/deep/New.mp3"), "nothing of a refused feed is fetched")
    }

    func test_sync_aPageNested100000Deep_isRefusedInOneLine_theFeedsOwnEpisodesArchived() async throws {
        serve("paged", ["First"], next: "/paged-2.xml")
        serve("paged-2", ["Older"], extra: Self.nested)

        let code = await run("sync", server.url("/paged.xml").absoluteString, "--to", root)

        let said = (output.lines + errors.lines).filter { $0.contains("nests") }
        XCTAssertEqual(said.count, 1, output.text + errors.text)
        XCTAssertTrue(
            said.first?.contains("\(server.url("/paged-2.xml")) is not a podcast feed: it nests deeper than 256 levels")
                == true, output.text + errors.text)
        XCTAssertEqual(try TemporaryFolder.visibleFiles(in: URL(fileURLWithPath: root)), ["Show paged/First.mp3"])
        XCTAssertFalse(server.requestedPaths.contains("/paged-2/Older.mp3"), "nothing of a refused page is fetched")
        XCTAssertNotEqual(code, .success, "a page that cannot be read is said in the exit code as a bad page is")
    }

    func test_builtBinary_feedBombs_areRefusedInOneLineEach_theOthersArchived_peakMemoryWithinTheFigure() async throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        serve("deep", ["D"], extra: Self.nested)
        serve("good", ["G"])
        // One item past the limit, each a few dozen bytes: 100,001 episodes to hold and plan if it were read.
        var many = #"<rss version="2.0"><channel><title>Show many</title>"#
        for number in 0...100_000 {
            many += #"<item><enclosure url="/many/\#(number).mp3"/></item>"#
        }
        server.route("/many.xml", .ok(many + "</channel></rss>", type: "application/rss+xml"))
        // A billion laughs: the DOCTYPE's entities are never expanded (no XMLParser, no libxml2), so it is read
        // as a feed whose titles say `&lol9;`.
        let laughs = String(decoding: Fixtures.data("feeds/entity-bomb.xml"), as: UTF8.self)
            .replacingOccurrences(of: "https://example.com/b.mp3", with: "/laughs/b.mp3")
        server.route("/laughs.xml", .ok(laughs, type: "application/rss+xml"))
        server.route("/laughs/b.mp3", .ok(Data("laughs audio".utf8)))
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let feeds = ["deep", "good", "many", "laughs"].map { server.url("/\($0).xml").absoluteString }

        let run = try await withWatchdog(seconds: 120) { [folder, root] in
            try PeakMemoryRun.run(
                ProcessRunner.podarchive, ["sync"] + feeds + ["--to", root],
                environment: ProcessRunner.isolatedEnvironment(home: home).merging(
                    ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
                ) { $1 },
                in: folder!.url, timeout: 110)
        }

        XCTAssertEqual(run.status, 3, run.output)
        let refused = run.output.split(separator: "\n").filter { $0.contains("is not a podcast feed") }
        XCTAssertEqual(
            refused.sorted(),
            [
                "podarchive: feed \(feeds[0]) is not a podcast feed: it nests deeper than 256 levels",
                "podarchive: feed \(feeds[2]) is not a podcast feed: it holds more than 100000 items",
            ], run.output)
        XCTAssertEqual(
            try TemporaryFolder.visibleFiles(in: URL(fileURLWithPath: root)),
            ["&lol9;/Bomb &lol9; inside.mp3", "Show good/G.mp3"])
        XCTAssertFalse(server.requestedPaths.contains { $0.hasPrefix("/many/") || $0.hasPrefix("/deep/") })
        print("peak RSS of the run: \(run.peakBytes >> 20) MB")
        // A sanitizer's shadow memory is no measure of podarchive's own (`make test-tsan`, `make test-asan`).
        if CrashShim.refusal(of: ProcessRunner.podarchive) == nil {
            XCTAssertLessThan(run.peakBytes, 512 << 20, "peak RSS \(run.peakBytes >> 20) MB: the README's figure")
        }
    }
}
