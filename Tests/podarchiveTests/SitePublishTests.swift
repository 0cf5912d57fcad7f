import Foundation
import TestSupport
import XCTest

// `site --out DIR`: the site published into a folder of its own, which a server can serve without ever seeing
// the archive's `.podarchive` folders; saved, so `sync --site` keeps it up to date.
@testable import ArchiverCore
@testable import podarchive

final class SitePublishTests: SiteTestCase {
    private var out: URL { folder.url.appendingPathComponent("www") }

    func test_siteOut_publishesPagesAndLinkedFiles_andNothingOfTheArchivesOwn() async throws {
        serveShows(withSecondEpisode: false)
        let synced = await run("sync", server.url("/plain.xml").absoluteString, "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)

        let code = await run("site", root.path, "--out", out.path)

        XCTAssertEqual(code, .success, errors.text)
        let published = try SecretSearch.allFiles(under: out).map { String($0.dropFirst(out.path.count + 1)) }
        XCTAssertTrue(published.contains("index.html"), "\(published)")
        XCTAssertTrue(published.contains("feeds.opml"), "\(published)")
        XCTAssertTrue(published.contains("Plain Show/index.html"), "\(published)")
        XCTAssertTrue(published.contains("Plain Show/feed.xml"), "\(published)")
        XCTAssertTrue(published.contains("Plain Show/First & Best.mp3"), "\(published)")
        XCTAssertTrue(published.contains("Plain Show/First & Best.en.vtt"), "\(published)")
        XCTAssertEqual(published.filter { $0.split(separator: "/").contains { $0.hasPrefix(".") } }, [], "no dot-file")
        // The same file, not a second copy of it: a hard link on one file system.
        let original = try FileManager.default.attributesOfItem(
            atPath: root.appendingPathComponent("Plain Show/First & Best.mp3").path)
        let link = try FileManager.default.attributesOfItem(
            atPath: out.appendingPathComponent("Plain Show/First & Best.mp3").path)
        XCTAssertEqual(original[.systemFileNumber] as? NSNumber, link[.systemFileNumber] as? NSNumber)
        XCTAssertTrue(output.text.contains("hard links of archived files"), output.text)
        XCTAssertTrue(output.text.contains(out.appendingPathComponent("index.html").path), output.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("index.html").path))
        // Every file a page names is there.
        let page = try String(contentsOf: out.appendingPathComponent("Plain Show/index.html"), encoding: .utf8)
        for href in page.components(separatedBy: "href=\"").dropFirst().map({ $0.prefix { $0 != "\"" } })
        where !href.hasPrefix("http") && !href.hasPrefix("#") && !href.hasPrefix("..") {
            let path = String(href).removingPercentEncoding ?? String(href)
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: out.appendingPathComponent("Plain Show/\(path)").path), path)
        }

        XCTAssertFalse(published.contains("Plain Show/Second.mp3"))
        // Saved: a later sync that refreshes the site publishes its new episode there.
        serveShows(withSecondEpisode: true)
        output.clear()
        let again = await run("sync", "--to", root.path, "--site")
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("Plain Show/Second.mp3").path))
    }

    func test_siteOut_insideTheArchive_isAUsageError_andWritesNothing() async throws {
        try await makeArchive()

        let code = await run("site", root.path, "--out", root.appendingPathComponent("public").path)

        XCTAssertEqual(code, .usage)
        XCTAssertTrue(errors.text.contains("inside the archive"), errors.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("public").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: root.appendingPathComponent("index.html").path))
    }
}
