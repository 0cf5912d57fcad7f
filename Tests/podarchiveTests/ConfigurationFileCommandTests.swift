import Foundation
import TestSupport
import XCTest

// The configuration file as commands meet it: each line read by its option's declaration (one line, file and line
// named, exit 2 for a bad one), its values under the command line, a show's saved settings and the environment,
// never saved, and `podarchive config` saying where each value comes from.
@testable import ArchiverCore
@testable import podarchive

final class ConfigurationFileCommandTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }
    private var file: URL { configurationFolder.appendingPathComponent("config") }

    private func write(_ text: String) throws {
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: file)
    }

    private func defaults(_ text: String, environment: [String: String] = [:]) throws -> OptionDefaults {
        try OptionDefaults(
            file: ConfigurationFile(parsing: text, path: "/c/config", home: "/home/me"), environment: environment)
    }

    private func problem(_ text: String) -> String? {
        do {
            _ = try defaults(text)
            return nil
        } catch {
            return error.localizedDescription
        }
    }

    // MARK: - Each line read by its option's declaration

    func test_unknownKey_namesFileLineAndKey_withASuggestion() {
        XCTAssertEqual(
            problem("jobs = 2\njobz = 3")?.hasPrefix("/c/config:2: unknown key 'jobz' (did you mean 'jobs'?)"), true)
        // An option the file may not set is no key of it: a header is a show's secret, --quiet a run's choice.
        XCTAssertEqual(problem("header = Authorization: x")?.hasPrefix("/c/config:1: unknown key 'header'"), true)
        XCTAssertEqual(problem("quiet = true")?.hasPrefix("/c/config:1: unknown key 'quiet'"), true)
    }

    func test_aValueItsOptionRefuses_namesFileLineAndValue_asTheCommandLineWould() {
        XCTAssertEqual(problem("jobs = 0"), "/c/config:1: jobs needs a whole number from 1 to 64, got '0'")
        XCTAssertEqual(
            problem("limit-rate = fast"),
            "/c/config:1: limit-rate needs bytes a second such as 500K or 2M (at least 1K), or 0 for no limit, got 'fast'"
        )
        XCTAssertEqual(
            problem("\nuser-agent = \"\u{7}\""), "/c/config:2: user-agent needs one line of text, got '\u{7}'")
        XCTAssertEqual(
            problem("name = {titel}")?.hasPrefix("/c/config:1: name: name template '{titel}' cannot be used"), true)
        XCTAssertEqual(problem("metadata = maybe"), "/c/config:1: metadata needs true or false, got 'maybe'")
    }

    func test_aSwitch_trueSetsIt_falseSetsItsOpposite_andOppositesContradict() throws {
        XCTAssertEqual(try defaults("metadata = yes").configured.map(\.option.name), ["--metadata"])
        XCTAssertEqual(try defaults("metadata = false").configured.map(\.option.name), ["--no-metadata"])
        XCTAssertEqual(try defaults("companions = off").configured.map(\.option.name), ["--no-companions"])
        XCTAssertEqual(
            problem("metadata = true\nno-metadata = true"), "/c/config:2: no-metadata = true contradicts line 1")
    }

    // MARK: - Layering, as the parser gives each command its values

    func test_aRunSetting_commandLineOverFile_fileOverDefault() throws {
        let file = try defaults("jobs = 2\nretries = 7")
        guard let plain = CommandLineParser.read(SyncCommand.self, ["sync"], defaults: file),
            let given = CommandLineParser.read(SyncCommand.self, ["sync", "-j", "5"], defaults: file),
            let none = CommandLineParser.read(SyncCommand.self, ["sync"])
        else { return XCTFail("sync does not parse") }
        XCTAssertEqual(plain.transfer.jobs, 2)
        XCTAssertEqual(plain.transfer.retries, 7)
        XCTAssertEqual(given.transfer.jobs, 5)
        XCTAssertEqual(given.transfer.retries, 7)
        XCTAssertEqual(none.transfer.jobs, TransferSettings().jobs)
    }

    func test_theArchiveRoot_commandLineOverEnvironmentOverFile() throws {
        let fileOnly = try defaults("to = ~/FromFile")
        let both = try defaults("to = ~/FromFile", environment: ["PODARCHIVE_DIR": "/from/env"])
        func root(_ arguments: [String], _ defaults: OptionDefaults) -> String? {
            guard let feeds = CommandLineParser.read(FeedsCommand.self, arguments, defaults: defaults) else {
                return nil
            }
            return feeds.archiveDirectory
        }
        XCTAssertEqual(root(["feeds"], fileOnly), "/home/me/FromFile")
        XCTAssertEqual(root(["feeds"], both), "/from/env")
        XCTAssertEqual(root(["feeds", "--to", "/given"], both), "/given")
        XCTAssertEqual(root(["feeds"], try defaults("jobs = 2")), nil)
    }

    func test_aShowSetting_isALayerOfItsOwn_neverGiven() throws {
        let file = try defaults("name = {date} {title}\nmetadata = true\nuser-agent = Config/1")
        guard let sync = CommandLineParser.read(SyncCommand.self, ["sync", "--no-metadata"], defaults: file),
            let add = CommandLineParser.read(AddCommand.self, ["add", "f.xml"], defaults: file),
            let list = CommandLineParser.read(ListCommand.self, ["list", "f.xml"], defaults: file)
        else { return XCTFail("does not parse") }
        XCTAssertEqual(sync.given, ShowSettings(metadata: false), "only what was given is saved")
        XCTAssertEqual(sync.configured, ShowSettings(name: "{date} {title}", metadata: true, userAgent: "Config/1"))
        XCTAssertEqual(add.given, ShowSettings())
        XCTAssertEqual(list.configured, ShowSettings(userAgent: "Config/1"), "list takes only what it has options for")
    }

    // MARK: - Commands

    func test_aBadLine_isExit2_oneLineNamingFileAndLine_beforeAnythingIsDone_butHelpStillWorks() async throws {
        try write("# defaults\njobs = 2\nlimit-rate 500K\n")

        let sync = await run("sync", "--to", root)
        let said = errors.text
        errors.clear()
        let help = await run("help", "sync")

        XCTAssertEqual(sync, .usage)
        XCTAssertEqual(said, "podarchive: \(file.path):3: 'limit-rate 500K' is not 'key = value'\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: root), "nothing created")
        XCTAssertEqual(help, .success)
        XCTAssertEqual(errors.text, "")
    }

    func test_fileValues_areDefaultsUnderSaved_andNeverSaved() async throws {
        serveFeed(episodes: [("One", "/1.mp3")])
        server.route("/1.mp3", .ok(Data("audio".utf8)))
        let feed = server.url("/feed.xml").absoluteString
        try write("to = \(root)\nname = file {title}\nuser-agent = FromFile/1\n")

        let first = await run("sync", feed)
        let record = try String(
            contentsOf: try XCTUnwrap(
                FileManager.default.contentsOfDirectory(
                    at: URL(fileURLWithPath: root).appendingPathComponent(".podarchive/feeds"),
                    includingPropertiesForKeys: nil
                ).first),
            encoding: .utf8)

        XCTAssertEqual(first, .success, errors.text)
        XCTAssertEqual(folder.files().filter { $0.hasSuffix(".mp3") }, ["archive/CLI Show/file One.mp3"])
        XCTAssertEqual(server.requests.first?.headers["user-agent"], "FromFile/1")
        XCTAssertFalse(record.contains("file {title}"), record)
        XCTAssertFalse(record.contains("FromFile"), record)

        // A show's saved setting is over the file's.
        output.clear()
        let add = await run("add", feed, "--user-agent", "Saved/1", "--to", root)
        XCTAssertEqual(add, .success, errors.text)
        output.clear()
        let config = await run("config", "CLI Show", "--jobs", "3")
        XCTAssertEqual(config, .success, errors.text)
        let lines = output.text.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.first, "# configuration file: \(file.path)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("to = \(root) ") && $0.hasSuffix("# config file:1") }, output.text)
        XCTAssertTrue(lines.contains { $0.hasPrefix("name = file {title} ") && $0.hasSuffix("# config file:2") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("user-agent = Saved/1 ") && $0.hasSuffix("# saved") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("jobs = 3 ") && $0.hasSuffix("# command line") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("retries = 3 ") && $0.hasSuffix("# default") })
        XCTAssertTrue(lines.contains { $0.hasPrefix("# limit-rate (none) ") && $0.hasSuffix("# default") })
    }

    func test_configJSON_everyKeyTheFileMaySet_withItsSource() async throws {
        try write("jobs = 2\n")

        let code = await run(
            "config", "--json", "--user-agent", "Given/1",
            variables: ["PODARCHIVE_DIR": root, "HOME": "/home/me", "PODARCHIVE_CONFIG_DIR": configurationFolder.path])

        XCTAssertEqual(code, .success, errors.text)
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        XCTAssertEqual(object["file"] as? String, file.path)
        let settings = try XCTUnwrap(object["settings"] as? [[String: Any]])
        let keys = settings.compactMap { $0["key"] as? String }
        XCTAssertEqual(
            Set(keys), Set(OptionCatalog.configurable.map(\.key)).subtracting(["no-metadata", "no-companions"]),
            "a switch and its opposite are one setting")
        let byKey = Dictionary(uniqueKeysWithValues: settings.map { ($0["key"] as! String, $0) })
        XCTAssertEqual(byKey["jobs"]?["source"] as? String, "config file")
        XCTAssertEqual(byKey["jobs"]?["line"] as? Int, 1)
        XCTAssertEqual(byKey["to"]?["value"] as? String, root)
        XCTAssertEqual(byKey["to"]?["source"] as? String, "environment")
        XCTAssertEqual(byKey["user-agent"]?["value"] as? String, "Given/1")
        XCTAssertEqual(byKey["user-agent"]?["source"] as? String, "command line")
        XCTAssertEqual(byKey["netrc-file"]?["value"] as? String, "/home/me/.netrc")
        XCTAssertEqual(byKey["metadata"]?["value"] as? String, "false")
        XCTAssertEqual(byKey["metadata"]?["source"] as? String, "default")
    }

    func test_aSavedSettingThatIsNotValid_isNamedByItsOption() {
        let line = SettingsSaid.errorLine(
            SettingsError(key: .userAgent, value: "two\nlines", problem: .needs("one line of text")))
        XCTAssertEqual(
            line,
            "the saved --user-agent 'two lines' is not valid: needs one line of text; give --user-agent again with "
                + "'podarchive add <feed>' to replace it")
    }
}
