import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// `verify` and `--repair` on the in-memory file system: what is found missing, resized or changed, what a repair
// fetches again, and what it keeps when the publisher's file changed.
@testable import ArchiverCore

final class VerifyTests: FakeArchiveTestCase {
    func test_verify_findsMissingResizedAndChangedFiles_andRepairFetchesThemAgain() async throws {
        let feed = rss([
            ("A", "https://example.com/a.mp3", "a"), ("B", "https://example.com/b.mp3", "b"),
            ("C", "https://example.com/c.mp3", "c"), ("D", "https://example.com/d.mp3", "d"),
        ])
        for name in ["a", "b", "c", "d"] {
            downloader.script("https://example.com/\(name).mp3", [audio("episode \(name)")])
        }
        _ = try await sync(feed)
        try fileSystem.removeItem(at: URL(fileURLWithPath: "/archive/Show/A.mp3"))
        fileSystem.put("/archive/Show/B.mp3", Data("episode".utf8))
        fileSystem.put("/archive/Show/C.mp3", Data("episode X".utf8))
        let archiver = archiver(feed: feed)

        let check = try await archiver.verify(root, repair: false)
        let repair = try await archiver.verify(root, repair: true)
        let again = try await archiver.verify(root, repair: false)

        XCTAssertEqual(
            check.problems.map(\.kind), [.missing, .resized(actual: 7, recorded: 9), .changed])
        XCTAssertEqual(check.problems.map(\.file), ["A.mp3", "B.mp3", "C.mp3"])
        XCTAssertEqual(check.files, 4)
        XCTAssertEqual(repair.repaired.count, 3)
        XCTAssertEqual(again.problems, [])
        XCTAssertEqual(fileSystem.file("/archive/Show/C.mp3"), Data("episode c".utf8))
        XCTAssertEqual(fileSystem.visibleFiles.count, 4)
    }

    func test_repair_keepsTheEntrysPublicationDate_evenOneWrittenInAnotherForm() async throws {
        let feed = rss([("A", "https://example.com/a.mp3", "a")])
        downloader.script("https://example.com/a.mp3", [audio("episode a"), audio("episode a")])
        _ = try await sync(feed)
        let path = "/archive/Show/.podarchive/index.json"
        let text = String(decoding: try XCTUnwrap(fileSystem.file(path)), as: UTF8.self)
        // A date as a hand edit (or another tool) may leave it: not the form podarchive writes.
        fileSystem.put(
            path, Data(text.replacingOccurrences(of: #""published": null"#, with: #""published": "2025-01-10""#).utf8))
        let before = try index.episodes
        XCTAssertEqual(before.first?.published, "2025-01-10")
        fileSystem.put("/archive/Show/A.mp3", Data("episode X".utf8))

        let repair = try await archiver(feed: feed).verify(root, repair: true)

        XCTAssertEqual(repair.repaired.map(\.file), ["A.mp3"])
        XCTAssertEqual(try index.episodes, before, "the repaired entry is the entry it was")
    }

    func test_verify_repairKilledMidDownload_leavesTheFileInPlace_andLeftoverCopiesAreResolved() async throws {
        let feed = rss([("A", "https://example.com/a.mp3", "a"), ("B", "https://example.com/b.mp3", "b")])
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        downloader.script("https://example.com/b.mp3", [audio("episode b")])
        _ = try await sync(feed)
        // A repair that fails mid-download (the server went away) never moved the damaged file.
        fileSystem.put("/archive/Show/A.mp3", Data("episode X".utf8))
        downloader.script("https://example.com/a.mp3", [SpyDownloader.Canned(error: .transport("connection lost"))])
        _ = try await archiver(feed: feed).verify(
            root, repair: true, options: SyncOptions(retry: RetryPolicy(retries: 0)))
        XCTAssertEqual(fileSystem.file("/archive/Show/A.mp3"), Data("episode X".utf8))
        // An older podarchive killed mid-repair left copies: one whose file is gone, one whose file is back.
        let state = "/archive/Show/.podarchive/"
        try fileSystem.moveItem(
            at: URL(fileURLWithPath: "/archive/Show/B.mp3"),
            to: URL(fileURLWithPath: state + "damaged-" + String(SHA256.hex(Data("B.mp3".utf8)).prefix(16))))
        fileSystem.put(state + "damaged-" + String(SHA256.hex(Data("A.mp3".utf8)).prefix(16)), Data("stale copy".utf8))

        let report = try await archiver(feed: feed).verify(root, repair: false)

        XCTAssertEqual(report.problems.map(\.file), ["A.mp3"], "B is back in place, A is still the damaged one")
        XCTAssertEqual(fileSystem.file("/archive/Show/B.mp3"), Data("episode b".utf8))
        XCTAssertEqual(fileSystem.allFiles.filter { $0.contains("damaged-") }, [], "no copy outlives a run")
    }

    func test_verify_findsFilesInTheSubfoldersANameTemplateMade() async throws {
        let feed = rss([("A", "https://example.com/a.mp3", "a")])
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        _ = try await sync(feed, options: SyncOptions(names: try NameTemplate("{feed}/{title}")))

        let report = try await archiver(feed: feed).verify(root, repair: true)

        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show/Show/A.mp3"])
        XCTAssertEqual(report.problems, [], "not reported missing")
        XCTAssertEqual(downloader.requests.count, 1, "and not downloaded again")
    }

    func test_verify_repairThatFails_keepsTheDamagedFile() async throws {
        let feed = rss([("A", "https://example.com/a.mp3", "a")])
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        _ = try await sync(feed)
        fileSystem.put("/archive/Show/A.mp3", Data("episode X".utf8))
        downloader.script("https://example.com/a.mp3", [SpyDownloader.Canned(status: 404)])

        let report = try await archiver(feed: feed).verify(root, repair: true)

        XCTAssertEqual(report.remaining, 1)
        XCTAssertEqual(fileSystem.file("/archive/Show/A.mp3"), Data("episode X".utf8))
    }

    func test_verify_repairWhenThePublishersFileChanged_keepsBothAndRecordsANewVersion() async throws {
        // The archived file is damaged and the publisher has since replaced the episode (a re-edit, new ads):
        // the new content must not be recorded as if it were what was archived.
        let feed = rss([("A", "https://example.com/a.mp3", "a")])
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        _ = try await sync(feed)
        fileSystem.put("/archive/Show/A.mp3", Data("episode X".utf8))
        downloader.script("https://example.com/a.mp3", [audio("episode a, re-edited")])
        let archiver = archiver(feed: feed)

        let repair = try await archiver.verify(root, repair: true)
        let again = try await archiver.verify(root, repair: true)

        XCTAssertEqual(repair.repaired, [])
        XCTAssertEqual(repair.unrecoverable.map(\.file), ["A.mp3"])
        XCTAssertEqual(repair.unrecoverable.first?.replacedBy, "A (v2).mp3")
        XCTAssertEqual(repair.remaining, 1, "found this run: the exit code says so")
        XCTAssertEqual(fileSystem.file("/archive/Show/A.mp3"), Data("episode X".utf8), "the record stays")
        XCTAssertEqual(fileSystem.file("/archive/Show/A (v2).mp3"), Data("episode a, re-edited".utf8))
        let entries = try index.episodes
        XCTAssertEqual(entries.map(\.file), ["A.mp3", "A (v2).mp3"])
        XCTAssertEqual(entries[1].sha256, SHA256.hex(Data("episode a, re-edited".utf8)))
        XCTAssertEqual(entries[0].replacedBy, "A (v2).mp3")
        XCTAssertEqual(again.unrecoverable.map(\.file), ["A.mp3"], "still listed")
        XCTAssertEqual(again.remaining, 0, "known: no later run fails for it")
        XCTAssertEqual(downloader.requests.count, 2, "not downloaded again")
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show/A (v2).mp3", "/archive/Show/A.mp3"])
    }

    func test_rebuiltIndex_adoptsTheFilesAlreadyThere_neverDoublingTheArchive() async throws {
        // The README's advice for a damaged index: move it aside and sync again. The files stay where they are.
        let feed = Data(
            """
            <rss><channel><title>Show</title>
            <item><title>Sized</title><guid>s</guid><enclosure url="https://example.com/s.mp3" length="13"/></item>
            <item><title>Unsized</title><guid>u</guid><enclosure url="https://example.com/u.mp3"/></item>
            <item><title>Changed</title><guid>c</guid><enclosure url="https://example.com/c.mp3"/></item>
            </channel></rss>
            """.utf8)
        downloader.script("https://example.com/s.mp3", [audio("sized episode")])
        downloader.script("https://example.com/u.mp3", [audio("unsized episode")])
        downloader.script("https://example.com/c.mp3", [audio("changed episode")])
        _ = try await sync(feed)
        let before = try index.episodes
        try fileSystem.moveItem(
            at: URL(fileURLWithPath: "/archive/Show/.podarchive/index.json"),
            to: URL(fileURLWithPath: "/archive/Show/.podarchive/index.json.damaged"))
        downloader.script("https://example.com/c.mp3", [audio("changed episode, v2")])
        let requestsBefore = downloader.requests.count

        let rebuilt = try await sync(feed)

        let after = try index.episodes
        XCTAssertEqual(
            fileSystem.visibleFiles,
            [
                "/archive/Show/Changed (2).mp3", "/archive/Show/Changed.mp3", "/archive/Show/Sized.mp3",
                "/archive/Show/Unsized.mp3",
            ],
            "only the episode whose bytes differ gets a second file")
        XCTAssertEqual(
            downloader.requests.dropFirst(requestsBefore).compactMap(\.url?.lastPathComponent).sorted(),
            ["c.mp3", "u.mp3"], "a file whose size the feed gives is hashed, not downloaded (the others in any order)")
        XCTAssertEqual(after.first { $0.key == "s" }?.sha256, before.first { $0.key == "s" }?.sha256)
        XCTAssertEqual(after.first { $0.key == "u" }?.file, "Unsized.mp3")
        XCTAssertEqual(rebuilt.archived.map(\.lastPathComponent), ["Unsized.mp3", "Changed (2).mp3"])
    }

    func test_verify_folderWithoutArchive_isAnError() async throws {
        fileSystem.put("/elsewhere/readme.txt", Data())
        do {
            _ = try await archiver(feed: Data()).verify(URL(fileURLWithPath: "/elsewhere"), repair: false)
            XCTFail("expected an error")
        } catch {
            XCTAssertEqual(error as? ArchiveError, .noArchive(path: "/elsewhere"))
        }
    }
}
