import Foundation
import TestSupport
import XCTest

// The index's journal damaged at each record position, end to end through the command line on a real archive:
// `verify` names a damaged record that is not the last (exit 1), the intact records after it still count. Every
// command that writes the show's index folds the journal through one path (`IndexStore.save`): it says a damaged
// record (one line naming the show's journal and the record, exit 1), says nothing of a torn last one (a crash
// leaves that), and marks the feed to be read in full, so that the next sync (whose feed would otherwise answer
// 304) finds the record's episode again from the file on disk: indexed, verified, not downloaded twice.
@testable import ArchiverCore
@testable import podarchive

final class JournalDamageTests: CommandLineTestCase {
    private let audio = ["one": "audio one", "two": "audio two!", "three": "audio three", "four": "audio four"]
    private var show: URL { folder.url.appendingPathComponent("archive/CLI Show") }
    private var indexURL: URL { show.appendingPathComponent(".podarchive/index.json") }
    private var journalURL: URL { show.appendingPathComponent(".podarchive/index.journal") }
    private var feed: String { server.url("/feed.xml").absoluteString }

    /// Serves the show's four episodes, each with a transcript; the feed with an ETag, answering 304 to it.
    private func serveShow() {
        var xml =
            "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel>"
            + "<title>CLI Show</title>"
        for name in ["one", "two", "three", "four"] {
            let bytes = audio[name]!.utf8.count
            xml +=
                "<item><title>\(name.capitalized)</title><guid>\(name)</guid>"
                + "<enclosure url=\"/\(name).mp3\" length=\"\(bytes)\" type=\"audio/mpeg\"/>"
                + "<podcast:transcript url=\"/\(name).srt\" type=\"application/srt\" language=\"en\"/></item>"
            server.route("/\(name).mp3", .ok(Data(audio[name]!.utf8)))
            server.route("/\(name).srt", .ok("1\n00:00:00,000 --> 00:00:01,000\n\(name)\n", type: "application/srt"))
        }
        let document = xml + "</channel></rss>"
        server.route("/feed.xml") { request, _ in
            if request.headers["if-none-match"] == "\"v1\"" { return TestResponse(status: 304) }
            var response = TestResponse.ok(document, type: "application/rss+xml")
            response.headers.append(("ETag", "\"v1\""))
            return response
        }
    }

    private func requests(_ path: String) -> Int { server.requests.filter { $0.path == path }.count }

    /// Four episodes archived and "Four" forgotten, then the other three left as a run killed before its fold
    /// leaves them: `index.json` without them, one journal record each. Returns the entries as the sync recorded
    /// them.
    private func archiveWithJournal() async throws -> [ArchiveIndex.Entry] {
        serveShow()
        let synced = await run("sync", feed, "--to", "archive")
        XCTAssertEqual(synced, .success, errors.text)
        let forgot = await run("forget", "--to", "archive", "CLI Show", "Four")
        XCTAssertEqual(forgot, .success, errors.text)
        let index = try IndexFormat.decode(Data(contentsOf: indexURL))
        XCTAssertEqual(index.episodes.map(\.key), ["one", "two", "three"])
        try IndexFormat.encode(ArchiveIndex(feed: index.feed, title: index.title)).write(to: indexURL)
        var journal = Data()
        for entry in index.episodes { journal.append(try IndexJournal.line(for: entry)) }
        try journal.write(to: journalURL)
        output.clear()
        errors.clear()
        return index.episodes
    }

    /// Flips one byte inside the JSON of record `position` (from 1): its checksum no longer matches.
    private func damageRecord(_ position: Int) throws {
        var journal = try Data(contentsOf: journalURL)
        let starts = [0] + journal.indices.filter { journal[$0] == 0x0A }.map { $0 + 1 }
        journal[starts[position - 1] + 12] ^= 0x01
        try journal.write(to: journalURL)
    }

    /// Cuts the last record short of its newline, as a crash mid-append leaves it.
    private func tearLastRecord() throws {
        let journal = try Data(contentsOf: journalURL)
        try journal.dropLast(5).write(to: journalURL)
    }

    private func indexedEpisodes() throws -> [ArchiveIndex.Entry] {
        try IndexFormat.decode(Data(contentsOf: indexURL)).episodes
    }

    private func foldLine(_ position: Int, bySync: Bool) -> String {
        "podarchive: CLI Show/.podarchive/index.journal: record \(position) of 3 cannot be read (the index's journal); "
            + "the records after it were applied and the journal folded without it: "
            + (bySync
                ? "its episode is looked for again in the feed, read in full"
                : "the next sync reads the feed in full and finds its episode again")
            + ", a file already in the folder adopted"
    }

    func test_aDamagedRecordAtEachPosition_isNamedByVerifyUnlessLast_andTheIntactRecordsAfterItCount() async throws {
        for position in 1...3 {
            folder.remove()
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            _ = try await archiveWithJournal()
            if position == 3 { try tearLastRecord() } else { try damageRecord(position) }
            let journal = try Data(contentsOf: journalURL)

            let verify = await run("verify", "archive")

            let line =
                "damaged  CLI Show/.podarchive/index.journal: record \(position) of 3 cannot be read (the index's "
                + "journal); the records after it are applied, and the next sync finds its episode again"
            XCTAssertEqual(verify, position == 3 ? .success : .episodesFailed, "record \(position)")
            XCTAssertEqual(
                output.lines,
                (position == 3 ? [] : [line])
                    + [
                        "verified 4 files in 1 feed: all intact"
                            + (position == 3 ? "" : "; 1 damaged record of an index's journal")
                    ], "record \(position): the intact records after the damaged one count")
            XCTAssertEqual(try Data(contentsOf: journalURL), journal, "record \(position): verify folds nothing")
        }
    }

    /// Each command that writes the show's index, after a damaged record at each position (the third torn, as a
    /// crash leaves it): its line and exit code; then the next sync, whose feed answers 304 to a conditional
    /// request, finds the record's episode again.
    func test_eachCommandThatFolds_saysADamagedRecord_exits1_andTheNextSyncFindsItsEpisodeAgain() async throws {
        let commands: [(name: String, arguments: [String], succeeds: ExitCode)] = [
            ("sync", ["sync", "--to", "archive"], .success),
            ("forget", ["forget", "--to", "archive", "CLI Show", "Two"], .success),
            ("forget --undo", ["forget", "--undo", "--to", "archive", "CLI Show", "Four"], .success),
            ("add", ["add", "--to", "archive"], .success),
            ("verify --repair", ["verify", "archive", "--repair"], .success),
            ("credentials --move", ["credentials", "--move", "--to", "archive"], .success),
        ]
        for command in commands {
            for position in 1...3 {
                let context = "\(command.name), record \(position)"
                folder.remove()
                try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
                let archived = try await archiveWithJournal()
                if position == 3 { try tearLastRecord() } else { try damageRecord(position) }
                // "forget ... Two" forgets an intact record's episode, whichever record is damaged.
                var arguments = command.arguments
                if command.name == "forget", position == 2 { arguments[arguments.count - 1] = "Three" }
                if command.name == "add" { arguments.insert(feed, at: 1) }
                let lost = archived[position - 1]
                let lostRequests = requests("/\(lost.key).mp3")

                let code = await run(arguments)
                let lines = errors.lines
                errors.clear()
                output.clear()
                let next = await run("sync", "--to", "archive")
                let nextErrors = errors.text
                let verify = await run("verify", "archive")

                XCTAssertEqual(code, position == 3 ? command.succeeds : .episodesFailed, "\(context): \(lines)")
                XCTAssertEqual(
                    lines, position == 3 ? [] : [foldLine(position, bySync: command.name == "sync")],
                    "\(context): a torn last record is what a crash leaves, said by nothing")
                XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "\(context): folded")
                XCTAssertEqual(next, .success, "\(context): \(nextErrors)")
                XCTAssertEqual(nextErrors, "", "\(context): the fold was said once")
                let indexed = try indexedEpisodes()
                let found = try XCTUnwrap(indexed.first { $0.key == lost.key }, "\(context): found again")
                XCTAssertEqual(found.file, lost.file, context)
                XCTAssertEqual(found.sha256, lost.sha256, context)
                XCTAssertEqual(
                    found.companions?.map(\.sha256), lost.companions?.map(\.sha256), "\(context): its transcript")
                XCTAssertEqual(requests("/\(lost.key).mp3"), lostRequests, "\(context): adopted, not downloaded")
                XCTAssertEqual(verify, .success, context)
                XCTAssertTrue(output.lines.last?.hasSuffix(": all intact") == true, "\(context): \(output.lines)")
                output.clear()
                errors.clear()
            }
        }
    }

    /// What a damaged record held is taken back from the folder by the next sync even when its filter leaves the
    /// episode out: the fold was made by another command (forget), and the sync folding it itself.
    func test_theEpisodeADamagedRecordHeld_isFoundAgain_evenOutsideTheNextSyncsFilter() async throws {
        for folding in [
            ["forget", "--to", "archive", "CLI Show", "Two"], ["sync", "--to", "archive", "--match", "Three"],
        ] {
            folder.remove()
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            let archived = try await archiveWithJournal()
            try damageRecord(1)
            let lost = archived[0]
            let lostRequests = requests("/\(lost.key).mp3")

            let code = await run(folding)
            let next = await run("sync", "--to", "archive", "--match", "Three")
            let verify = await run("verify", "archive")

            XCTAssertEqual(code, .episodesFailed, "\(folding): \(errors.text)")
            XCTAssertEqual(next, .success, "\(folding): \(errors.text)")
            let found = try XCTUnwrap(
                try indexedEpisodes().first { $0.key == lost.key }, "\(folding): found again outside the filter")
            XCTAssertEqual(found.sha256, lost.sha256)
            XCTAssertEqual(requests("/\(lost.key).mp3"), lostRequests, "\(folding): adopted, not downloaded")
            XCTAssertEqual(verify, .success, "\(folding)")
            output.clear()
            errors.clear()
        }
    }

    func test_syncJSON_aDamagedRecordFolded_failsItsShowsEntry() async throws {
        _ = try await archiveWithJournal()
        try damageRecord(1)

        let sync = await run("sync", "--to", "archive", "--json")

        XCTAssertEqual(sync, .episodesFailed)
        XCTAssertTrue(output.text.contains("\"exit\": 1"), output.text)
        XCTAssertEqual(errors.lines, [foldLine(1, bySync: true)])
    }

    func test_repair_foldsTheJournal_andADamagedRecordIsStillNamed() async throws {
        _ = try await archiveWithJournal()
        try damageRecord(2)
        try Data("audio 0ne".utf8).write(to: show.appendingPathComponent("One.mp3"))

        let repair = await run("verify", "archive", "--repair")

        XCTAssertEqual(repair, .episodesFailed, "the damaged record's episode waits for the next sync")
        XCTAssertEqual(
            output.lines,
            [
                "damaged  CLI Show/.podarchive/index.journal: record 2 of 3 cannot be read (the index's journal); "
                    + "the records after it are applied, and the next sync finds its episode again",
                "changed  CLI Show/One.mp3: SHA-256 differs from the index",
                "repaired CLI Show/One.mp3",
                "verified 4 files in 1 feed: 1 problem, 1 repaired; 1 damaged record of an index's journal",
            ])
        XCTAssertEqual(errors.lines, [foldLine(2, bySync: false)])
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "folded into index.json")
        XCTAssertEqual(Set(try indexedEpisodes().map(\.key)), ["one", "three"])
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("One.mp3")), Data("audio one".utf8))
    }

    func test_repairOfAnIntactJournal_foldsIt_andPlainVerifyLeavesItAsItIs() async throws {
        let archived = try await archiveWithJournal()
        try Data("audio 0ne".utf8).write(to: show.appendingPathComponent("One.mp3"))
        let journal = try Data(contentsOf: journalURL)

        let verify = await run("verify", "archive")
        XCTAssertEqual(verify, .episodesFailed)
        XCTAssertEqual(try Data(contentsOf: journalURL), journal, "verify without repair writes nothing")
        let repair = await run("verify", "archive", "--repair")

        XCTAssertEqual(repair, .success, errors.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "folded into index.json")
        XCTAssertEqual(try indexedEpisodes(), archived, "every entry as it was, the repaired one too")
    }
}
