import Foundation
import TestSupport
import XCTest

// The man page and the shell completions say what the argument parser accepts, and the man page renders.
@testable import ArchiverCore
@testable import podarchive

final class DocumentationTests: XCTestCase {
    private let folder = Fixtures.repositoryRoot.appendingPathComponent("Sources/podarchive")
    private let root = Fixtures.repositoryRoot

    private func text(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    func test_helpOfEachCommand_namesEachOfItsOptions() {
        for command in Commands.entries.filter(\.info.readsConfiguration) {
            for option in Set(command.options.map(\.name)) {
                XCTAssertTrue(HelpText.text(for: command.name).contains(option), "help \(command.name) \(option)")
            }
        }
    }

    private func document(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }

    func test_readmeIsATour_andArchitectureAMap_withinTheirSizes() throws {
        for (path, limit) in [("README.md", 400), ("ARCHITECTURE.md", 150)] {
            let lines = try document(path).split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            XCTAssertLessThanOrEqual(lines.count, limit, path)
        }
        let readme = try document("README.md")
        XCTAssertTrue(readme.contains("    make test "), "the README's test command, which .ci/run runs")
        XCTAssertTrue(readme.contains("    make demo "), "the README's demo command")
        XCTAssertFalse(readme.contains("| code | meaning |"), "exit codes are the man page's")
    }

    func test_linksOfTheReadmeAndTheGuides_resolve() throws {
        let guides = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        XCTAssertFalse(guides.isEmpty)
        for path in ["README.md", "ARCHITECTURE.md", "BENCHMARKS.md"] + guides {
            let folder = root.appendingPathComponent(path).deletingLastPathComponent()
            for link in try document(path).matches(of: /\]\(([^)#:\s]+)(?:#[^)]*)?\)/) {
                let target = folder.appendingPathComponent(String(link.output.1)).standardizedFileURL
                XCTAssertTrue(FileManager.default.fileExists(atPath: target.path), "\(path): \(link.output.1)")
            }
        }
    }

    func test_architecturePromiseTable_namesTestsThatExist() throws {
        let architecture = try document("ARCHITECTURE.md")
        let table = try XCTUnwrap(
            architecture.components(separatedBy: "## Promises, and the tests that guard them").last)
        var sources = ""
        let tests = try XCTUnwrap(FileManager.default.enumerator(atPath: root.appendingPathComponent("Tests").path))
        for case let file as String in tests where file.hasSuffix(".swift") {
            sources += try document("Tests/" + file)
        }
        let named = table.matches(of: /`([A-Z][A-Za-z]+Tests)(?:\.(test_[A-Za-z0-9_]+)(…)?)?`/)
        XCTAssertGreaterThan(named.count, 40)
        for name in named {
            XCTAssertTrue(sources.contains("class \(name.output.1)"), String(name.output.1))
            if let test = name.output.2 {
                let whole = name.output.3 == nil ? "func \(test)(" : "func \(test)"
                XCTAssertTrue(sources.contains(whole), "\(name.output.1).\(test)")
            }
        }
    }

    func test_systemdService_runsACommandLineThePodarchiveOfTodayAccepts() throws {
        let unit = try text("Systemd/podarchive.service")
        let line = try XCTUnwrap(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let words = line.dropFirst("ExecStart=".count).replacingOccurrences(of: "%h", with: "/home/someone")
            .split(separator: " ").map(String.init)

        XCTAssertEqual(words.first, "@BINDIR@/podarchive", "make install fills in the binary's folder")
        guard let arguments = CommandLineParser.read(SyncCommand.self, Array(words.dropFirst())) else {
            return XCTFail("\(words) does not parse as a sync")
        }
        XCTAssertEqual(arguments.feeds, [], "every subscription")
        XCTAssertNil(arguments.feedList)
        // The root is the configuration file's `to` (else $PODARCHIVE_DIR's, else ~/Podcasts): the unit names none,
        // not even in a condition, so a root set in the file is the one it runs on.
        XCTAssertNil(arguments.archiveDirectory)
        XCTAssertFalse(unit.contains("Podcasts/"), "no archive root in the unit")
        let configured = try OptionDefaults(
            file: ConfigurationFile(parsing: "to = /srv/podcasts", path: "/c/config", home: nil), environment: [:])
        guard let withFile = CommandLineParser.read(SyncCommand.self, Array(words.dropFirst()), defaults: configured)
        else { return XCTFail("\(words) does not parse as a sync") }
        XCTAssertEqual(withFile.archiveDirectory, "/srv/podcasts")
    }

    func test_completions_offerEveryCommandAndOption_forEachShell() throws {
        for shell in Completions.shells {
            let script = try XCTUnwrap(Completions.script(for: shell))
            for command in Commands.names {
                XCTAssertTrue(script.contains(command), "\(shell): \(command)")
            }
            for option in OptionCatalog.all {
                let name =
                    shell == "fish"
                    ? (option.name == "--help" ? "-l help" : "-l \(option.name.dropFirst(2))") : option.name
                XCTAssertTrue(script.contains(name), "\(shell): \(option.name)")
            }
        }
    }

    func test_completionsCommand_printsTheScript_andRefusesAnUnknownShell() async {
        XCTAssertEqual(
            CommandLineParser.parsed(CompletionsCommand.self, "completions bash"),
            .success(.run(CompletionsCommand.Arguments(shell: "bash"))))
        guard case .failure(let error) = CommandLineParser.parsed(CompletionsCommand.self, "completions tcsh") else {
            return XCTFail("tcsh has no completions")
        }
        XCTAssertEqual(error.message, "completions needs one of bash, zsh, fish, got 'tcsh'")
    }

    func test_everyOptionTheHelpOffers_isAcceptedByTheParser() {
        // The help and the parser come from one table; this is the user's view of it: whatever `help` lists parses.
        for command in ["sync", "list", "verify"] {
            let help = HelpText.text(for: command)
            let offered = Set(help.matches(of: /(?m)^  (?:-[a-zA-Z], )?(--[a-z-]+)/).map { String($0.output.1) })
            XCTAssertEqual(offered, Set(Commands.entry(command)!.options.map(\.name)), command)
        }
    }

    private func shellIsInstalled(_ path: String) -> Bool { FileManager.default.isExecutableFile(atPath: path) }

    func test_completionScripts_areValidForTheirShells() throws {
        for (shell, path) in [("bash", "/bin/bash"), ("zsh", "/usr/bin/zsh"), ("fish", "/usr/bin/fish")]
        where shellIsInstalled(path) {
            let folder = try TemporaryFolder("completion")
            defer { folder.remove() }
            let file = folder.url.appendingPathComponent("script")
            try Data(Completions.script(for: shell)!.utf8).write(to: file)

            let result = try ProcessRunner.run(
                URL(fileURLWithPath: path), ["-n", file.path], environment: ["PATH": "/usr/bin:/bin"])

            XCTAssertEqual(result.status, 0, "\(shell): \(result.stderr)")
        }
    }

    func test_helpMan_printsThePage_whichRendersWithoutAWarning() throws {
        let man = URL(fileURLWithPath: "/usr/bin/man")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: man.path), "man is not installed")
        let printed = try ProcessRunner.run(ProcessRunner.podarchive, ["help", "--man"], environment: [:])
        XCTAssertEqual(printed.status, 0, printed.stderr)
        XCTAssertTrue(printed.stdout.hasPrefix(#".\" podarchive(1)"#), printed.stdout)
        let scratch = try TemporaryFolder("manual")
        defer { scratch.remove() }
        let page = scratch.url.appendingPathComponent("podarchive.1")
        try Data(printed.stdout.utf8).write(to: page)

        let result = try ProcessRunner.run(
            man, ["--warnings=all", "-l", page.path],
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0", "LANG": "C.UTF-8"])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "groff warnings")
        // Through a pipe, man marks bold by overstriking ("E\bE"): drop the overstruck copies.
        let plain = result.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        for heading in ["SYNOPSIS", "COMMANDS", "OPTIONS", "EXIT STATUS", "FILES", "SEE ALSO"] {
            XCTAssertTrue(plain.contains("\n\(heading)\n"), heading)
        }
        XCTAssertTrue(plain.contains("--repair"), plain)
        XCTAssertTrue(plain.contains("downloads.log"), "FILES names the show's download log")
    }

    func test_manPageFiles_nameEveryFileTheArchiveLayoutNames() throws {
        let files =
            ManualPage.page.replacingOccurrences(of: #"\-"#, with: "-")
            .components(separatedBy: "\n.SH FILES\n").last?.components(separatedBy: "\n.SH ").first ?? ""
        // Every name of the state folders (the layout's own list, so a new record file is named here at once).
        let names =
            ArchiveLayout.stateNames.sorted() + [
                ArchiveLayout.setAside(""), ArchiveLayout.temporaryInfix, ArchiveLayout.sidecarSuffix,
                ArchiveLayout.configurationFile, ArchiveLayout.credentialsFolder, ArchiveLayout.sitePage,
                ArchiveLayout.siteOPML, ArchiveLayout.siteFeed, ArchiveLayout.stateFolderName,
            ] + ArchiveLayout.downloadBody("hash").components(separatedBy: "hash")
        for name in names {
            XCTAssertTrue(files.contains(name), name)
        }
        XCTAssertFalse(files.contains("download-<hash>.json"), "the archive keeps one downloads.log")
    }

    func test_bashCompletion_completesCommandsOptionsAndFolderNamesWithSpaces() throws {
        let bash = URL(fileURLWithPath: "/bin/bash")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: bash.path), "bash is not installed")
        let folder = try TemporaryFolder("bash-completion")
        defer { folder.remove() }
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("My Show"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("Mystery"), withIntermediateDirectories: true)
        let script = folder.url.appendingPathComponent("podarchive.bash")
        try Data(Completions.script(for: "bash")!.utf8).write(to: script)
        let probe = """
            cd '\(folder.url.path)'
            source '\(script.path)'
            show() { local IFS='|'; echo "${COMPREPLY[*]}"; }
            COMP_WORDS=(podarchive ve); COMP_CWORD=1; _podarchive; show
            COMP_WORDS=(podarchive sync --j); COMP_CWORD=2; _podarchive; show
            COMP_WORDS=(podarchive verify M); COMP_CWORD=2; _podarchive; show
            COMP_WORDS=(podarchive sync --to My); COMP_CWORD=3; _podarchive; show
            COMP_WORDS=(podarchive verify --jo); COMP_CWORD=2; _podarchive; show
            COMP_WORDS=(podarchive remove ''); COMP_CWORD=2; _podarchive; show
            """
        // `remove` offers the archive's shows, not the folders where the shell happens to be.
        let archive = folder.url.appendingPathComponent("archive")
        try FileManager.default.createDirectory(
            at: archive.appendingPathComponent("Daily Show"), withIntermediateDirectories: true)

        let result = try ProcessRunner.run(
            bash, ["-c", probe], environment: ["PATH": "/usr/bin:/bin", "PODARCHIVE_DIR": archive.path])

        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            Set($0.split(separator: "|").map(String.init))
        }
        XCTAssertEqual(lines.count, 7, result.stdout + result.stderr)
        guard lines.count == 7 else { return }
        XCTAssertEqual(lines[0], ["verify"])
        XCTAssertEqual(lines[1], ["--json", "--jobs"])
        XCTAssertEqual(lines[2], ["My Show", "Mystery"], "a folder name with a space is one completion")
        XCTAssertEqual(lines[3], ["My Show", "Mystery"])
        XCTAssertEqual(lines[4], ["--jobs"])
        XCTAssertEqual(lines[5], ["Daily Show"], "remove: the archive's shows")
    }

    func test_fishCompletion_completesFolderNamesWithSpacesAsOneAndOptionsPerCommand() throws {
        let fish = URL(fileURLWithPath: "/usr/bin/fish")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: fish.path), "fish is not installed")
        let folder = try TemporaryFolder("fish-completion")
        defer { folder.remove() }
        for name in ["My Show", "Mystery"] {
            try FileManager.default.createDirectory(
                at: folder.url.appendingPathComponent(name), withIntermediateDirectories: true)
        }
        let script = folder.url.appendingPathComponent("podarchive.fish")
        try Data(Completions.script(for: "fish")!.utf8).write(to: script)

        func complete(_ line: String) throws -> [String] {
            let result = try ProcessRunner.run(
                fish, ["-c", "cd '\(folder.url.path)'; source '\(script.path)'; complete -C '\(line)'"],
                environment: [
                    "PATH": "/usr/bin:/bin", "HOME": folder.url.path,
                    "PODARCHIVE_DIR": folder.url.appendingPathComponent("archive").path,
                ])
            return result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        }

        XCTAssertEqual(try complete("podarchive verify M"), ["My Show/", "Mystery/"])
        XCTAssertEqual(try complete("podarchive sync --to My"), ["My Show/", "Mystery/"])
        XCTAssertEqual(try complete("podarchive verify --jo"), ["--jobs"])
        XCTAssertEqual(try complete("podarchive list --re"), [], "list has no --repair")
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("archive/Daily Show"), withIntermediateDirectories: true)
        XCTAssertEqual(try complete("podarchive remove "), ["Daily Show"], "remove: the archive's shows")
    }
}
