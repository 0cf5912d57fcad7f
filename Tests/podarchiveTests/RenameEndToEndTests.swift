import Foundation
import TestSupport
import XCTest

// Names applied after the fact, through the built binary against a loopback server: `podarchive rename` gives the
// files a show already holds the names its template gives new ones (companions and sidecars with them, dates kept,
// the user's own files never taken); `{number}` stays with an episode whatever the publisher deletes; and
// `--folder-name` names the folder of a new show.
@testable import ArchiverCore

final class RenameEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!
    /// The feed's items, newest first as feeds list them: title, day of January 2024.
    private var items: [(title: String, day: Int)] = [("Third", 3), ("Second", 2), ("First", 1)]
    private var author: String? = "Jane Doé"

    override func setUpWithError() throws {
        folder = try TemporaryFolder("rename-e2e")
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

    private func audio(_ title: String) -> Data { Data("ID3 the audio of \(title)".utf8) }

    private func serveFeed() {
        var xml =
            "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\" "
            + "xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel><title>Renamed Show</title>"
            + (author.map { "<itunes:author>\($0)</itunes:author>" } ?? "")
        for item in items {
            let name = item.title.lowercased()
            xml +=
                "<item><title>\(item.title)</title><guid>\(name)</guid><itunes:author>Not the show</itunes:author>"
                + "<pubDate>0\(item.day) Jan 2024 08:00:00 GMT</pubDate>"
                + "<enclosure url=\"/\(name).mp3\" type=\"audio/mpeg\"/>"
                + "<podcast:transcript url=\"/\(name).vtt\" type=\"text/vtt\"/></item>"
            server.route("/\(name).mp3", .ok(audio(item.title)))
            server.route("/\(name).vtt", .ok("WEBVTT\n\n00:00.000 --> 00:01.000\n\(item.title)\n", type: "text/vtt"))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    private var archive: URL { folder.url.appendingPathComponent("Archive") }
    private var feed: String { server.url("/feed.xml").absoluteString }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments + ["--to", archive.path],
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), currentDirectory: folder.url)
    }

    /// Every file of the show's folder but its state, sorted.
    private func files(_ show: String = "Renamed Show") -> [String] {
        let url = archive.appendingPathComponent(show)
        let found = FileManager.default.enumerator(atPath: url.path)?.compactMap { $0 as? String } ?? []
        return found.filter { !$0.hasPrefix(".podarchive") && !isFolder(url.appendingPathComponent($0)) }.sorted()
    }

    private func isFolder(_ url: URL) -> Bool {
        var folder: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &folder) && folder.boolValue
    }

    private func mediaRequests() -> Int { server.requests.count { $0.path.hasSuffix(".mp3") } }

    func test_rename_givesArchivedFilesTheTemplatesNames_withCompanionsAndSidecars_keepingDatesAndTheUsersFiles()
        throws
    {
        let sync = try podarchive("sync", feed, "--metadata")
        let show = archive.appendingPathComponent("Renamed Show")
        // The user's own file at a name the template will give: never replaced.
        try Data("mine".utf8).write(to: show.appendingPathComponent("2024-01-01 First.mp3"))
        let before = files()
        let requests = mediaRequests()
        let plan = try podarchive("rename", "Renamed Show", "--name", "{date} {title}", "-n")
        let afterPlan = files()
        let rename = try podarchive("rename", "Renamed Show", "--name", "{date} {title}")
        let after = files()
        let date =
            try FileManager.default.attributesOfItem(
                atPath: show.appendingPathComponent("2024-01-02 Second.mp3").path)[.modificationDate] as? Date
        let verify = try podarchive("verify")
        let again = try podarchive("sync")
        let renameAgain = try podarchive("rename", "Renamed Show")

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(
            plan.stdout.contains("would rename Renamed Show/Second.mp3 to 2024-01-02 Second.mp3 (and 2 files with it)"),
            plan.stdout)
        XCTAssertEqual(afterPlan, before, "a dry run changes nothing")
        XCTAssertEqual(rename.status, 0, rename.stderr)
        XCTAssertTrue(rename.stdout.contains("Renamed Show/: renamed 3 episodes"), rename.stdout)
        XCTAssertEqual(
            after,
            [
                "2024-01-01 First (2).info.json", "2024-01-01 First (2).mp3", "2024-01-01 First (2).transcript.vtt",
                "2024-01-01 First.mp3", "2024-01-02 Second.info.json", "2024-01-02 Second.mp3",
                "2024-01-02 Second.transcript.vtt", "2024-01-03 Third.info.json", "2024-01-03 Third.mp3",
                "2024-01-03 Third.transcript.vtt",
            ])
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("2024-01-01 First.mp3")), Data("mine".utf8))
        XCTAssertEqual(
            try Data(contentsOf: show.appendingPathComponent("2024-01-01 First (2).mp3")), audio("First"))
        XCTAssertEqual(date.map { Int($0.timeIntervalSince1970) }, 1_704_182_400, "the publication date kept")
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(mediaRequests(), requests, "nothing fetched again")
        XCTAssertEqual(files(), after)
        XCTAssertTrue(renameAgain.stdout.contains("every file already has its name"), renameAgain.stdout)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: show.appendingPathComponent(".podarchive/renames.json").path))
    }

    func test_number_staysWithItsEpisode_whenThePublisherDeletesOne_andRenameMovesIntoSubfolders() throws {
        let first = try podarchive("sync", feed, "--name", "{number:02} {title}")
        items.removeAll { $0.title == "Second" }
        items.insert(("Fourth", 4), at: 0)
        serveFeed()
        let second = try podarchive("sync")
        let rename = try podarchive("rename", "Renamed Show", "--name", "{year}/{number:03} {title}")
        let afterRename = files()
        items.insert(("Fifth", 5), at: 0)
        serveFeed()
        let third = try podarchive("sync")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(rename.status, 0, rename.stderr)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(
            afterRename,
            [
                "2024/001 First.mp3", "2024/001 First.transcript.vtt", "2024/002 Second.mp3",
                "2024/002 Second.transcript.vtt", "2024/003 Third.mp3", "2024/003 Third.transcript.vtt",
                "2024/004 Fourth.mp3", "2024/004 Fourth.transcript.vtt",
            ])
        XCTAssertTrue(files().contains("2024/005 Fifth.mp3"), "\(files())")
    }

    func test_folderName_namesANewShowsFolder_inASCIIWhenAsked_andABadTemplateIsAUsageError() throws {
        let sync = try podarchive("sync", feed, "--folder-name", "{author} - {title}", "--ascii-names")
        let again = try podarchive("sync")
        let bad = try podarchive("sync", feed, "--folder-name", "Shows/{title}")
        let unknown = try podarchive("sync", feed, "--folder-name", "{artist}")
        let badRename = try podarchive("rename", "No Such Show")

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: archive.path).filter { !$0.hasPrefix(".") },
            ["Jane Doe - Renamed Show"])
        XCTAssertEqual(
            files("Jane Doe - Renamed Show").filter { $0.hasSuffix(".mp3") },
            [
                "First.mp3", "Second.mp3", "Third.mp3",
            ])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("0 archived, 3 already archived"), again.stdout)
        XCTAssertEqual(bad.status, 2)
        XCTAssertTrue(
            bad.stderr.contains("folder template 'Shows/{title}' cannot be used: a show's folder is one name"),
            bad.stderr)
        XCTAssertEqual(unknown.status, 2)
        XCTAssertTrue(unknown.stderr.contains("unknown field {artist}"), unknown.stderr)
        XCTAssertEqual(badRename.status, 2, badRename.stderr)
        XCTAssertEqual(badRename.stderr.split(separator: "\n").count, 1, badRename.stderr)
    }

    func test_folderName_aShowWithoutAnAuthor_isInAFolderOfItsTitle() throws {
        author = nil
        serveFeed()
        let sync = try podarchive("sync", feed, "--folder-name", "{author} - {title}")

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: archive.path).filter { !$0.hasPrefix(".") },
            ["Renamed Show"])
    }

    func test_folderName_fromTheConfigurationFile_namesEveryNewShow() throws {
        let configuration = folder.url.appendingPathComponent("settings")
        try FileManager.default.createDirectory(at: configuration, withIntermediateDirectories: true)
        try Data("folder-name = {title} ({author})\n".utf8).write(to: configuration.appendingPathComponent("config"))
        let sync = try ProcessRunner.run(
            ProcessRunner.podarchive, ["sync", feed, "--to", archive.path],
            environment: ProcessRunner.isolatedEnvironment(
                home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": configuration.path]),
            currentDirectory: folder.url)

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: archive.path).filter { !$0.hasPrefix(".") },
            ["Renamed Show (Jane Doé)"])
    }

    func test_aHostileRenamesRecord_movesNothingOutOfTheShowOrThroughALink_andTheEpisodesStayWhole() throws {
        let sync = try podarchive("sync", feed)
        let show = archive.appendingPathComponent("Renamed Show")
        let outside = folder.url.appendingPathComponent("outside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data("not the archive's".utf8).write(to: outside.appendingPathComponent("keep.mp3"))
        try FileManager.default.createSymbolicLink(
            at: show.appendingPathComponent("Linked"), withDestinationURL: outside)
        let record = """
            {"episodes": [
              {"key": "first", "moves": [{"from": "../../outside/keep.mp3", "to": "Stolen.mp3"}]},
              {"key": "second", "moves": [{"from": "Second.mp3", "to": "../Second.mp3"}]},
              {"key": "third", "moves": [{"from": "Third.mp3", "to": "Linked/Third.mp3"}]}]}
            """
        try Data(record.utf8).write(to: show.appendingPathComponent(".podarchive/renames.json"))
        let next = try podarchive("sync")
        let verify = try podarchive("verify")

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(try Data(contentsOf: outside.appendingPathComponent("keep.mp3")), Data("not the archive's".utf8))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), ["keep.mp3"])
        XCTAssertFalse(FileManager.default.fileExists(atPath: archive.appendingPathComponent("Second.mp3").path))
        for title in ["First", "Second", "Third"] {
            XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("\(title).mp3")), audio(title), title)
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: show.appendingPathComponent(".podarchive/renames.json").path))
        XCTAssertEqual(verify.status, 0, verify.stdout + verify.stderr)
    }
}
