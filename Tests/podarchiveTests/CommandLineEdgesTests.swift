import Foundation
import TestSupport
import XCTest

// The command line's rough edges a new user met (issue 38), each as that user would: help for every command
// (its own exit codes), a usage error in one line, `config` printing what its own file accepts, `--limit-rate 0`,
// `add` and `sync` merging a show's settings the same way, `--clear` forgetting one, and `sync` reading a page
// with the configuration file's User-Agent.
@testable import ArchiverCore
@testable import podarchive

final class CommandLineEdgesTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }

    private func writeConfiguration(_ text: String) throws {
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: configurationFolder.path)
        try Data(text.utf8).write(to: configurationFolder.appendingPathComponent("config"))
    }

    /// The saved settings of the one show, as `feeds --json` says them.
    private func savedSettings() async throws -> [String: Any] {
        output.clear()
        let code = await run("feeds", "--json", "--to", root)
        XCTAssertEqual(code, .success, errors.text)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        let shows = try XCTUnwrap(object?["feeds"] as? [[String: Any]], output.text)
        XCTAssertEqual(shows.count, 1)
        return shows.first?["settings"] as? [String: Any] ?? [:]
    }

    // MARK: - Help

    func test_everyCommandsHelp_endsWithItsOwnExitCodes() async {
        for name in Commands.names {
            output.clear()
            let code1 = await run("help", name)
            XCTAssertEqual(code1, .success, name)
            let page = output.text
            XCTAssertTrue(page.hasPrefix("usage: podarchive \(name)"), page)
            let codes = page.components(separatedBy: "Exit codes:\n").last ?? ""
            let said = Set(codes.matches(of: #/(?m)^ *([0-9]+)  /#).map { String($0.output.1) })
            let own = Set(Commands.entry(name)!.info.exitCodes.filter { $0 != .terminated }.map { String($0.rawValue) })
            XCTAssertEqual(said, own, name)
        }
        output.clear()
        _ = await run("help", "search")
        XCTAssertFalse(output.text.contains("another podarchive is syncing"), "search takes no lock")
    }

    func test_helpAndCompletions_takeHelpAsEveryCommandDoes() async {
        for name in ["help", "completions"] {
            output.clear()
            errors.clear()
            let code2 = await run(name, "--help")
            XCTAssertEqual(code2, .success, errors.text)
            XCTAssertTrue(output.text.hasPrefix("usage: podarchive \(name)"), output.text)
            XCTAssertEqual(errors.text, "")
        }
    }

    func test_helpForNoCommand_isOneLineAndExit2() async {
        let code3 = await run("help", "sink")
        XCTAssertEqual(code3, .usage)
        XCTAssertEqual(
            errors.lines, ["podarchive: no help for 'sink' (did you mean 'sync'?)", "see 'podarchive help'"])
        XCTAssertEqual(output.text, "")
    }

    // MARK: - The configuration file

    func test_config_printsEveryValueInTheFormItsFileAccepts() async throws {
        let code4 = await run("config", "--to", root)
        XCTAssertEqual(code4, .success, errors.text)
        // Every line `key = value` it prints, written back as a configuration file, reads as it was printed.
        let lines = output.lines.filter { !$0.hasPrefix("#") }.map { line in
            line.components(separatedBy: "  #").first!.trimmingCharacters(in: .whitespaces)
        }
        XCTAssertTrue(lines.contains("exec-timeout = 300"), output.text)
        XCTAssertTrue(lines.contains("timeout = 3600"), output.text)
        let file = try ConfigurationFile(parsing: lines.joined(separator: "\n"), path: "/c/config", home: nil)
        XCTAssertEqual(file.entries.count, lines.count)
        XCTAssertNoThrow(try OptionDefaults(file: file, environment: [:]))
    }

    func test_unknownKey_namesTheKeysAsTheFileWritesThem() throws {
        let file = try ConfigurationFile(parsing: "companion = false", path: "/c/config", home: nil)
        XCTAssertThrowsError(try OptionDefaults(file: file, environment: [:])) { error in
            let text = (error as? ConfigurationFileError)?.localizedDescription ?? "\(error)"
            XCTAssertTrue(text.contains("unknown key 'companion' (did you mean 'companions'?)"), text)
            XCTAssertFalse(text.contains("no-companions"), text)
            XCTAssertFalse(text.contains("no-metadata"), text)
        }
    }

    func test_limitRateZero_turnsTheFilesLimitOff_forThatRun() throws {
        let file = try OptionDefaults(
            file: ConfigurationFile(parsing: "limit-rate = 1M", path: "/c/config", home: nil), environment: [:])
        XCTAssertEqual(CommandLineParser.read(SyncCommand.self, ["sync"], defaults: file)?.transfer.limitRate, 1 << 20)
        XCTAssertEqual(
            CommandLineParser.read(SyncCommand.self, ["sync", "--limit-rate", "0"], defaults: file)?.transfer.limitRate,
            .some(nil))
        XCTAssertEqual(
            CommandLineParser.parsed(SyncCommand.self, "sync --limit-rate 10"),
            .failure(
                UsageError(
                    message: "option '--limit-rate' needs bytes a second such as 500K or 2M (at least 1K), or 0 for "
                        + "no limit, got '10'", command: "sync")))
    }

    // MARK: - Saved settings

    func test_addAndSync_mergeGivenSettingsIntoTheSavedOnes_andClearForgetsOne() async throws {
        serveFeed(episodes: [("One", "/one.mp3")])
        server.route("/one.mp3", .ok(Data("audio".utf8)))
        let feed = server.url("/feed.xml").absoluteString
        let code5 = await run("add", feed, "--to", root, "--name", "{date} {title}", "--limit", "3")
        XCTAssertEqual(code5, .success)
        let code6 = await run("add", feed, "--to", root, "--metadata")
        XCTAssertEqual(code6, .success, errors.text)
        var settings = try await savedSettings()
        XCTAssertEqual(settings["name"] as? String, "{date} {title}", "add keeps what it was not given")
        XCTAssertEqual(settings["limit"] as? Int, 3)
        XCTAssertEqual(settings["metadata"] as? Bool, true)

        let code7 = await run("sync", feed, "--to", root, "--clear", "name", "--no-companions")
        XCTAssertEqual(code7, .success)
        settings = try await savedSettings()
        XCTAssertNil(
            settings["name"].flatMap { $0 is NSNull ? nil : $0 },
            "--clear name forgets it: the file is named by the default again")
        XCTAssertEqual(settings["limit"] as? Int, 3)
        XCTAssertEqual(settings["metadata"] as? Bool, true)
        XCTAssertEqual(settings["companions"] as? Bool, false)
        XCTAssertEqual(folder.files().filter { $0.hasSuffix(".mp3") }, ["archive/CLI Show/One.mp3"])

        let code8 = await run("add", feed, "--to", root, "--clear", "limit", "--clear", "metadata")
        XCTAssertEqual(code8, .success)
        settings = try await savedSettings()
        XCTAssertNil(settings["limit"].flatMap { $0 is NSNull ? nil : $0 })
        XCTAssertNil(settings["metadata"].flatMap { $0 is NSNull ? nil : $0 })
        XCTAssertEqual(settings["companions"] as? Bool, false)
    }

    func test_clear_refusesANameThatIsNoSetting() async {
        let code9 = await run("sync", "feed.xml", "--clear", "colour")
        XCTAssertEqual(code9, .usage)
        XCTAssertEqual(
            errors.lines.first,
            "podarchive: option '--clear' needs one of name, metadata, limit, since, match, companions, user-agent, "
                + "netrc-file, prefer, exclude, until, min-duration, max-duration, episodes, match-in, keep-last, keep-days, "
                + "into, delete, ascii-names, folder-name, got 'colour'")
    }

    func test_aSavedSettingIsShownAsAWordTheShellReadsBack_apostropheAndAll() {
        XCTAssertEqual(
            ShowSettings(limit: 2, match: "it's").asOptions(), #"--limit 2 --match 'it'\''s'"#)
        XCTAssertEqual(
            SyncFormatter.leftOut(
                1, settings: SettingsLayers(given: ShowSettings(), saved: ShowSettings(limit: 0, match: "it's")),
                feed: .local(path: "/f.xml")
            ) { $0.asOptions(only: $1) },
            #"; 1 more listed, left out by the saved filter (--match 'it'\''s'): 'podarchive sync /f.xml --all' "#
                + "clears it")
    }

    // MARK: - Pages

    func test_sync_followsAPageWithTheConfigurationFilesUserAgent_asAddDoes() async throws {
        serveFeed(episodes: [("One", "/one.mp3")])
        server.route("/one.mp3", .ok(Data("audio".utf8)))
        server.route(
            "/show",
            .ok(
                "<html><head><link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.xml\"></head></html>",
                type: "text/html"))
        try writeConfiguration("user-agent = ConfiguredAgent/2\n")

        let code = await run("sync", server.url("/show").absoluteString, "--to", root)

        XCTAssertEqual(code, .success, errors.text)
        let agents = server.requests.map { "\($0.path) \($0.headers["user-agent"] ?? "none")" }
        XCTAssertTrue(agents.contains("/show ConfiguredAgent/2"), "\(agents)")
        XCTAssertFalse(agents.contains { !$0.hasSuffix("ConfiguredAgent/2") }, "\(agents)")
    }

    func test_credentialsMove_withNoConfigurationFolder_saysWhereOneComesFrom_exit5_andMovesNothing() async throws {
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)

        let code = await run("credentials", "--move", "--to", root, variables: ["HOME": ""])

        XCTAssertEqual(code, .archiveFailed)
        XCTAssertEqual(
            errors.text,
            "podarchive: no configuration folder to keep credentials in: set PODARCHIVE_CONFIG_DIR (or "
                + "XDG_CONFIG_HOME, or HOME)\n")
        XCTAssertEqual(output.text, "")
    }
}
