import Foundation
import TestSupport
import XCTest

// `podarchive offload` and a show's saved retention through the built binary against a loopback server: episodes
// moved into a second folder (or deleted when asked) are never fetched again, every command says where they went,
// `offload --restore` brings them back, and a hook that moves its file away hands the episode off the same way.
@testable import ArchiverCore

final class OffloadEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!
    /// The episodes the feed lists, oldest first.
    private var titles = ["One", "Two", "Three"]

    override func setUpWithError() throws {
        folder = try TemporaryFolder("offload-e2e")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        serveFeed()
        try FileManager.default.createDirectory(at: cold, withIntermediateDirectories: true)
    }

    override func tearDown() {
        server?.stop()
        folder.remove()
    }

    /// The feed with `titles`, one a month from January 2024, each with a transcript.
    private func serveFeed() {
        var xml =
            "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel>"
            + "<title>Night Show</title>"
        for (month, title) in titles.enumerated() {
            let name = title.lowercased()
            xml +=
                "<item><title>\(title)</title><guid>\(name)</guid>"
                + "<pubDate>01 \(["Jan", "Feb", "Mar", "Apr", "May"][month]) 2024 10:00:00 GMT</pubDate>"
                + "<enclosure url=\"/\(name).mp3\" length=\"\(audio(title).count)\" type=\"audio/mpeg\"/>"
                + "<podcast:transcript url=\"/\(name).vtt\" type=\"text/vtt\"/></item>"
            server.route("/\(name).mp3", .ok(audio(title)))
            server.route("/\(name).vtt", .ok(transcript(title), type: "text/vtt"))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    private func audio(_ title: String) -> Data { Data("ID3 the audio of \(title)".utf8) }
    private func transcript(_ title: String) -> String { "WEBVTT\n\n00:00.000 --> 00:01.000\n\(title)\n" }
    /// What an episode's files weigh, as the lines say it: its audio and its transcript.
    private func size(_ titles: String...) -> String {
        "\(titles.reduce(0) { $0 + audio($1).count + transcript($1).utf8.count }) B"
    }
    private var archive: URL { folder.url.appendingPathComponent("Archive") }
    private var show: URL { archive.appendingPathComponent("Night Show") }
    private var cold: URL { folder.url.appendingPathComponent("cold") }
    private var coldShow: URL { cold.appendingPathComponent("Night Show") }
    private var feed: String { server.url("/feed.xml").absoluteString }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments + ["--to", archive.path],
            environment: ProcessRunner.isolatedEnvironment(
                home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": folder.url.appendingPathComponent("cfg").path]),
            currentDirectory: folder.url)
    }

    private func requests(_ name: String) -> Int { server.requests.count { $0.path == "/\(name.lowercased()).mp3" } }
    private func names(in url: URL) -> Set<String> {
        Set((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter {
            !$0.hasPrefix(".") && !ArchiveLayout.siteShowNames.contains($0)
        }
    }
    private func index() throws -> ArchiveIndex {
        try IndexFormat.decode(Data(contentsOf: show.appendingPathComponent(".podarchive/index.json")))
    }

    func test_into_movesOldEpisodesWithTheirCompanions_neverFetchedAgain_saidEverywhere_andRestored() throws {
        XCTAssertEqual(try podarchive("sync", feed).status, 0)
        let offload = try podarchive("offload", "Night Show", "--keep-last", "1", "--into", cold.path)
        let here = names(in: show)
        let there = names(in: coldShow)
        let oneThere = try Data(contentsOf: coldShow.appendingPathComponent("One.mp3"))
        let sync = try podarchive("sync")
        let requestsAfterSync = titles.map(requests)
        let verify = try podarchive("verify")
        let list = try podarchive("list", "--archived", "Night Show")
        let site = try podarchive("site")
        let page = try String(contentsOf: show.appendingPathComponent("index.html"), encoding: .utf8)
        let export = try podarchive("export", "--warc", folder.url.appendingPathComponent("a.warc.gz").path)
        try FileManager.default.moveItem(at: cold, to: folder.url.appendingPathComponent("unmounted"))
        let unreachable = try podarchive("verify")
        try FileManager.default.moveItem(at: folder.url.appendingPathComponent("unmounted"), to: cold)
        let restore = try podarchive("offload", "--restore", "Night Show")
        let back = names(in: show)
        let left = names(in: coldShow)
        let verifyAfter = try podarchive("verify")

        XCTAssertEqual(offload.status, 0, offload.stderr)
        XCTAssertEqual(
            offload.stdout,
            "offloaded \"One\" of Night Show/ to \(coldShow.path) (\(size("One"))): never fetched again (podarchive "
                + "offload --restore brings it back)\n"
                + "offloaded \"Two\" of Night Show/ to \(coldShow.path) (\(size("Two"))): never fetched again (podarchive "
                + "offload --restore brings it back)\n" + "Night Show/: offloaded 2 episodes (\(size("One", "Two")))\n")
        XCTAssertEqual(here, ["Three.mp3", "Three.transcript.vtt"], "the newest stays, with its transcript")
        XCTAssertEqual(there, ["One.mp3", "One.transcript.vtt", "Two.mp3", "Two.transcript.vtt"])
        XCTAssertEqual(oneThere, audio("One"))
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(requestsAfterSync, [1, 1, 1], "no offloaded episode is fetched again")
        XCTAssertEqual(verify.status, 0, verify.stdout)
        XCTAssertTrue(verify.stdout.hasSuffix("all intact; 2 offloaded\n"), verify.stdout)
        XCTAssertTrue(list.stdout.hasPrefix("Night Show: 3 archived episodes, 2 offloaded\n"), list.stdout)
        XCTAssertTrue(list.stdout.contains("[One.mp3]  offloaded to \(coldShow.path) on "), list.stdout)
        XCTAssertEqual(site.status, 0, site.stderr)
        XCTAssertEqual(page.components(separatedBy: ">offloaded ").count - 1, 2, "two episodes marked offloaded")
        XCTAssertFalse(page.contains("src=\"One.mp3\""), "no player for a file that is not here")
        XCTAssertFalse(page.contains(cold.path), "the site does not say where the archive's files went")
        XCTAssertEqual(export.status, 0, export.stderr)
        XCTAssertTrue(export.stdout.contains("1 episode,"), export.stdout)
        XCTAssertTrue(export.stdout.hasSuffix("; left out: 2 episodes offloaded\n"), export.stdout)
        XCTAssertEqual(unreachable.status, 0, unreachable.stdout)
        XCTAssertTrue(
            unreachable.stdout.contains(
                "offloaded Night Show/One.mp3: in \(coldShow.path), not reachable now, so not checked\n"),
            unreachable.stdout)
        XCTAssertEqual(restore.status, 0, restore.stderr)
        XCTAssertTrue(
            restore.stdout.hasSuffix("Night Show/: brought back 2 episodes (\(size("One", "Two")))\n"), restore.stdout)
        XCTAssertEqual(
            back,
            ["One.mp3", "One.transcript.vtt", "Two.mp3", "Two.transcript.vtt", "Three.mp3", "Three.transcript.vtt"])
        XCTAssertEqual(left, [], "the copies there go once the archive's are back and whole")
        XCTAssertEqual(verifyAfter.status, 0, verifyAfter.stdout)
        XCTAssertTrue(verifyAfter.stdout.hasSuffix("all intact\n"), verifyAfter.stdout)
        XCTAssertEqual(try index().writtenVersion, 2, "nothing away: an older podarchive reads it again")
    }

    func test_anotherFileWhereACopyWouldGo_isNeverReplaced_andTheEpisodeStays() throws {
        XCTAssertEqual(try podarchive("sync", feed).status, 0)
        // Another archive's show of the same name offloaded into the same folder.
        try FileManager.default.createDirectory(at: coldShow, withIntermediateDirectories: true)
        let theirs = Data("ID3 another archive's One".utf8)
        try theirs.write(to: coldShow.appendingPathComponent("One.mp3"))
        let offload = try podarchive("offload", "Night Show", "--keep-last", "2", "--into", cold.path)

        XCTAssertEqual(offload.status, 1, offload.stderr)
        XCTAssertEqual(
            offload.stdout,
            "kept \"One\" of Night Show/ in the archive: \(coldShow.path)/One.mp3 is another file, and is never "
                + "replaced\nNight Show/: offloaded 0 episodes, 1 episode left as it was\n")
        XCTAssertEqual(try Data(contentsOf: coldShow.appendingPathComponent("One.mp3")), theirs)
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("One.mp3")), audio("One"))
        XCTAssertTrue(try index().episodes.allSatisfy(\.isHere))
    }

    func test_offloadedCopyDamagedThere_isAProblemOfVerify_andRepairFetchesNothing() throws {
        XCTAssertEqual(try podarchive("sync", feed).status, 0)
        XCTAssertEqual(try podarchive("offload", "Night Show", "--keep-last", "2", "--into", cold.path).status, 0)
        try Data("ID3 not the audio".utf8).write(to: coldShow.appendingPathComponent("One.mp3"))
        let verify = try podarchive("verify", "--repair")

        XCTAssertEqual(verify.status, 1, verify.stdout)
        XCTAssertTrue(verify.stdout.contains("resized  \(coldShow.path)/One.mp3"), verify.stdout)
        XCTAssertEqual(requests("One"), 1, "a repair fetches nothing away")
    }

    func test_forgettingAnOffloadedEpisode_saysItsCopiesStayWhereTheyWent_andLeavesThem() throws {
        XCTAssertEqual(try podarchive("sync", feed).status, 0)
        XCTAssertEqual(try podarchive("offload", "Night Show", "--keep-last", "2", "--into", cold.path).status, 0)
        let forget = try podarchive("forget", "Night Show", "One")
        let sync = try podarchive("sync")

        XCTAssertEqual(forget.status, 0, forget.stderr)
        XCTAssertTrue(
            forget.stdout.contains(
                "forgot \"One\" of Night Show/: its offloaded copies stay in \(coldShow.path) (forget deletes only "
                    + "what is in the archive)"), forget.stdout)
        XCTAssertEqual(try Data(contentsOf: coldShow.appendingPathComponent("One.mp3")), audio("One"))
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(requests("One"), 1, "forgotten: never fetched again")
    }

    func test_delete_deletesOnPurpose_neverFetchedAgain_andForgetUndoFetchesItAgain() throws {
        XCTAssertEqual(try podarchive("sync", feed).status, 0)
        let dryRun = try podarchive("offload", "Night Show", "--before", "2024-02-15", "--delete", "-n")
        let untouched = names(in: show)
        let delete = try podarchive("offload", "Night Show", "--before", "2024-02-15", "--delete")
        let here = names(in: show)
        let sync = try podarchive("sync")
        let requestsAfterSync = titles.map(requests)
        let verify = try podarchive("verify")
        let undo = try podarchive("forget", "--undo", "Night Show", "One")
        let again = try podarchive("sync")

        XCTAssertEqual(
            dryRun.stdout,
            "would delete \"One\" of Night Show/\nwould delete \"Two\" of Night Show/\n"
                + "Night Show/: would delete 2 episodes\n")
        XCTAssertEqual(untouched.count, 6, "a dry run changes nothing")
        XCTAssertEqual(delete.status, 0, delete.stderr)
        XCTAssertTrue(
            delete.stdout.hasPrefix(
                "deleted \"One\" of Night Show/ (\(size("One"))): never fetched again (deleted on purpose, not brought "
                    + "back)\n"),
            delete.stdout)
        XCTAssertEqual(here, ["Three.mp3", "Three.transcript.vtt"])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(requestsAfterSync, [1, 1, 1])
        XCTAssertTrue(verify.stdout.hasSuffix("all intact; 2 deleted by retention\n"), verify.stdout)
        XCTAssertEqual(undo.stdout, "took back \"One\" of Night Show/: the next sync fetches it\n")
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(titles.map(requests), [2, 1, 1], "taken back, fetched again")
        XCTAssertTrue(names(in: show).contains("One.mp3"))
    }

    func test_savedRetention_keepsARollingWindowAfterEachSync() throws {
        let first = try podarchive("sync", feed, "--keep-last", "2", "--into", cold.path)
        let afterFirst = names(in: show)
        titles.append("Four")
        serveFeed()
        let second = try podarchive("sync")

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(first.stdout.contains("3 archived, 0 already archived, 1 offloaded"), first.stdout)
        XCTAssertEqual(afterFirst, ["Two.mp3", "Two.transcript.vtt", "Three.mp3", "Three.transcript.vtt"])
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(second.stdout.contains("1 archived, 3 already archived, 1 offloaded"), second.stdout)
        XCTAssertEqual(names(in: show), ["Three.mp3", "Three.transcript.vtt", "Four.mp3", "Four.transcript.vtt"])
        XCTAssertEqual(names(in: coldShow), ["One.mp3", "One.transcript.vtt", "Two.mp3", "Two.transcript.vtt"])
        XCTAssertEqual(titles.map(requests), [1, 1, 1, 1])
    }

    func test_dryRun_saysWhatTheSavedRetentionWouldLetGoAfterTheDownloads_andChangesNothing() throws {
        XCTAssertEqual(try podarchive("sync", feed, "--keep-last", "2", "--into", cold.path).status, 0)
        titles.append("Four")
        serveFeed()
        let (before, coldBefore) = (names(in: show), names(in: coldShow))
        let indexBefore = try index()

        let plan = try podarchive("sync", "-n")
        let json = try podarchive("sync", "-n", "--json")

        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.stdout.contains("would fetch Four <"), plan.stdout)
        // Four comes in, so of Three and Four kept, Two goes; One went last time.
        XCTAssertTrue(plan.stdout.contains("would offload \"Two\" of Night Show/ to \(coldShow.path)\n"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("Night Show/: would offload 1 episode\n"), plan.stdout)
        XCTAssertFalse(plan.stdout.contains("\"Three\""), plan.stdout)
        XCTAssertEqual(json.status, 0, json.stderr)
        let feeds =
            try XCTUnwrap(
                JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])["feeds"]
            as? [[String: Any]]
        let retention = try XCTUnwrap(feeds?.first?["retention"] as? [[String: Any]])
        XCTAssertEqual(retention.count, 1)
        XCTAssertEqual(retention.first?["title"] as? String, "Two")
        XCTAssertEqual(retention.first?["file"] as? String, "Two.mp3")
        XCTAssertEqual(retention.first?["action"] as? String, "offload")
        XCTAssertEqual(retention.first?["into"] as? String, coldShow.path)
        // Nothing moved, nothing fetched, nothing recorded.
        XCTAssertEqual(names(in: show), before)
        XCTAssertEqual(names(in: coldShow), coldBefore)
        XCTAssertEqual(try index(), indexBefore)
        XCTAssertEqual(requests("Four"), 0)
    }

    func test_dryRunOfANewShow_withADeletingRetention_namesWhatItWouldDeleteOnceFetched() throws {
        let plan = try podarchive("sync", feed, "-n", "--keep-last", "1", "--delete")

        XCTAssertEqual(plan.status, 0, plan.stderr)
        XCTAssertTrue(plan.stdout.contains("would fetch Three <"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("would delete \"One\" of Night Show/\n"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("would delete \"Two\" of Night Show/\n"), plan.stdout)
        XCTAssertTrue(plan.stdout.contains("Night Show/: would delete 2 episodes\n"), plan.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: show.path), "a dry run creates nothing")
    }

    func test_aRetentionInTheConfigurationFile_appliesToEveryShow_andVerifyJSONSaysWhereEachWent() throws {
        let configuration = folder.url.appendingPathComponent("cfg")
        try FileManager.default.createDirectory(at: configuration, withIntermediateDirectories: true)
        try Data("keep-last = 1\ninto = \(cold.path)\n".utf8).write(to: configuration.appendingPathComponent("config"))
        let sync = try podarchive("sync", feed)
        let verify = try podarchive("verify", "--json")

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(sync.stdout.contains("3 archived, 0 already archived, 2 offloaded"), sync.stdout)
        XCTAssertEqual(names(in: show), ["Three.mp3", "Three.transcript.vtt"])
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(verify.stdout.utf8)) as? [String: Any])
        let away = try XCTUnwrap(object["away"] as? [[String: Any]])
        XCTAssertEqual(away.compactMap { $0["file"] as? String }.sorted(), ["One.mp3", "Two.mp3"])
        XCTAssertEqual(Set(away.compactMap { $0["state"] as? String }), ["offloaded"])
        XCTAssertEqual(Set(away.compactMap { $0["into"] as? String }), [coldShow.path])
        XCTAssertEqual(Set(away.compactMap { $0["checked"] as? Bool }), [true])
    }

    func test_aHookThatMovesItsFile_handsTheEpisodeOff_neverFetchedAgain_untilTakenBack() throws {
        let player = folder.url.appendingPathComponent("player")
        try FileManager.default.createDirectory(at: player, withIntermediateDirectories: true)
        let hook = #"mv "$PODARCHIVE_FILE" "# + "'\(player.path)/'"
        XCTAssertEqual(try podarchive("sync", feed, "--exec", hook).status, 0)
        let again = try podarchive("sync", "--exec", hook)
        let requestsAfterAgain = titles.map(requests)
        let verify = try podarchive("verify")
        let list = try podarchive("list", "--archived", "Night Show")
        let undo = try podarchive("forget", "--undo", "Night Show", "Two")
        let back = try podarchive("sync")

        XCTAssertEqual(names(in: player), ["One.mp3", "Two.mp3", "Three.mp3"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(requestsAfterAgain, [1, 1, 1], "handed off: not fetched again")
        XCTAssertTrue(verify.stdout.hasSuffix("; 3 handed off by a hook\n"), verify.stdout)
        XCTAssertEqual(verify.status, 0)
        XCTAssertTrue(list.stdout.contains("[Two.mp3]  handed off by a hook on "), list.stdout)
        XCTAssertEqual(undo.stdout, "took back \"Two\" of Night Show/: the next sync fetches it\n")
        XCTAssertEqual(back.status, 0, back.stderr)
        XCTAssertEqual(titles.map(requests), [1, 2, 1])
        XCTAssertTrue(names(in: show).contains("Two.mp3"))
    }

    func test_badInput_isExit2InOneLine_andNothingChanges() throws {
        XCTAssertEqual(try podarchive("sync", feed).status, 0)
        let inside = archive.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        let cases: [([String], String)] = [
            (["offload", "Night Show", "--into", cold.path], "say which episodes go"),
            (["offload", "Night Show", "--keep-last", "1"], "say where they go"),
            (["offload", "Night Show", "--keep-last", "-1", "--delete"], "'--keep-last' needs a whole number"),
            (["offload", "Night Show", "--keep-last", "1", "--into", "cold"], "needs a folder's absolute path"),
            (["offload", "Night Show", "--keep-last", "1", "--into", "/nowhere/at/all"], "no folder to offload into"),
            (["offload", "Night Show", "--keep-last", "1", "--into", inside.path], "is inside the archive"),
            (["offload", "Nobody", "--keep-last", "1", "--delete"], "'Nobody'"),
            (["offload", "Night Show", "--before", "yesterday", "--delete"], "'--before'"),
            (["offload", "Night Show", "--keep-last", "1", "--into", cold.path, "--delete"], "--delete"),
            (["sync", "--keep-last", "1"], "--keep-last needs a place for the episodes that go"),
        ]
        for (arguments, message) in cases {
            let run = try ProcessRunner.run(
                ProcessRunner.podarchive, arguments + ["--to", archive.path],
                environment: ProcessRunner.isolatedEnvironment(home: folder.url), currentDirectory: folder.url)
            XCTAssertEqual(run.status, 2, "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.hasPrefix("podarchive: "), "\(arguments): \(run.stderr)")
            XCTAssertTrue(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            XCTAssertEqual(names(in: show).count, 6, "\(arguments): nothing moved")
        }
        XCTAssertEqual(names(in: coldShow), [])
        XCTAssertTrue(try index().episodes.allSatisfy(\.isHere))
        // A window without a place in the configuration file is refused as well, before anything is fetched.
        let configuration = folder.url.appendingPathComponent("cfg")
        try FileManager.default.createDirectory(at: configuration, withIntermediateDirectories: true)
        try Data("keep-days = 30\n".utf8).write(to: configuration.appendingPathComponent("config"))
        let requestsBefore = server.requests.count
        let configured = try podarchive("sync")
        XCTAssertEqual(configured.status, 2, configured.stderr)
        XCTAssertTrue(
            configured.stderr.hasPrefix("podarchive: the configuration file's --keep-days needs a place"),
            configured.stderr)
        XCTAssertEqual(server.requests.count, requestsBefore, "nothing fetched")
    }
}
