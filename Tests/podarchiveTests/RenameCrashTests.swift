import Foundation
import TestSupport
import XCTest

// Renaming is a move of many files, intent first, proven at every point: the built binary killed (SIGKILL, through
// `CrashShim`) just before each write, fsync, rename and unlink `rename` makes in the archive, once per point, then a
// plain sync (which takes the show's lock and finishes what was left). Each episode, its transcript and its sidecar
// end whole at the one name the index gives, nothing is fetched again, and `rename` run again has nothing left to do.
@testable import ArchiverCore

final class RenameCrashTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private var library: URL!
    private let titles = ["One", "Two", "Three"]

    override func setUpWithError() throws {
        library = try CrashShim.libraryForBuiltBinary()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("rename-crash")
        var xml =
            "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel>"
            + "<title>Crash Show</title>"
        for (day, title) in titles.enumerated() {
            let name = title.lowercased()
            xml +=
                "<item><title>\(title)</title><guid>\(name)</guid><pubDate>0\(day + 1) Jan 2024 10:00:00 GMT</pubDate>"
                + "<enclosure url=\"/\(name).mp3\" length=\"\(audio(title).count)\" type=\"audio/mpeg\"/>"
                + "<podcast:transcript url=\"/\(name).vtt\" type=\"text/vtt\"/></item>"
            server.route("/\(name).mp3", .ok(audio(title)))
            server.route("/\(name).vtt", .ok(transcript(title), type: "text/vtt"))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private func audio(_ title: String) -> Data { Data(String(repeating: "the audio of \(title). ", count: 40).utf8) }
    private func transcript(_ title: String) -> Data { Data("WEBVTT\n\n00:00.000 --> 00:01.000\n\(title)\n".utf8) }
    private var archive: URL { folder.url.appendingPathComponent("archive") }
    private var show: URL { archive.appendingPathComponent("Crash Show") }
    private var feed: String { server.url("/feed.xml").absoluteString }

    private func podarchive(_ arguments: [String], killAt: Int? = nil) throws -> ProcessResult {
        try CrashShim.podarchive(
            arguments + ["--to", archive.path], home: folder.url, library: library, under: folder.url, killAt: killAt)
    }

    private func startAfresh() throws {
        try? FileManager.default.removeItem(at: archive)
        XCTAssertEqual(try podarchive(["sync", feed, "--metadata"]).status, 0)
    }

    private func index() throws -> ArchiveIndex {
        try IndexFormat.decode(Data(contentsOf: show.appendingPathComponent(".podarchive/index.json")))
    }

    private func mediaRequests() -> Int { server.requests.count { $0.path.hasSuffix(".mp3") } }

    /// Every episode, its transcript and its sidecar whole at the names the index gives, and nothing at another.
    private func assertEachFileWholeWhereTheIndexSays(_ context: String) throws {
        let entries = try index().episodes
        XCTAssertEqual(entries.count, 3, context)
        var expected: Set<String> = []
        for title in titles {
            guard let entry = entries.first(where: { $0.title == title }) else {
                return XCTFail("\(context): \(title)")
            }
            XCTAssertEqual(try? Data(contentsOf: show.appendingPathComponent(entry.file)), audio(title), context)
            let companion = entry.companions?.first?.file ?? ""
            XCTAssertEqual(
                try? Data(contentsOf: show.appendingPathComponent(companion)), transcript(title), context)
            let sidecar = ArchiveNames.sidecarName(for: entry.file)
            XCTAssertTrue(FileManager.default.fileExists(atPath: show.appendingPathComponent(sidecar).path), context)
            expected.formUnion([entry.file, companion, sidecar])
        }
        let found = FileManager.default.enumerator(atPath: show.path)?.compactMap { $0 as? String } ?? []
        let files = found.filter { name in
            var isFolder: ObjCBool = false
            FileManager.default.fileExists(atPath: show.appendingPathComponent(name).path, isDirectory: &isFolder)
            return !name.hasPrefix(".podarchive") && !isFolder.boolValue
        }
        XCTAssertEqual(Set(files), expected, "\(context): no file at a name the index does not give")
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: show.appendingPathComponent(".podarchive/renames.json").path),
            "\(context): the intent settled")
    }

    func test_rename_killedAtEveryPoint_losesNoFile_leavesNoneAtAnUnindexedName_andConverges() throws {
        let rename = ["rename", "Crash Show", "--name", "{date}/{title}"]
        let run = try CrashShim.atEveryPoint(
            prepare: startAfresh, command: { try podarchive(rename, killAt: $0) },
            killed: { point, _ in
                let context = "killed at point \(point)"
                let requests = mediaRequests()
                let sync = try podarchive(["sync"])
                XCTAssertEqual(sync.status, 0, "\(context): \(sync.stderr)")
                XCTAssertEqual(mediaRequests(), requests, "\(context): nothing fetched again")
                try assertEachFileWholeWhereTheIndexSays(context)
                let again = try podarchive(rename)
                XCTAssertEqual(again.status, 0, "\(context): \(again.stderr)")
                try assertEachFileWholeWhereTheIndexSays(context)
                XCTAssertEqual(
                    try index().episodes.map(\.file).sorted(),
                    ["2024-01-01/One.mp3", "2024-01-02/Two.mp3", "2024-01-03/Three.mp3"], context)
                let verify = try podarchive(["verify"])
                XCTAssertEqual(verify.status, 0, "\(context): \(verify.stdout)")
            })
        guard let run else { return XCTFail("rename: still killed after 400 points") }
        XCTAssertEqual(run.completed.status, 0, run.completed.stderr)
        XCTAssertGreaterThan(run.points, 8, "rename: the crash library counted too few effects")
        print("rename: killed at \(run.points) points")
    }
}
