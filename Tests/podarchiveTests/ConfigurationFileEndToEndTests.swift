import Foundation
import TestSupport
import XCTest

// The built binary with a configuration file, run as cron runs it: the configuration folder under a temporary
// folder (PODARCHIVE_CONFIG_DIR), never the real home. The file's `to` is the archive root a bare `podarchive
// sync` (the systemd unit's command) uses; `podarchive config` says so; a bad line stops every command with exit 2.
@testable import ArchiverCore

final class ConfigurationFileEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("config-e2e")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
    }

    override func tearDown() {
        server?.stop()
        folder.remove()
    }

    private var configuration: URL { folder.url.appendingPathComponent("settings") }

    private func writeConfiguration(_ text: String) throws {
        try FileManager.default.createDirectory(at: configuration, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: configuration.appendingPathComponent("config"))
    }

    private func podarchive(_ arguments: String..., extra: [String: String] = [:]) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments,
            environment: ProcessRunner.isolatedEnvironment(
                home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": configuration.path].merging(extra) { $1 }),
            currentDirectory: folder.url)
    }

    func test_binary_aBareSync_archivesIntoTheFilesRoot_withItsTemplate_andConfigSaysWhereEachComesFrom() throws {
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Night Show</title><item><title>Pilot</title><guid>p</guid>"
                    + "<pubDate>Fri, 03 Jan 2025 10:00:00 GMT</pubDate><enclosure url=\"/pilot.mp3\" "
                    + "type=\"audio/mpeg\"/></item></channel></rss>", type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data("ID3 pilot".utf8)))
        try writeConfiguration(
            """
            # nightly
            to = ~/Nightly
            name = {date} {title}   # dated names
            jobs = 2
            """)

        let add = try podarchive("add", server.url("/feed.xml").absoluteString)
        let sync = try podarchive("sync")
        let config = try podarchive("config", "--json")
        let overridden = try podarchive("config", "--to", "elsewhere", extra: ["PODARCHIVE_DIR": "/from/env"])

        XCTAssertEqual(add.status, 0, add.stderr)
        XCTAssertEqual(add.stdout, "subscribed \(server.url("/feed.xml").absoluteString) into Night Show/\n")
        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(
            folder.visibleFiles().filter { $0.hasSuffix(".mp3") }, ["Nightly/Night Show/2025-01-03 Pilot.mp3"])
        XCTAssertEqual(config.status, 0, config.stderr)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(config.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(object["file"] as? String, configuration.appendingPathComponent("config").path)
        let settings = try XCTUnwrap(object["settings"] as? [[String: Any]])
        let to = try XCTUnwrap(settings.first { $0["key"] as? String == "to" })
        XCTAssertEqual(to["value"] as? String, folder.url.path + "/Nightly")
        XCTAssertEqual(to["source"] as? String, "config file")
        XCTAssertEqual(to["line"] as? Int, 2)
        // The command line over the environment over the file.
        XCTAssertTrue(
            overridden.stdout.split(separator: "\n").contains {
                $0.hasPrefix("to = elsewhere ") && $0.hasSuffix("# command line")
            }, overridden.stdout)
        // Nothing of the file was saved with the show.
        let records = folder.url.appendingPathComponent("Nightly/.podarchive/feeds")
        let record = try FileManager.default.contentsOfDirectory(atPath: records.path).map {
            try String(contentsOf: records.appendingPathComponent($0), encoding: .utf8)
        }.joined()
        XCTAssertFalse(record.contains("{date}"), record)
    }

    func test_binary_aBadValue_isExit2_namingFileLineAndValue_andNothingIsTouched() throws {
        try writeConfiguration("to = ~/Nightly\njobs = many\n")

        let sync = try podarchive("sync")
        let help = try podarchive("help", "config")

        XCTAssertEqual(sync.status, 2)
        XCTAssertEqual(
            sync.stderr,
            "podarchive: \(configuration.path)/config:2: jobs needs a whole number from 1 to 64, got 'many'\n")
        XCTAssertEqual(sync.stdout, "")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("Nightly").path))
        XCTAssertEqual(help.status, 0, "help never reads the file")
    }
}
