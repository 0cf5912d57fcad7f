// The built binary killed (SIGKILL, by strace at a chosen rename or write) while `site`, `site --out` and `export`
// write, then run again as a user would: no temporary file is left and what they write is whole. A temporary file
// another live process or another host may still be writing is never removed; one under a lock held is.
import Foundation
import TestSupport
import XCTest

@testable import ArchiverCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

final class LeftoverFilesTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private var strace: URL!
    private var archive: URL { folder.url.appendingPathComponent("archive") }
    private var show: URL { archive.appendingPathComponent("Leftover Show") }

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        guard
            let found = ["/usr/bin/strace", "/bin/strace", "/usr/local/bin/strace"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            // CI installs it (.ci/run): there, its absence is a failure, not a skip.
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("strace is not installed") }
            throw XCTSkip("strace is not installed (apt-get install strace)")
        }
        strace = URL(fileURLWithPath: found)
        server = try TestHTTPServer()
        folder = try TemporaryFolder("leftover")
        let items = (1...3).map { number in
            """
            <item><title>Episode \(number)</title><guid>e\(number)</guid>
              <pubDate>Fri, 0\(number) Jan 2025 13:00:00 GMT</pubDate>
              <enclosure url="/e\(number).mp3" type="audio/mpeg"/></item>
            """
        }
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Leftover Show</title>\(items.joined())</channel></rss>",
                type: "application/rss+xml"))
        for number in 1...3 {
            server.route("/e\(number).mp3", .ok(Data(repeating: UInt8(number), count: 50_000 * number)))
        }
        let synced = try podarchive(["sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--metadata"])
        XCTAssertEqual(synced.status, 0, synced.stderr)
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private func podarchive(_ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments, environment: ProcessRunner.isolatedEnvironment(home: folder.url),
            currentDirectory: folder.url)
    }

    /// `podarchive arguments` under strace, killed by SIGKILL at the `call`'s `number`th time (`extra` injects
    /// more: errors that force a path).
    private func killed(_ arguments: [String], at call: String, number: Int, extra: [String] = []) throws
        -> ProcessResult
    {
        try ProcessRunner.run(
            strace,
            [
                "-f", "-qq", "-o", "/dev/null", "-e", "trace=\(call)", "-e",
                "inject=\(call):signal=SIGKILL:when=\(number)",
            ]
                + extra + [ProcessRunner.podarchive.path] + arguments,
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), currentDirectory: folder.url)
    }

    private func temporaryFiles() -> [String] {
        folder.files().filter { ($0 as NSString).lastPathComponent.contains(".tmp-") }
    }

    /// Every page of the site, whole: each HTML page ends its document, each feed parses.
    private func assertSiteIsWhole(in site: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        for page in ["index.html", "Leftover Show/index.html"] {
            let text = try String(contentsOf: site.appendingPathComponent(page), encoding: .utf8)
            XCTAssertTrue(text.hasSuffix("</html>\n"), page, file: file, line: line)
        }
        for document in ["feeds.opml", "Leftover Show/feed.xml"] {
            let parser = XMLParser(data: try Data(contentsOf: site.appendingPathComponent(document)))
            XCTAssertTrue(parser.parse(), document, file: file, line: line)
        }
    }

    /// Kills `arguments` at each `call` in turn until a run gets through, each time forcing the pages to be written
    /// again (`prepare`), and checks the next run leaves nothing and writes whole pages.
    private func killAtEach(
        _ call: String, of arguments: [String], extra: [String] = [], prepare: () throws -> Void,
        check: () throws -> Void
    ) throws {
        var killedRuns = 0
        for number in 1...40 {
            try prepare()
            let run = try killed(arguments, at: call, number: number, extra: extra)
            guard run.status == 128 + SIGKILL else {
                XCTAssertEqual(run.status, 0, run.stderr)
                break
            }
            killedRuns += 1
            let left = temporaryFiles()

            let next = try podarchive(arguments)

            XCTAssertEqual(next.status, 0, "killed at \(call) \(number): \(next.stderr)")
            XCTAssertEqual(temporaryFiles(), [], "killed at \(call) \(number), which left \(left)")
            try check()
        }
        XCTAssertGreaterThan(killedRuns, 2, "the runs were killed mid-write")
    }

    func test_siteKilledAtEachRename_theNextSiteLeavesNoTemporaryFile_andItsPagesAreWhole() throws {
        try killAtEach(
            "rename", of: ["site", "archive"],
            prepare: {
                // A page is written again only when it is not there (or changed), and a show's pages only when its
                // stamp changed.
                for page in [".podarchive/site.stamp", "index.html", "feed.xml"] {
                    try? FileManager.default.removeItem(at: show.appendingPathComponent(page))
                }
                for page in ["index.html", "feeds.opml"] {
                    try? FileManager.default.removeItem(at: archive.appendingPathComponent(page))
                }
            },
            check: { try assertSiteIsWhole(in: archive) })
    }

    func test_siteOutKilledAtEachRename_copiesIncluded_theNextLeavesNoTemporaryFile_andItsFilesAreWhole() throws {
        let out = folder.url.appendingPathComponent("public")
        try killAtEach(
            "rename", of: ["site", "archive", "--out", "public"],
            // No hard or symbolic link: every episode is published as a copy, which is renamed into place.
            extra: ["-e", "inject=link,linkat,symlink,symlinkat:error=EPERM"],
            prepare: { try? FileManager.default.removeItem(at: out) },
            check: {
                try assertSiteIsWhole(in: out)
                for number in 1...3 {
                    XCTAssertEqual(
                        FileManager.default.contents(
                            atPath: out.appendingPathComponent("Leftover Show/Episode \(number).mp3").path),
                        Data(repeating: UInt8(number), count: 50_000 * number))
                }
            })
    }

    func test_exportKilledBeforeItsSyncAndAtItsRename_theNextExportLeavesNoTemporaryFile_andTheWARCIsWhole() throws {
        let whole = try podarchive(["export", "--warc", "whole.warc", "archive"])
        XCTAssertEqual(whole.status, 0, whole.stderr)
        let records = try recordCount(of: "whole.warc")
        XCTAssertGreaterThan(records, 4)
        try FileManager.default.removeItem(at: folder.url.appendingPathComponent("whole.warc"))

        // Records are gathered a megabyte at a time: this small archive is one write(2), which strace cannot pick out
        // (it counts each thread's calls apart, and the runtime's threads write first). Killed once every byte is
        // written and before it is synced, and before it is renamed into place.
        for (call, number) in [("fsync", 1), ("rename", 1)] {
            let run = try killed(["export", "--warc", "archive.warc", "archive"], at: call, number: number)
            XCTAssertEqual(run.status, 128 + SIGKILL, "killed at \(call) \(number): \(run.stderr)")
            XCTAssertEqual(temporaryFiles().count, 1, "killed at \(call) \(number)")
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("archive.warc").path))

            let next = try podarchive(["export", "--warc", "archive.warc", "archive"])

            XCTAssertEqual(next.status, 0, next.stderr)
            XCTAssertEqual(temporaryFiles(), [])
            XCTAssertEqual(try recordCount(of: "archive.warc"), records)
            try FileManager.default.removeItem(at: folder.url.appendingPathComponent("archive.warc"))
        }
    }

    /// An export from cron to a dated name each night never writes the same name twice: the next export, to any
    /// name, removes what a killed one left in the folder.
    func test_exportKilled_theNextExportToAnotherName_removesWhatItLeft() throws {
        let run = try killed(["export", "--warc", "monday.warc.gz", "archive"], at: "fsync", number: 1)
        XCTAssertEqual(run.status, 128 + SIGKILL, run.stderr)
        XCTAssertEqual(temporaryFiles().count, 1, "killed before its sync")

        let next = try podarchive(["export", "--warc", "tuesday.warc.gz", "archive"])

        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertEqual(temporaryFiles(), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("monday.warc.gz").path))
    }

    /// The WARC records of the export `name`, counted by their headers.
    private func recordCount(of name: String) throws -> Int {
        let data = try Data(contentsOf: folder.url.appendingPathComponent(name))
        return String(decoding: data, as: UTF8.self).components(separatedBy: "\r\nWARC-Type: ").count - 1
    }

    func test_theTemporaryFilesOfALiveProcessOrAnotherHost_areLeft_andThoseUnderTheShowsLockAreNot() throws {
        let me = TemporaryOwner.current  // a live process of this host, to the podarchive the test runs
        let other = TemporaryOwner(host: me.host + "-elsewhere", pid: 4_194_304, started: 1)
        let dead = TemporaryOwner(host: me.host, pid: 4_194_304, started: 1)  // no such PID
        let state = show.appendingPathComponent(".podarchive")
        func plant(_ target: String, by owner: TemporaryOwner, in place: URL) throws -> URL {
            let url = place.appendingPathComponent(ArchiveLayout.temporary(for: target, unique: owner.token + ".7"))
            try Data("being written".utf8).write(to: url)
            return url
        }
        let livePage = try plant("index.html", by: me, in: archive)
        let otherPage = try plant("index.html", by: other, in: archive)
        let deadPage = try plant("index.html", by: dead, in: archive)
        let liveShowPage = try plant("feed.xml", by: me, in: state)
        let otherShowPage = try plant("index.html", by: other, in: state)
        let otherIndex = try plant("index.json", by: other, in: state)
        let liveIndex = try plant("index.json", by: me, in: state)

        let site = try podarchive(["site", "archive"])

        XCTAssertEqual(site.status, 0, site.stderr)
        for kept in [livePage, otherPage, liveShowPage, otherShowPage, otherIndex, liveIndex] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: kept.path), kept.lastPathComponent)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: deadPage.path), "an ended process's, on this host")

        let sync = try podarchive(["sync", "--to", "archive"])

        XCTAssertEqual(sync.status, 0, sync.stderr)
        for kept in [livePage, otherPage, liveShowPage, otherShowPage] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: kept.path), kept.lastPathComponent)
        }
        for removed in [otherIndex, liveIndex] {
            XCTAssertFalse(
                FileManager.default.fileExists(atPath: removed.path),
                "\(removed.lastPathComponent): no other process writes the index while the sync holds the lock")
        }
    }
}
