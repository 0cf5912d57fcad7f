import Foundation
import TestSupport
import XCTest

// `export --library` over runs: a rerun writes nothing; an episode forgotten loses its library file, the user's
// own file in the folder stays; an offloaded episode is left out and said; bad targets and a full disk refused
// before anything is written; a damaged record stops the export without removing anything.
@testable import ArchiverCore
@testable import podarchive

final class LibraryExportTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var library: URL { folder.url.appendingPathComponent("library") }
    private var shelf: URL { library.appendingPathComponent("CLI Show") }

    /// Two MP3 episodes (bytes that are no MPEG audio: tagged all the same) and a text file.
    private func syncShow() async {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>CLI Show</title>
                <item><title>One</title><guid>1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="\(server.url("/one.mp3").absoluteString)" type="audio/mpeg"/></item>
                <item><title>Two / two</title><guid>2</guid><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="\(server.url("/two.mp3").absoluteString)" type="audio/mpeg"/></item>
                <item><title>Notes</title><guid>3</guid><pubDate>Mon, 20 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="\(server.url("/three.pdf").absoluteString)" type="application/pdf"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/one.mp3", .ok(Data(repeating: 1, count: 3000)))
        server.route("/two.mp3", .ok(Data(repeating: 2, count: 4000)))
        server.route("/three.pdf", .ok(Data("%PDF-1.4 notes".utf8)))
        let status = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path)
        XCTAssertEqual(status, .success, errors.text)
        output.clear()
    }

    private func names() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: shelf.path).sorted()
    }

    func test_rerun_writesNothing_forgetRemovesItsFile_andTheUsersOwnFileStays() async throws {
        await syncShow()
        var status = await run("export", "--library", library.path, "--to", root.path)
        XCTAssertEqual(status, .success, errors.text)
        XCTAssertEqual(try names(), ["2025-01-06 One.mp3", "2025-01-13 Two - two.mp3", "2025-01-20 Notes.pdf"])
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: library.appendingPathComponent(".podarchive-library.json").path))
        let user = shelf.appendingPathComponent("my notes.txt")
        try Data("mine".utf8).write(to: user)
        let written =
            try FileManager.default.attributesOfItem(
                atPath: shelf.appendingPathComponent("2025-01-06 One.mp3").path)[.modificationDate] as? Date
        output.clear()

        status = await run("export", "--library", library.path, "--to", root.path)

        XCTAssertEqual(status, .success, errors.text)
        XCTAssertEqual(
            output.lines,
            [
                "library \(library.path): 1 show, 0 episodes tagged, 0 copied untagged, 3 unchanged (0 B written); "
                    + "record: \(library.path)/.podarchive-library.json"
            ], "nothing to write: no plan said")
        XCTAssertEqual(
            try FileManager.default.attributesOfItem(
                atPath: shelf.appendingPathComponent("2025-01-06 One.mp3").path)[.modificationDate] as? Date, written)

        status = await run("forget", "CLI Show", "One", "--to", root.path)
        XCTAssertEqual(status, .success, errors.text)
        output.clear()
        status = await run("export", "--library", library.path, "--to", root.path)

        XCTAssertEqual(status, .success, errors.text)
        XCTAssertTrue(output.text.contains(", 2 unchanged, 1 removed (0 B written)"), output.text)
        XCTAssertEqual(try names(), ["2025-01-13 Two - two.mp3", "2025-01-20 Notes.pdf", "my notes.txt"])
        XCTAssertEqual(try Data(contentsOf: user), Data("mine".utf8), "the user's own file is never touched")
    }

    func test_aKilledExportsTemporaryFile_isRemovedByTheNext_andOneOfALiveProcessIsNot() async throws {
        await syncShow()
        try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        let started = TemporaryOwner.startTime(of: process.processIdentifier)
        process.waitUntilExit()
        let me = TemporaryOwner.current
        let ended = TemporaryOwner(host: me.host, pid: process.processIdentifier, started: started)
        let left = ArchiveLayout.temporary(for: "2025-01-06 One.mp3", unique: ended.token + ".1")
        let running = TemporaryOwner(host: me.host, pid: getppid(), started: TemporaryOwner.startTime(of: getppid()))
        let live = ArchiveLayout.temporary(for: "2025-01-06 One.mp3", unique: running.token + ".1")
        for name in [left, live] { try Data("part".utf8).write(to: shelf.appendingPathComponent(name)) }

        let status = await run("export", "--library", library.path, "--to", root.path)

        XCTAssertEqual(status, .success, errors.text)
        let listed = try names()
        XCTAssertFalse(listed.contains(left), "\(listed)")
        XCTAssertTrue(listed.contains(live), "\(listed)")
    }

    func test_aCopysNameTheUserMadeAFolder_isNeverRemoved() async throws {
        await syncShow()
        var status = await run("export", "--library", library.path, "--to", root.path)
        XCTAssertEqual(status, .success, errors.text)
        let copy = shelf.appendingPathComponent("2025-01-06 One.mp3")
        try FileManager.default.removeItem(at: copy)
        try FileManager.default.createDirectory(at: copy, withIntermediateDirectories: false)
        try Data("mine".utf8).write(to: copy.appendingPathComponent("inside.txt"))
        status = await run("forget", "CLI Show", "One", "--to", root.path)
        XCTAssertEqual(status, .success, errors.text)

        status = await run("export", "--library", library.path, "--to", root.path)

        XCTAssertEqual(status, .success, errors.text)
        XCTAssertEqual(try Data(contentsOf: copy.appendingPathComponent("inside.txt")), Data("mine".utf8))
    }

    func test_aFileTheLibraryDidNotWrite_inTheWayOfAName_isKept_andTheEpisodeTakesAnother() async throws {
        await syncShow()
        try FileManager.default.createDirectory(at: shelf, withIntermediateDirectories: true)
        let user = shelf.appendingPathComponent("2025-01-06 One.mp3")
        try Data("user's".utf8).write(to: user)

        let status = await run("export", "--library", library.path, "--to", root.path)

        XCTAssertEqual(status, .success, errors.text)
        XCTAssertEqual(try Data(contentsOf: user), Data("user's".utf8))
        let listed = try names()
        XCTAssertTrue(listed.contains("2025-01-06 One (2).mp3"), "\(listed)")
    }

    func test_aTaggedCopy_isTheArchivedBytesAfterAnID3v24Tag_andTheArchiveIsUnchanged() async throws {
        await syncShow()
        let archived = try Data(contentsOf: root.appendingPathComponent("CLI Show/One.mp3"))

        let status = await run("export", "--library", library.path, "--to", root.path)

        XCTAssertEqual(status, .success, errors.text)
        let copy = try Data(contentsOf: shelf.appendingPathComponent("2025-01-06 One.mp3"))
        XCTAssertEqual(Array(copy.prefix(5)), Array("ID3".utf8) + [4, 0])
        let tag = ID3Tag.leadingTagsLength([UInt8](copy))
        XCTAssertEqual(copy.dropFirst(tag), archived)
        XCTAssertEqual(try Data(contentsOf: root.appendingPathComponent("CLI Show/One.mp3")), archived)
        XCTAssertEqual(
            try Data(contentsOf: shelf.appendingPathComponent("2025-01-20 Notes.pdf")), Data("%PDF-1.4 notes".utf8))
        XCTAssertTrue(
            output.text.contains("2 episodes tagged, 1 copied untagged (no tag writer for pdf: 1)"), output.text)
    }

    func test_aLibraryInsideTheArchive_isRefused_beforeAnythingIsWritten() async throws {
        await syncShow()
        for target in [
            root.path, root.appendingPathComponent("CLI Show").path, root.appendingPathComponent(".podarchive/x").path,
        ] {
            let status = await run("export", "--library", target, "--to", root.path)
            XCTAssertEqual(status, .usage, target)
            XCTAssertTrue(
                errors.text.contains("would be written into the archive: name a folder outside it"), errors.text)
        }
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: root.appendingPathComponent(".podarchive-library.json").path))
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: root.appendingPathComponent("CLI Show/CLI Show").path))
    }

    func test_aDamagedRecord_stopsTheExport_andNothingIsRemoved() async throws {
        await syncShow()
        var status = await run("export", "--library", library.path, "--to", root.path)
        XCTAssertEqual(status, .success, errors.text)
        let record = library.appendingPathComponent(".podarchive-library.json")
        try Data("{".utf8).write(to: record)
        status = await run("forget", "CLI Show", "One", "--to", root.path)
        XCTAssertEqual(status, .success, errors.text)
        errors.clear()

        status = await run("export", "--library", library.path, "--to", root.path)

        XCTAssertEqual(status, .archiveFailed)
        XCTAssertEqual(
            errors.lines.first,
            "podarchive: the library's record \(record.path) cannot be read; nothing was written or removed (move it "
                + "away to start the library again)")
        XCTAssertTrue(try names().contains("2025-01-06 One.mp3"))
    }

    func test_exportLibrary_whenTheDiskCannotHoldTheCopies_saysSo_andWritesNothing() async throws {
        await syncShow()
        let archiver = Archiver.live()
        var plans: [LibraryPlan] = []
        var options = LibraryOptions()
        options.available = { _ in 1000 }

        XCTAssertThrowsError(
            try archiver.exportLibrary(root, into: library, options: options) { plans.append($0) }
        ) { error in
            XCTAssertEqual(error as? LibraryError, .noSpace(path: library.path, needed: 7224, available: 1000))
            XCTAssertEqual(
                error.localizedDescription,
                "the library \(library.path) needs 1 MB for its copies and the disk has 0 MB free; nothing was written")
        }
        XCTAssertEqual(plans, [LibraryPlan(files: 3, bytes: 7224, available: 1000)])
        XCTAssertEqual(plans.first?.line, "library: writing 3 files (7.2 kB; 1.0 kB free)")
        XCTAssertFalse(FileManager.default.fileExists(atPath: library.path))
    }

    /// The secret search reads ID3 text as a player does: a secret spelt in UTF-16 in a tag is found.
    func test_secretSearch_decodesID3TextFrames_UTF16AndChapterTitlesToo() throws {
        let secret = SoughtSecret("the token", "TOKENVALUE123")
        let utf16: [UInt8] = [1, 0xFF, 0xFE] + "TOKENVALUE123".utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let v23 =
            Array("ID3".utf8) + [3, 0, 0, 0, 0, 0, UInt8(10 + utf16.count)] + Array("TIT2".utf8)
            + [0, 0, 0, UInt8(utf16.count), 0, 0] + utf16
        var tags = EpisodeTags()
        tags.chapters = [LibraryChapter(startMilliseconds: 0, title: "TOKENVALUE123")]
        let file = folder.url.appendingPathComponent("tagged.mp3")
        for tag in [v23, ID3Tag.bytes(for: tags)] {
            try Data(tag + [0xFF, 0xFB]).write(to: file)
            let hits = try SecretSpellingSearch.hits(under: folder.url, name: "<test>", secrets: [secret])
            XCTAssertEqual(hits.map(\.place), ["<test>/tagged.mp3"], "\(tag)")
        }
        XCTAssertEqual(ID3Text.texts(of: Data(v23)), ["TOKENVALUE123"])
    }
}
