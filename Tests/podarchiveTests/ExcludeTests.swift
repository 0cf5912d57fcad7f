import Foundation
import TestSupport
import XCTest

// `--exclude REGEX`, the opposite of `--match`, as a user meets it: on sync (saved with the show, so a sync alone
// keeps leaving those episodes out), list, add, the configuration file, `feeds`, `config`, help and completions;
// `--all` and `--clear exclude` take it back.
@testable import ArchiverCore
@testable import podarchive

final class ExcludeTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }

    private func serve(_ titles: [String]) {
        serveFeed(episodes: titles.enumerated().map { ($1, "/\($0).mp3") })
        for index in titles.indices { server.route("/\(index).mp3", .ok(Data("audio \(index)".utf8))) }
    }

    private var archived: [String] {
        folder.files().filter { $0.hasSuffix(".mp3") }.map { ($0 as NSString).lastPathComponent }.sorted()
    }

    func test_sync_leavesOutMatchingTitles_savesIt_andAllOrClearTakesItBack() async throws {
        serve(["Pilot", "Trailer: season 2", "Episode 2"])
        let feed = server.url("/feed.xml").absoluteString

        let first = await run("sync", feed, "--to", root, "--exclude", "(?i)^trailer")
        XCTAssertEqual(first, .success, errors.text)
        XCTAssertEqual(archived, ["Episode 2.mp3", "Pilot.mp3"])
        XCTAssertTrue(output.text.contains("1 more listed, left out by --exclude '(?i)^trailer'"), output.text)

        serve(["Pilot", "Trailer: season 2", "Episode 2", "Trailer: season 3"])
        output.clear()
        let second = await run("sync", "--to", root)
        XCTAssertEqual(second, .success, errors.text)
        XCTAssertEqual(archived, ["Episode 2.mp3", "Pilot.mp3"], "the saved --exclude applies to a sync alone")
        XCTAssertTrue(
            output.text.contains("left out by the saved filter (--exclude '(?i)^trailer')"), output.text)

        output.clear()
        _ = await run("feeds", "--to", root)
        XCTAssertTrue(output.text.contains("--exclude '(?i)^trailer'"), output.text)

        let cleared = await run("sync", feed, "--to", root, "--clear", "exclude")
        XCTAssertEqual(cleared, .success, errors.text)
        XCTAssertEqual(
            archived, ["Episode 2.mp3", "Pilot.mp3", "Trailer - season 2.mp3", "Trailer - season 3.mp3"])
    }

    func test_allTurnsASavedExcludeOff() async throws {
        serve(["Pilot", "Trailer"])
        let feed = server.url("/feed.xml").absoluteString
        _ = await run("add", feed, "--to", root, "--exclude", "Trailer")
        let code = await run("sync", feed, "--to", root, "--all")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Pilot.mp3", "Trailer.mp3"])
    }

    func test_list_excludes_andABadPatternIsOneLine() async {
        serve(["Pilot", "Bonus: outtakes", "Episode 2"])
        let feed = server.url("/feed.xml").absoluteString
        let code = await run("list", feed, "--exclude", "^Bonus")
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(output.text.contains("Pilot"))
        XCTAssertFalse(output.text.contains("Bonus"), output.text)

        errors.clear()
        let bad = await run("list", feed, "--exclude", "(unclosed")
        XCTAssertEqual(bad, .usage)
        XCTAssertEqual(
            errors.lines,
            [
                "podarchive: option '--exclude' needs a regular expression, got '(unclosed'",
                "see 'podarchive help list'",
            ])
    }

    func test_theConfigurationFileSetsIt_forEveryShow_andConfigSaysSo() async throws {
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: configurationFolder.path)
        try Data("exclude = (?i)trailer\n".utf8).write(to: configurationFolder.appendingPathComponent("config"))
        serve(["Pilot", "Trailer"])

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", root)
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(archived, ["Pilot.mp3"])

        output.clear()
        _ = await run("config", "--to", root)
        XCTAssertTrue(
            output.lines.contains { $0.hasPrefix("exclude = (?i)trailer ") && $0.hasSuffix("# config file:1") },
            output.text)
    }

    func test_helpAndEveryCompletionScript_offerIt() async {
        for command in ["sync", "add", "list"] {
            XCTAssertTrue(HelpText.text(for: command).contains("--exclude REGEX"), command)
        }
        for shell in Completions.shells {
            XCTAssertTrue(Completions.script(for: shell)?.contains("exclude") == true, shell)
        }
    }
}
