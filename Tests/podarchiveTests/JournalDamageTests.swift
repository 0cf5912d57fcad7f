// The index's journal damaged at each record position, end to end through the command line on a real archive:
// `verify` names a damaged record that is not the last (exit 1), the intact records after it still count, and
// the next sync finds the damaged record's episode again from the file on disk. `verify --repair` ends with the
// journal folded into `index.json`, as a sync does.
import ArchiverCore
import Foundation
import TestSupport
import XCTest

@testable import podarchive

final class JournalDamageTests: CommandLineTestCase {
    private let audio = ["one": "audio one", "two": "audio two!", "three": "audio three"]
    private var show: URL { folder.url.appendingPathComponent("archive/CLI Show") }
    private var indexURL: URL { show.appendingPathComponent(".podarchive/index.json") }
    private var journalURL: URL { show.appendingPathComponent(".podarchive/index.journal") }

    private func serveShow() {
        var xml =
            "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel>"
            + "<title>CLI Show</title>"
        for name in ["one", "two", "three"] {
            let bytes = audio[name]!.utf8.count
            xml +=
                "<item><title>\(name.capitalized)</title><guid>\(name)</guid>"
                + "<enclosure url=\"/\(name).mp3\" length=\"\(bytes)\" type=\"audio/mpeg\"/>"
                + "<podcast:transcript url=\"/\(name).srt\" type=\"application/srt\" language=\"en\"/></item>"
            server.route("/\(name).mp3", .ok(Data(audio[name]!.utf8)))
            server.route("/\(name).srt", .ok("1\n00:00:00,000 --> 00:00:01,000\n\(name)\n", type: "application/srt"))
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    private var mediaRequests: Int { server.requests.filter { $0.path.hasSuffix(".mp3") }.count }

    /// Three episodes archived, then left as a run killed before its fold leaves them: `index.json` without
    /// them, one journal record each. Returns the entries as the sync recorded them.
    private func archiveWithJournal() async throws -> [ArchiveIndex.Entry] {
        serveShow()
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--to", "archive")
        XCTAssertEqual(synced, .success, errors.text)
        let index = try IndexFormat.decode(Data(contentsOf: indexURL))
        XCTAssertEqual(index.episodes.count, 3)
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

    private func indexedEpisodes() throws -> [ArchiveIndex.Entry] {
        try IndexFormat.decode(Data(contentsOf: indexURL)).episodes
    }

    func test_aDamagedRecordAtEachPosition_isNamedUnlessLast_theOthersApply_andTheNextSyncFindsItsEpisodeAgain()
        async throws
    {
        // position: (verify's exit code, its journal line or none)
        let table: [(position: Int, verify: ExitCode, line: String?)] = [
            (
                1, .episodesFailed,
                "damaged  CLI Show/.podarchive/index.journal: record 1 of 3 cannot be read (the index's journal); "
                    + "the records after it are applied, and the next sync finds its episode again"
            ),
            (
                2, .episodesFailed,
                "damaged  CLI Show/.podarchive/index.journal: record 2 of 3 cannot be read (the index's journal); "
                    + "the records after it are applied, and the next sync finds its episode again"
            ),
            // What a crash mid-append leaves: the episode is adopted by the next sync, nothing to report.
            (3, .success, nil),
        ]
        for row in table {
            folder.remove()
            try FileManager.default.createDirectory(at: folder.url, withIntermediateDirectories: true)
            let archived = try await archiveWithJournal()
            let requestsBefore = mediaRequests
            try damageRecord(row.position)
            let lost = archived[row.position - 1]

            let verify = await run("verify", "archive")
            let verifyLines = output.lines
            output.clear()
            let sync = await run("sync", "--to", "archive", "--verbose")
            let syncErrors = errors.lines
            let syncOutput = output.text
            errors.clear()
            output.clear()
            let again = await run("verify", "archive")

            let context = "record \(row.position)"
            XCTAssertEqual(verify, row.verify, context)
            XCTAssertEqual(
                verifyLines,
                (row.line.map { [$0] } ?? [])
                    + [
                        "verified 4 files in 1 feed: all intact"
                            + (row.line == nil ? "" : "; 1 damaged record of an index's journal")
                    ],
                "\(context): the intact records after the damaged one count")
            XCTAssertEqual(sync, .success, "\(context): \(syncErrors)")
            XCTAssertEqual(
                syncErrors,
                row.line == nil
                    ? []
                    : [
                        "podarchive: CLI Show/.podarchive/index.journal: record \(row.position) of 3 cannot be read "
                            + "(the index's journal); the records after it were applied, and its episode is looked "
                            + "for again in the feed, a file already in the folder adopted"
                    ], context)
            XCTAssertEqual(mediaRequests, requestsBefore, "\(context): the file on disk was adopted, not downloaded")
            let indexed = try indexedEpisodes()
            XCTAssertEqual(Set(indexed.map(\.key)), ["one", "two", "three"], context)
            let found = try XCTUnwrap(indexed.first { $0.key == lost.key }, context)
            XCTAssertEqual(found.file, lost.file, context)
            XCTAssertEqual(found.sha256, lost.sha256, context)
            XCTAssertEqual(found.companions?.map(\.file), lost.companions?.map(\.file), "\(context): its transcript")
            XCTAssertEqual(found.companions?.map(\.sha256), lost.companions?.map(\.sha256), context)
            XCTAssertFalse(syncOutput.contains("not kept"), "\(context): \(syncOutput)")
            XCTAssertFalse(FileManager.default.fileExists(atPath: journalURL.path), "\(context): folded")
            XCTAssertEqual(again, .success, context)
            XCTAssertEqual(output.lines, ["verified 6 files in 1 feed: all intact"], context)
            XCTAssertEqual(
                folder.visibleFiles().filter { $0.hasSuffix(".mp3") },
                ["archive/CLI Show/One.mp3", "archive/CLI Show/Three.mp3", "archive/CLI Show/Two.mp3"],
                "\(context): nothing twice")
        }
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
