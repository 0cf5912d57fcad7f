// The built binary run as a user runs it, with a home folder of its own: nothing may appear outside the archive
// and the configuration folder (Foundation on Linux makes cache and cookie folders unless told otherwise).
import Foundation
import TestSupport
import XCTest

final class NoLitterTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        folder = try TemporaryFolder("litter")
        for name in ["home", "tmp"] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let feed = """
            <rss version="2.0"><channel><title>Tidy Show</title>
            <item><title>One</title><guid>one</guid><enclosure url="/one.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(feed, type: "application/rss+xml"))
        server.route("/one.mp3", .ok(Data("one episode".utf8)))
        try Data(feed.utf8).write(to: folder.url.appendingPathComponent("feed.xml"))
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    /// What a login shell gives: HOME and nothing of XDG, so Foundation's defaults apply; TMPDIR watched too.
    private func run(_ arguments: [String]) throws -> ProcessResult {
        let environment = [
            "HOME": folder.url.appendingPathComponent("home").path, "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "TMPDIR": folder.url.appendingPathComponent("tmp").path,
        ]
        return try ProcessRunner.run(
            ProcessRunner.podarchive, arguments, environment: environment, currentDirectory: folder.url)
    }

    /// Everything below `name`, folders included, but for the configuration folder podarchive owns.
    private func created(in name: String) -> [String] {
        let base = folder.url.appendingPathComponent(name).path
        let all = (FileManager.default.enumerator(atPath: base)?.allObjects as? [String]) ?? []
        return all.filter { $0 != ".config" && !$0.hasPrefix(".config/podarchive") }.sorted()
    }

    func test_listOfALocalFile_andASync_createNothingOutsideTheArchiveAndTheConfigurationFolder() throws {
        let list = try run(["list", "feed.xml"])
        XCTAssertEqual(list.status, 0, list.stderr)
        XCTAssertEqual(created(in: "home"), [], "list of a local file")

        let sync = try run(["sync", server.url("/feed.xml").absoluteString, "--to", "archive"])
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("archive/Tidy Show/One.mp3").path))
        XCTAssertEqual(created(in: "home"), [], "sync")
        XCTAssertEqual(created(in: "tmp"), [], "sync")
    }

    /// Run by the test below in a process of its own (and harmlessly in the suite): the isolated home is there
    /// while tests run.
    func test_isolatedHome_isThereWhileTestsRun() {
        IsolatedHome.activate()
        XCTAssertTrue(FileManager.default.fileExists(atPath: IsolatedHome.folder.path))
        XCTAssertEqual(ProcessInfo.processInfo.environment["HOME"], IsolatedHome.folder.path)
    }

    func test_aTestProcess_leavesNoIsolatedHomeBehind() throws {
        let tests = ProcessRunner.productsDirectory.appendingPathComponent("podarchivePackageTests.xctest")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: tests.path), "no test binary at \(tests.path)")
        let process = try ProcessRunner.start(
            tests, ["podarchiveTests.NoLitterTests/test_isolatedHome_isThereWhileTestsRun"],
            environment: [
                "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8", "TMPDIR": folder.url.appendingPathComponent("tmp").path,
            ])
        let result = process.wait()
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertTrue(result.stderr.contains("Executed 1 test") || result.stdout.contains("Executed 1 test"))
        XCTAssertEqual(created(in: "tmp"), [], "the child's podarchive-home-\(process.pid)")
    }
}
