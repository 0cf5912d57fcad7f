import Foundation
import TestSupport
import XCTest

// `--prefer` by height and size end to end, against a loopback server whose feed offers one episode as an MP3
// enclosure (5000 bytes) and as video/mp4 at 1080, 720, 480, 360 and 240 lines (`height * 10` bytes each, listed out
// of order): which file lands in the archive for `video/mp4;height<=480`, `smallest`, `largest` and a preference
// nothing matches, what the sync and `sync -n` say of the choice, and what a bad preference is told.
@testable import ArchiverCore
@testable import podarchive

final class PreferBySizeSyncTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var feed: String { server.url("/feed.xml").absoluteString }
    private let heights = [480, 1080, 240, 720, 360]
    private let mp3 = Data("ID3".utf8) + Data(repeating: 0x33, count: 4997)

    /// The video of `height` lines: `height * 10` bytes, its height written in its first bytes.
    private func video(_ height: Int) -> Data {
        let head = Data("....ftypisom \(height)".utf8)
        return head + Data(repeating: 0x76, count: height * 10 - head.count)
    }

    override func setUpWithError() throws {
        try super.setUpWithError()
        let alternates = heights.map { height in
            """
            <podcast:alternateEnclosure type="video/mp4" height="\(height)" length="\(height * 10)" \
            bitrate="\(height * 1000)"><podcast:source uri="\(server.url("/\(height).mp4"))" /></podcast:alternateEnclosure>
            """
        }
        let xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Video</title>
            <item><title>Ep</title><guid>ep</guid><enclosure url="\(server.url("/ep.mp3"))" type="audio/mpeg" length="5000"/>
            \(alternates.joined(separator: "\n"))
            </item></channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/ep.mp3", .ok(mp3, type: "audio/mpeg"))
        for height in heights { server.route("/\(height).mp4", .ok(video(height), type: "video/mp4")) }
    }

    /// `sync FEED ARGUMENTS --to archive` under the watchdog: its exit code and what it printed.
    private func sync(_ arguments: String...) async throws -> (ExitCode, String) {
        output.clear()
        let tool = self.tool()
        let command = ["sync", feed] + arguments + ["--to", root.path]
        let code = try await withWatchdog(seconds: 60) { await tool.run(command) }
        return (code, output.text)
    }

    /// The show folder's files (its state folder aside), each with its bytes.
    private var archived: [String: Data] {
        let show = root.appendingPathComponent("Video")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: show.path)) ?? []
        return Dictionary(
            uniqueKeysWithValues: names.filter { !$0.hasPrefix(".") }.map {
                ($0, FileManager.default.contents(atPath: show.appendingPathComponent($0).path) ?? Data())
            })
    }

    private var media: [String] { server.requests.map(\.path).filter { $0 != "/feed.xml" } }

    func test_heightAtMost480_archivesThe480Video_andSaysWhyWithVerbose() async throws {
        let (code, lines) = try await sync("--prefer", "video/mp4;height<=480", "-v")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Ep.mp4": video(480)])
        XCTAssertEqual(media, ["/480.mp4"])
        XCTAssertTrue(
            lines.contains(
                "chose the alternate (video/mp4, 480 lines, 480 kbit/s, 4.8 kB) of \"Ep\" for "
                    + "--prefer 'video/mp4;height<=480'\n"), lines)
    }

    func test_smallest_archivesThe240Video() async throws {
        let (code, lines) = try await sync("--prefer", "smallest")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Ep.mp4": video(240)])
        XCTAssertEqual(media, ["/240.mp4"])
        XCTAssertFalse(lines.contains("chose"), "said only with -v: \(lines)")
    }

    func test_largest_archivesThe1080Video() async throws {
        let (code, _) = try await sync("--prefer", "largest")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Ep.mp4": video(1080)])
        XCTAssertEqual(media, ["/1080.mp4"])
    }

    func test_aPreferenceNothingMatches_archivesTheEnclosure_andTheSyncSaysSo() async throws {
        let (code, lines) = try await sync("--prefer", "video/mp4;height=2160")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Ep.mp3": mp3])
        XCTAssertEqual(media, ["/ep.mp3"])
        XCTAssertTrue(
            lines.contains(
                "--prefer 'video/mp4;height=2160' matches none of the files of \"Ep\": the enclosure (audio/mpeg, "
                    + "5.0 kB) is archived\n"), lines)
    }

    /// `sync -n` chooses as `sync` does (one plan) and says which file and why; it fetches nothing.
    func test_dryRun_saysWhichFileAndWhy_asTheSyncChooses() async throws {
        let (matched, plan) = try await sync("-n", "--prefer", "audio/opus,video/mp4;height<=480")
        let (unmet, none) = try await sync("-n", "--prefer", "video/mp4;height>=2160")

        XCTAssertEqual([matched, unmet], [.success, .success], errors.text)
        XCTAssertEqual(media, [])
        XCTAssertEqual(
            plan,
            "would fetch Ep <\(server.url("/480.mp4"))> as Ep.mp4 (the alternate (video/mp4, 480 lines, 480 kbit/s, "
                + "4.8 kB): --prefer 'video/mp4;height<=480')\nVideo: 1 to fetch, 0 already archived (dry run)\n")
        XCTAssertEqual(
            none,
            "would fetch Ep <\(server.url("/ep.mp3"))> as Ep.mp3 (the enclosure (audio/mpeg, 5.0 kB): "
                + "--prefer 'video/mp4;height>=2160' matches none of its files)\n"
                + "Video: 1 to fetch, 0 already archived (dry run)\n")
    }

    func test_aBadPreference_isAUsageError_namingIt_andNothingIsFetched() async throws {
        for (value, says) in [
            ("video/mp4;height<=abc", "height<=abc needs a whole number above 0 and at most 32768"),
            ("video/mp4;height<=-480", "height<=-480 needs a whole number above 0 and at most 32768"),
            ("video/mp4;width<=480", "width<=480 bounds none of height, bitrate or length"),
        ] {
            errors.clear()
            let (code, _) = try await sync("--prefer", value)

            XCTAssertEqual(code, .usage, value)
            XCTAssertEqual(errors.lines.first, "podarchive: option '--prefer': \(says)", value)
        }
        XCTAssertEqual(server.requests.count, 0)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.path))
    }

    /// The configuration file's `prefer` takes the new words as the option does, and a bad one there is told the same.
    func test_theConfigurationFilesKey_takesTheSameWords() async throws {
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: configurationFolder.path)
        let config = configurationFolder.appendingPathComponent("config")
        try Data("prefer = height<=0\n".utf8).write(to: config)

        let (refused, _) = try await sync()

        XCTAssertEqual(refused, .usage, errors.text)
        XCTAssertTrue(errors.text.contains("height<=0 needs a whole number above 0 and at most 32768"), errors.text)
        XCTAssertEqual(server.requests.count, 0)

        try Data("prefer = video/mp4;height>=500,smallest  # the 720, else the smallest\n".utf8).write(to: config)
        let (code, _) = try await sync()

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Ep.mp4": video(720)])
    }

    /// Saved with the show as `--prefer` was, written back lower-cased without spaces (`feeds` says it).
    func test_aPreferenceIsSavedWithTheShow() async throws {
        let (first, _) = try await sync("--prefer", "Video/MP4; Height<=480")
        XCTAssertEqual(first, .success, errors.text)
        output.clear()
        let code = await run("feeds", "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.contains("--prefer 'video/mp4;height<=480'"), output.text)
    }
}
