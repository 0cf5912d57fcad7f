import Foundation
import TestSupport
import XCTest

// Every command and option declared appears in every artifact made from the declarations, and no other: each help
// page, the man page `podarchive help --man` prints, and each shell's completions.
@testable import ArchiverCore
@testable import podarchive

final class GeneratedArtifactsTests: XCTestCase {
    /// Each command's options as a shell offers them: long names and short ones.
    private func spellings(_ command: CommandEntry) -> Set<String> {
        Set(command.options.flatMap { [$0.name] + ($0.short.map { ["-\($0)"] } ?? []) })
    }

    func test_helpOfEachCommand_offersExactlyItsOptions_withTheirShortNames() {
        for command in Commands.entries.filter(\.info.readsConfiguration) {
            let help = HelpText.text(for: command.name)
            let block = help.matches(of: #/(?m)^  (?:(-[a-zA-Z]), )?(--[a-z-]+)/#)
            let offered = Set(block.flatMap { [String($0.output.2)] + ($0.output.1.map { [String($0)] } ?? []) })
            XCTAssertEqual(offered, spellings(command), command.name)
            let usage = Set(help.matches(of: /\[(--[a-z-]+)/).map { String($0.output.1) })
            XCTAssertEqual(usage, Set(command.options.map(\.name)).subtracting(["--help"]))
        }
        let general = HelpText.text(for: nil)
        let listed = Set(general.matches(of: #/(?m)^  ([a-z]+)  /#).map { String($0.output.1) })
        XCTAssertEqual(listed, Set(Commands.names))
        let usage = Set(general.matches(of: #/(?m)^(?:usage:|      ) podarchive ([a-z]+)/#).map { String($0.output.1) })
        XCTAssertEqual(usage, Set(Commands.names))
        // Each usage line whole, within 80 columns.
        for line in HelpText.usage.split(separator: "\n") {
            XCTAssertLessThanOrEqual(line.count, 80, String(line))
        }
    }

    /// The text of the generated page's section `name`, up to the next section, hyphens as `-`.
    private func section(_ name: String) throws -> String {
        let page = ManualPage.page.replacingOccurrences(of: #"\-"#, with: "-")
        return try XCTUnwrap(
            page.components(separatedBy: "\n.SH \(name)\n").dropFirst().first?.components(separatedBy: "\n.SH ").first,
            name)
    }

    func test_manPage_optionsSection_namesEveryDeclaredOptionAndNoOther() throws {
        let headings = try section("OPTIONS").components(separatedBy: ".TP\n").dropFirst().map {
            $0.prefix { $0 != "\n" }
        }
        let named = headings.flatMap { $0.matches(of: /(--?[a-zA-Z][a-z-]*)/).map { String($0.output.1) } }
        let declared = OptionCatalog.all.flatMap { [$0.name] + ($0.short.map { ["-\($0)"] } ?? []) }
        XCTAssertEqual(Set(named), Set(declared + ["-V", "--version"]))
    }

    func test_manPage_commands_headEachCommandWithItsSummary_thenWhatItsHelpSays() throws {
        let commands = try section("COMMANDS")
        for command in Commands.entries {
            let about = command.info.about.prefix(1).uppercased() + command.info.about.dropFirst()
            let prose = HelpMarkup(command.info.discussion).roff.replacingOccurrences(of: #"\-"#, with: "-")
            XCTAssertTrue(commands.contains(".TP\n.B \(command.name)\n\(about).\n.IP\n\(prose)"), command.name)
        }
    }

    func test_manPage_showSettingsAndConfigurationKeys_areTheDeclaredOnes() throws {
        let settings = try section("SHOW SETTINGS").matches(of: /(?m)^\.BR (--[a-z-]+) [,.]$/).map {
            String($0.output.1)
        }
        XCTAssertEqual(settings, OptionCatalog.showSettings.map(\.name))
        let keyList = try XCTUnwrap(section("CONFIGURATION FILE").components(separatedBy: "Its keys:\n").last)
        let keys = keyList.matches(of: /(?m)^\.BR ([a-z-]+) [,.]$/).map { String($0.output.1) }
        XCTAssertEqual(keys, OptionDefaults.keys)
        XCTAssertFalse(keys.contains("no-companions"), "the file writes companions = false")
        XCTAssertTrue(keys.contains("user-agent"), "\(keys)")
    }

    func test_manPage_exitStatus_givesEveryCodeTheHelpGives() throws {
        let status = try section("EXIT STATUS")
        let listed = status.matches(of: /(?m)^\.B ([0-9]+)$/).map { String($0.output.1) }
        XCTAssertEqual(listed, ["0", "1", "2", "3", "4", "5", "130"])
        for code in ExitCode.allCases {
            XCTAssertTrue(status.contains("\(code.rawValue)"), "exit code \(code.rawValue)")
        }
        XCTAssertTrue(status.contains("worst first: \(ExitCode.worstFirst)"))
    }

    func test_manPageSynopsis_givesEachCommandExactlyItsOptions() throws {
        let synopsis = try section("SYNOPSIS")
        var named: [String: Set<String>] = [:]
        for block in synopsis.components(separatedBy: ".B podarchive ").dropFirst() {
            let command = String(block.prefix { $0.isLetter })
            let options = block.matches(of: /(?:^|[ \n"])(--?[a-zA-Z][a-z-]*)/).map { String($0.output.1) }
            named[command, default: []].formUnion(options)
        }
        for command in Commands.entries.filter(\.info.readsConfiguration) {
            let declared = command.options.filter { $0.name != "--help" }.flatMap {
                [$0.name] + ($0.short.map { ["-\($0)"] } ?? [])
            }
            XCTAssertEqual(named[command.name], Set(declared), command.name)
        }
        XCTAssertEqual(Set(named.keys), Set(Commands.names).union([""]), "every command, and --version")
    }

    func test_helpSyncAndFeeds_nameEverySettingAShowKeeps() {
        let saved = [
            "--name", "--ascii-names", "--folder-name", "--metadata", "--no-companions", "--companions",
            "--no-metadata", "--limit",
            "--since",
            "--match", "--exclude", "--until", "--match-in", "--min-duration", "--max-duration", "--episodes",
            "--prefer", "--netrc-file", "--user-agent", "--keep-last", "--keep-days", "--into", "--delete",
        ]
        XCTAssertEqual(OptionCatalog.showSettings.map(\.name), saved)
        XCTAssertTrue(
            HelpText.text(for: "sync").replacingOccurrences(of: "\n", with: " ").contains(
                "(" + saved.joined(separator: ", ") + ")"))
        let every = ShowSettings(
            name: "{date} {title}", metadata: true, limit: 3, since: "2025-01-31", match: "(?i)news", companions: false,
            userAgent: "Agent/1", netrcFile: "/home/x/.netrc", prefer: "audio/opus,opus")
        XCTAssertEqual(
            every.asOptions(),
            "--name '{date} {title}' --metadata --no-companions --limit 3 --since 2025-01-31 --match '(?i)news' "
                + "--prefer 'audio/opus,opus' --netrc-file /home/x/.netrc --user-agent 'Agent/1'")
    }

    func test_zshScript_offersEachCommandExactlyItsOptions() throws {
        let script = try XCTUnwrap(Completions.script(for: "zsh"))
        for command in Commands.entries.filter(\.info.readsConfiguration) {
            let line = try XCTUnwrap(
                script.split(separator: "\n").first { $0.hasPrefix("        \(command.name)) _arguments") })
            // Each spec names its option as '--name[', '(group)--name[' or {-n,--name}.
            let names = line.matches(of: /(?:'|\)|\{|,)(--?[a-zA-Z][a-z-]*)(?=\[|,|\})/).map { String($0.output.1) }
            XCTAssertEqual(Set(names), spellings(command), command.name)
        }
        let values = script.matches(of: /'([a-z]+)\[/).map { String($0.output.1) }
        XCTAssertEqual(Set(values), Set(Commands.names))
    }

    func test_completionText_isQuotedForEachShell() {
        XCTAssertEqual(ShellWord.quoted("feed's host"), #"'feed'\''s host'"#)
        XCTAssertEqual(Completions.fishQuoted(#"feed's \ host"#), #"'feed\'s \\ host'"#)
        XCTAssertEqual(Completions.zshDescription("a [b]: c"), #"a \[b\]: c"#)
        XCTAssertEqual(Completions.zshDescription("k:n", colons: true), #"k\:n"#)
    }
}
