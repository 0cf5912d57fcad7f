import Foundation
import TestSupport
import XCTest

// The filters of issue 39 as a user meets them against a loopback server: `--until`, `--min-duration`,
// `--max-duration`, `--episodes` and `--match-in`; saved with the show; an episode without the value a filter needs
// is kept and `--verbose` says why; `sync -n` names what each filter leaves out; bad values are one line and exit 2.
@testable import ArchiverCore
@testable import podarchive

final class FilterOptionsTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }
    private var feed: String { server.url("/feed.xml").absoluteString }

    /// One item of the feed: its title, and what it gives of a date, a duration, numbers and notes.
    private struct Item {
        var title: String
        var date: String?
        var duration: String?
        var itunesEpisode: Int?
        var podcastEpisode: Int?
        var notes: String?
    }

    private func serve(_ items: [Item]) {
        var xml = """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd" \
            xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Show</title>
            """
        for (index, item) in items.enumerated() {
            xml += "<item><title>\(item.title)</title><guid>g\(index)</guid>"
            xml += "<enclosure url=\"/\(index).mp3\" type=\"audio/mpeg\"/>"
            if let date = item.date { xml += "<pubDate>\(date)</pubDate>" }
            if let duration = item.duration { xml += "<itunes:duration>\(duration)</itunes:duration>" }
            if let number = item.itunesEpisode { xml += "<itunes:episode>\(number)</itunes:episode>" }
            if let number = item.podcastEpisode { xml += "<podcast:episode>\(number)</podcast:episode>" }
            if let notes = item.notes { xml += "<description>\(notes)</description>" }
            xml += "</item>"
            server.route("/\(index).mp3", .ok(Data("audio \(index)".utf8)))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    private var archived: [String] {
        folder.files().filter { $0.hasSuffix(".mp3") }.map { ($0 as NSString).lastPathComponent }.sorted()
    }

    func test_until_takesThatWholeDay_keepsUndated_andIsSavedWithTheShow() async {
        serve([
            Item(title: "Old", date: "Mon, 02 Jan 2023 10:00:00 GMT"),
            Item(title: "Last day", date: "Sun, 31 Dec 2023 23:30:00 GMT"),
            Item(title: "New", date: "Mon, 01 Jan 2024 00:00:00 GMT"),
            Item(title: "Undated"),
        ])
        let code = await run("sync", feed, "--to", root, "--until", "2023-12-31", "-v")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Last day.mp3", "Old.mp3", "Undated.mp3"])
        XCTAssertTrue(output.text.contains("kept \"Undated\": it gives no date for --until"), output.text)
        XCTAssertTrue(output.text.contains("1 more listed, left out by --until 2023-12-31"), output.text)

        output.clear()
        _ = await run("feeds", "--to", root)
        XCTAssertTrue(output.text.contains("--until 2023-12-31"), output.text)
    }

    func test_duration_bounds_keepAnEpisodeWithoutOne_andVerboseSaysWhy() async {
        serve([
            Item(title: "Trailer", duration: "45"),
            Item(title: "Episode", duration: "30:00"),
            Item(title: "Marathon", duration: "3:00:00"),
            Item(title: "Unknown length"),
        ])
        let code = await run("sync", feed, "--to", root, "--min-duration", "5m", "--max-duration", "2h", "-v")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Episode.mp3", "Unknown length.mp3"])
        XCTAssertTrue(
            output.text.contains("kept \"Unknown length\": it gives no duration for --min-duration"), output.text)
    }

    func test_episodes_fromItunesElsePodcastNumbers_keepsUnnumbered() async {
        serve([
            Item(title: "One", itunesEpisode: 1),
            Item(title: "Two", podcastEpisode: 2),
            Item(title: "Five", itunesEpisode: 5, podcastEpisode: 3),
            Item(title: "Bonus"),
        ])
        let code = await run("sync", feed, "--to", root, "--episodes", "1-3", "-v")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Bonus.mp3", "One.mp3", "Two.mp3"], "itunes:episode 5 wins over podcast:episode 3")
        XCTAssertTrue(output.text.contains("kept \"Bonus\": it gives no episode number for --episodes"), output.text)
    }

    func test_matchIn_description_andBoth() async {
        serve([
            Item(title: "Chat", notes: "Sponsored by a mattress"),
            Item(title: "Sponsored hour", notes: "Talk"),
            Item(title: "Interview", notes: "An interview"),
        ])
        let code = await run("sync", feed, "--to", root, "--exclude", "(?i)sponsored", "--match-in", "description")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Interview.mp3", "Sponsored hour.mp3"])

        output.clear()
        let both = await run("list", feed, "--exclude", "(?i)sponsored", "--match-in", "both")
        XCTAssertEqual(both, .success, errors.text)
        XCTAssertTrue(output.text.contains("Interview"), output.text)
        XCTAssertFalse(output.text.contains("Chat") || output.text.contains("Sponsored hour"), "<" + output.text + ">")
    }

    func test_dryRun_namesWhatEachFilterLeavesOut_andFetchesNothing() async {
        serve([
            Item(title: "Short", duration: "60", itunesEpisode: 1),
            Item(title: "Late", date: "Mon, 01 Jan 2024 00:00:00 GMT", duration: "3600", itunesEpisode: 2),
            Item(title: "Numbered", duration: "3600", itunesEpisode: 9),
            Item(title: "Kept", duration: "3600", itunesEpisode: 3),
        ])
        let code = await run(
            "sync", feed, "--to", root, "-n", "--min-duration", "10m", "--until", "2023-06-30", "--episodes", "1-5")
        XCTAssertEqual(code, .success, errors.text)
        let lines = output.lines.filter { $0.hasPrefix("would leave out") }
        XCTAssertEqual(
            lines,
            [
                "would leave out \"Short\" <\(server.url("/0.mp3").absoluteString)>: --min-duration",
                "would leave out \"Late\" <\(server.url("/1.mp3").absoluteString)>: --until",
                "would leave out \"Numbered\" <\(server.url("/2.mp3").absoluteString)>: --episodes",
            ], output.text)
        XCTAssertTrue(output.text.contains("would fetch Kept"), output.text)
        XCTAssertEqual(archived, [])
    }

    func test_allTurnsTheSavedFiltersOff() async {
        serve([Item(title: "Short", duration: "60"), Item(title: "Long", duration: "3600")])
        _ = await run("add", feed, "--to", root, "--min-duration", "10m")
        let code = await run("sync", feed, "--to", root, "--all")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Long.mp3", "Short.mp3"])
    }

    func test_theConfigurationFileSetsThem() async throws {
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: configurationFolder.path)
        try Data("max-duration = 10m\n".utf8).write(to: configurationFolder.appendingPathComponent("config"))
        serve([Item(title: "Short", duration: "60"), Item(title: "Long", duration: "3600")])
        let code = await run("sync", feed, "--to", root)
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Short.mp3"])
    }

    func test_badValues_areOneLineNamingTheValue_exit2() async {
        let cases: [([String], String)] = [
            (
                ["--episodes", "5-3"],
                "option '--episodes' needs episode numbers such as 1-10, 15, 20- or 1-5,8, got '5-3'"
            ),
            (["--episodes", "x"], "option '--episodes' needs episode numbers such as 1-10, 15, 20- or 1-5,8, got 'x'"),
            (
                ["--until", "31/12/2023"],
                "option '--until' needs a date such as 2025-01-31 or 2025-01-31T18:00:00Z, got '31/12/2023'"
            ),
            (
                ["--min-duration", "-5"],
                "option '--min-duration' needs a duration such as 90 (seconds), 45m, 1h30m or 1:30:00, got '-5'"
            ),
            (
                ["--max-duration", "10x"],
                "option '--max-duration' needs a duration such as 90 (seconds), 45m, 1h30m or 1:30:00, got '10x'"
            ),
            (["--match-in", "body"], "option '--match-in' needs title, description or both, got 'body'"),
        ]
        for (arguments, message) in cases {
            errors.clear()
            let code = await run(["sync", "http://127.0.0.1:1/feed.xml", "--to", root] + arguments)
            XCTAssertEqual(code, .usage, arguments.joined(separator: " "))
            XCTAssertEqual(errors.lines.first, "podarchive: " + message)
        }
        XCTAssertEqual(archived, [])
    }

    func test_helpAndEveryCompletionScript_offerThem() {
        for command in ["sync", "add", "list"] {
            for option in ["--until DATE", "--min-duration DURATION", "--episodes RANGE", "--match-in WHERE"] {
                XCTAssertTrue(HelpText.text(for: command).contains(option), "\(command) \(option)")
            }
        }
        for shell in Completions.shells {
            XCTAssertTrue(Completions.script(for: shell)?.contains("max-duration") == true, shell)
        }
    }
}
