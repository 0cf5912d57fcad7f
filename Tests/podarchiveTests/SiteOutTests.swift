import Foundation
import TestSupport
import XCTest

// `site --out DIR` is a folder the site owns (issue 37, point 3): it never writes through a link planted in DIR,
// removes what it published there that the archive no longer holds (and says so) but never a file it did not
// write, keeps DIR saved for every later `site` and `sync --site`, and `site --no-out` forgets it.
@testable import ArchiverCore
@testable import podarchive

final class SiteOutTests: SiteTestCase {
    private var out: URL { folder.url.appendingPathComponent("www") }
    private let manager = FileManager.default

    /// The folder of the hostile show (named from its title).
    private func evilFolder() throws -> String {
        try XCTUnwrap(try manager.contentsOfDirectory(atPath: root.path).first { $0.hasPrefix("Evil") })
    }

    func test_aFolderInOutThatIsALink_isRefused_namingIt_andNothingIsWrittenThroughIt() async throws {
        try await makeArchive()
        let victim = folder.url.appendingPathComponent("victim")
        try manager.createDirectory(at: victim, withIntermediateDirectories: true)
        try manager.createDirectory(at: out, withIntermediateDirectories: true)
        let planted = out.appendingPathComponent("Plain Show")
        try manager.createSymbolicLink(at: planted, withDestinationURL: victim)

        let code = await run("site", root.path, "--out", out.path)

        XCTAssertEqual(code, .archiveFailed)
        XCTAssertEqual(
            errors.lines,
            [
                "podarchive: \(planted.path) is a symbolic link in the site's folder, which the site never writes "
                    + "through: nothing was written there (remove the link; the site makes the folder)"
            ])
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: victim.path), [], "nothing written through the link")
    }

    func test_aStaleFileBehindALinkPlantedLater_isNeverRemoved() async throws {
        try await makeArchive()
        let first = await run("site", root.path, "--out", out.path)
        XCTAssertEqual(first, .success, errors.text)
        let evil = try evilFolder()
        // The show's published folder replaced by a link to a folder holding files of the same names.
        let victim = folder.url.appendingPathComponent("victim")
        try manager.moveItem(at: out.appendingPathComponent(evil), to: victim)
        try manager.createSymbolicLink(at: out.appendingPathComponent(evil), withDestinationURL: victim)
        let before = try manager.contentsOfDirectory(atPath: victim.path).sorted()
        try manager.removeItem(at: root.appendingPathComponent(evil))
        errors.clear()

        let code = await run("site", root.path)

        XCTAssertEqual(code, .archiveFailed)
        XCTAssertTrue(errors.text.contains("\(out.appendingPathComponent(evil).path) is a symbolic link"), errors.text)
        XCTAssertEqual(try manager.contentsOfDirectory(atPath: victim.path).sorted(), before)
    }

    func test_whatTheArchiveNoLongerHolds_isRemoved_andSaid_butNeverAFileTheSiteDidNotWrite() async throws {
        try await makeArchive()
        let first = await run("site", root.path, "--out", out.path)
        XCTAssertEqual(first, .success, errors.text)
        let evil = try evilFolder()
        // The user's own files in the folder, beside the site's.
        let mine = out.appendingPathComponent("Plain Show/mine.txt")
        try Data("mine".utf8).write(to: mine)
        try Data("theirs".utf8).write(to: out.appendingPathComponent("theirs.txt"))
        let second = out.appendingPathComponent("Plain Show/Second.mp3")
        XCTAssertTrue(manager.fileExists(atPath: second.path))
        // One episode forgotten, one show's folder gone from the archive.
        let forgot = await run("forget", "--to", root.path, "Plain Show", "Second")
        XCTAssertEqual(forgot, .success, errors.text)
        try manager.removeItem(at: root.appendingPathComponent(evil))
        output.clear()

        let code = await run("site", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertFalse(manager.fileExists(atPath: second.path), "the forgotten episode is no longer served")
        XCTAssertFalse(manager.fileExists(atPath: out.appendingPathComponent(evil).path), "nor the show gone")
        XCTAssertEqual(try Data(contentsOf: mine), Data("mine".utf8))
        XCTAssertTrue(manager.fileExists(atPath: out.appendingPathComponent("theirs.txt").path))
        XCTAssertTrue(manager.fileExists(atPath: out.appendingPathComponent("Plain Show/First & Best.mp3").path))
        XCTAssertTrue(manager.fileExists(atPath: out.appendingPathComponent("Plain Show/index.html").path))
        let removed = try XCTUnwrap(output.lines.first { $0.hasPrefix("site: removed") }, output.text)
        XCTAssertTrue(removed.hasPrefix("site: removed 6 files the archive no longer holds from \(out.path): "))
        for name in ["Plain Show/Second.mp3", "\(evil)/index.html", "\(evil)/feed.xml", "\(evil)/search-notes.js"] {
            XCTAssertTrue(removed.contains(name), removed)
        }
        XCTAssertTrue(output.text.contains("(the saved --out; podarchive site --no-out writes in the archive again)"))

        // Nothing more the next time.
        output.clear()
        let again = await run("site", root.path)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertFalse(output.text.contains("site: removed"), output.text)
    }

    func test_noOut_forgetsTheSavedFolder_andTheArchivesOwnPagesAreWrittenAgain() async throws {
        try await makeArchive()
        let first = await run("site", root.path, "--out", out.path)
        XCTAssertEqual(first, .success, errors.text)
        XCTAssertFalse(manager.fileExists(atPath: root.appendingPathComponent("index.html").path))
        output.clear()

        let both = await run("site", root.path, "--out", out.path, "--no-out")
        let code = await run("site", root.path, "--no-out")

        XCTAssertEqual(both, .usage)
        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(manager.fileExists(atPath: root.appendingPathComponent("index.html").path))
        XCTAssertTrue(
            output.text.contains("in \(root.appendingPathComponent("index.html").path)\n"), output.text)
        XCTAssertNil(Archiver.live().siteSettings(in: root).out)
        XCTAssertTrue(manager.fileExists(atPath: out.appendingPathComponent("index.html").path), "left as it was")
    }
}
