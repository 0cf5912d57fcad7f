import Foundation
import TestSupport
import XCTest

// `verify`, `list`, the archive root, sizes and help as a user meets them: what is printed where, and the exit
// code.
@testable import ArchiverCore
@testable import podarchive

final class OtherCommandsTests: CommandLineTestCase {
    func test_verify_reportsDamageExits1_andRepairFixesItExits0() async throws {
        serveFeed(episodes: [("One", "/1.mp3"), ("Two", "/2.mp3")])
        server.route("/1.mp3", .ok(Data("audio one".utf8)))
        server.route("/2.mp3", .ok(Data("audio two".utf8)))
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive")
        XCTAssertEqual(synced, .success, errors.text)
        try Data("audio 1ne".utf8).write(to: folder.url.appendingPathComponent("archive/CLI Show/One.mp3"))
        let verifyOutput = CapturedOutput()
        let repairOutput = CapturedOutput()

        let verifyCode = await tool(output: verifyOutput).run(["verify", "archive"])
        let repairCode = await tool(output: repairOutput).run(["verify", "archive", "--repair"])

        XCTAssertEqual(verifyCode, .episodesFailed)
        XCTAssertEqual(
            verifyOutput.lines,
            ["changed  CLI Show/One.mp3: SHA-256 differs from the index", "verified 2 files in 1 feed: 1 problem"])
        XCTAssertEqual(repairCode, .success)
        XCTAssertEqual(repairOutput.lines.last, "verified 2 files in 1 feed: 1 problem, 1 repaired")
        XCTAssertEqual(
            FileManager.default.contents(atPath: folder.url.appendingPathComponent("archive/CLI Show/One.mp3").path),
            Data("audio one".utf8))
    }

    func test_verify_folderWithNoArchive_exits2() async {
        let code = await run("verify", folder.url.path)

        XCTAssertEqual(code, .usage)
        XCTAssertTrue(errors.text.contains("holds no podarchive archive"), errors.text)
    }

    func test_aRootWhoseStateFolderIsALink_isNamed_byEveryCommandThatReadsIt() async throws {
        let elsewhere = folder.url.appendingPathComponent("elsewhere", isDirectory: true)
        let root = folder.url.appendingPathComponent("archive", isDirectory: true)
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent(".podarchive"), withDestinationURL: elsewhere)
        let said =
            "podarchive: \(root.path)/.podarchive is a symbolic link, which podarchive never follows for its "
            + "state: nothing was read or changed (put the folder it points to in its place)\n"

        for command in [["verify"], ["site"], ["export", "--warc", folder.url.appendingPathComponent("a.warc").path]] {
            errors.clear()
            let code = await run(command + ["--to", root.path])
            XCTAssertEqual(code, .archiveFailed, command[0])
            XCTAssertEqual(errors.text, said, command[0])
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [], "nothing written there")
    }

    // MARK: - Archive root

    func test_archiveRoot_prefersOptionThenEnvironmentThenHome() throws {
        let tool = CommandLineTool(
            environment: ProcessEnvironment(
                variables: ["PODARCHIVE_DIR": "/env/podcasts", "HOME": "/home/me"], currentDirectory: "/cwd"),
            output: output, errors: errors, makeArchiver: { fatalError("not needed") })
        let homeOnly = CommandLineTool(
            environment: ProcessEnvironment(variables: ["HOME": "/home/me"], currentDirectory: "/cwd"),
            output: output, errors: errors, makeArchiver: { fatalError("not needed") })
        let nothing = CommandLineTool(
            environment: ProcessEnvironment(variables: [:], currentDirectory: "/cwd"), output: output, errors: errors,
            makeArchiver: { fatalError("not needed") })

        XCTAssertEqual(try tool.context.archiveRoot("rel/dir").get().path, "/cwd/rel/dir")
        // $PODARCHIVE_DIR is the parser's to give, when --to is not (see ConfigurationFileCommandTests).
        guard
            let feeds = CommandLineParser.read(
                FeedsCommand.self,
                ["feeds"], defaults: try OptionDefaults(file: nil, environment: ["PODARCHIVE_DIR": "/env/podcasts"]))
        else { return XCTFail("feeds does not parse") }
        XCTAssertEqual(try tool.context.archiveRoot(feeds.archiveDirectory).get().path, "/env/podcasts")
        XCTAssertEqual(try homeOnly.context.archiveRoot(nil).get().path, "/home/me/Podcasts")
        XCTAssertEqual(
            nothing.context.archiveRoot(nil),
            .failure(
                UsageError(
                    message: "no archive folder: pass --to DIR, set PODARCHIVE_DIR or set to in the configuration file",
                    command: "sync")))
    }

    // MARK: - list

    func test_listJSON_printsTheContractObject() async throws {
        server.route(
            "/feed.json",
            .ok(String(decoding: Fixtures.data("feeds/seed.json"), as: UTF8.self), type: "application/json"))

        let code = await run("list", server.url("/feed.json").absoluteString, "--json")

        XCTAssertEqual(code, .success, errors.text)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        XCTAssertTrue(object?["title"] is NSNull)
        let episodes = try XCTUnwrap(object?["episodes"] as? [[String: Any]])
        XCTAssertEqual(episodes.count, 1)
        XCTAssertEqual(episodes[0]["title"] as? String, "The very first episode ever!")
        XCTAssertEqual(episodes[0]["url"] as? String, "https://example.com/episodes/1.mp3")
        XCTAssertEqual(episodes[0]["published"] as? String, "2025-01-10T13:00:00Z")
        XCTAssertTrue(episodes[0]["guid"] is NSNull)
        XCTAssertTrue(episodes[0]["length"] is NSNull)
    }

    func test_listTable_isReadable() async {
        let code = await run("list", Fixtures.url("feeds/rss.xml").path)

        XCTAssertEqual(code, .success)
        XCTAssertEqual(
            output.lines,
            [
                "Fixture & Friends: 2 episodes",
                "2025-02-10     2.0 kB  Episode 2: <Tags> & \"Quotes\"",
                "2025-01-10             Episode 1 (itunes title only)",
            ])
    }

    func test_list_namesEachAlternateEnclosure_inTheTableAndAsJSON() async throws {
        let table = await run("list", Fixtures.url("feeds/alternates.xml").path)
        XCTAssertEqual(table, .success, errors.text)
        XCTAssertEqual(
            output.lines,
            [
                "Alternates: 2 episodes",
                "----------     1.0 kB  Both ways",
                "                       also as: audio/mpeg (128 kb/s, 1.0 kB, hash given); audio/opus (opus, 32 kb/s, "
                    + "600 B)",
                "----------     2.0 kB  Plain",
            ])
        let json = CapturedOutput()
        let code = await tool(output: json).run(["list", Fixtures.url("feeds/alternates.xml").path, "--json"])
        XCTAssertEqual(code, .success)
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        let episodes = try XCTUnwrap(object["episodes"] as? [[String: Any]])
        let alternates = try XCTUnwrap(episodes[0]["alternates"] as? [[String: Any]])
        XCTAssertEqual(alternates.count, 2)
        XCTAssertEqual(alternates[1]["type"] as? String, "audio/opus")
        XCTAssertEqual(alternates[1]["codecs"] as? String, "opus")
        XCTAssertEqual(alternates[1]["lang"] as? String, "en-GB")
        XCTAssertEqual(alternates[1]["bitrate"] as? Int, 32000)
        XCTAssertEqual(alternates[1]["pgpSignature"] as? Bool, true)
        XCTAssertEqual(alternates[0]["default"] as? Bool, true)
        XCTAssertEqual(
            alternates[1]["sources"] as? [String],
            ["ipfs://QmExample", Fixtures.url("feeds/opus/e1.opus").absoluteString])
        XCTAssertNil(episodes[1]["alternates"], "an episode without alternates keeps the contract's fields only")
    }

    func test_listArchived_isNewestFirst_asTheSiteAndAppsList() async throws {
        let xml = """
            <rss version="2.0"><channel><title>Dated</title>
            <item><title>Old</title><guid>o</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
            <enclosure url="/o.mp3" type="audio/mpeg"/></item>
            <item><title>Undated</title><guid>u</guid><enclosure url="/u.mp3" type="audio/mpeg"/></item>
            <item><title>New</title><guid>n</guid><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate>
            <enclosure url="/n.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        for name in ["o", "u", "n"] { server.route("/\(name).mp3", .ok(Data(repeating: 1, count: 10))) }
        _ = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive")
        output.clear()

        let code = await run("list", "--archived", "Dated", "--to", "archive")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(
            output.lines.dropFirst().map { $0.components(separatedBy: "  ").last ?? "" },
            ["[New.mp3]", "[Old.mp3]", "[Undated.mp3]"], output.text)
    }

    func test_sizes_readAsPeopleWriteThem() {
        XCTAssertEqual(SyncFormatter.size(0), "0 B")
        XCTAssertEqual(SyncFormatter.size(999), "999 B")
        XCTAssertEqual(SyncFormatter.size(1000), "1.0 kB")
        XCTAssertEqual(SyncFormatter.size(2048), "2.0 kB")
        XCTAssertEqual(SyncFormatter.size(999_999), "1.0 MB")
        XCTAssertEqual(SyncFormatter.size(48_234_567), "48.2 MB")
        XCTAssertEqual(SyncFormatter.size(1_500_000_000), "1.5 GB")
        XCTAssertEqual(SyncFormatter.oneLine("a\nb\u{85}c"), "a b c")
        XCTAssertEqual(SyncFormatter.oneLine("plain"), "plain")
    }

    func test_helpAndVersion_goToStdoutAndExit0() async {
        let code = await run("--help")
        XCTAssertEqual(code, .success)
        XCTAssertTrue(output.text.contains("Exit codes:"))
        XCTAssertTrue(output.text.contains("3  the feed could not be fetched or read"))

        let version = CapturedOutput()
        let tool = CommandLineTool(
            environment: ProcessEnvironment(variables: [:], currentDirectory: "/"), output: version, errors: errors,
            makeArchiver: { fatalError("not needed") })
        let versionCode = await tool.run(["--version"])
        XCTAssertEqual(versionCode, .success)
        XCTAssertEqual(version.text, "podarchive \(PodarchiveVersion.current)\n")
    }
}
