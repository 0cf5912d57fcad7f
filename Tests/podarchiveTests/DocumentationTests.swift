// The man page and the shell completions say what the argument parser accepts, and the man page renders.
import Foundation
import TestSupport
import XCTest

@testable import podarchive

final class DocumentationTests: XCTestCase {
    private let folder = Fixtures.repositoryRoot.appendingPathComponent("Sources/podarchive")

    private func text(_ path: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
    }

    func test_manPage_documentsEveryCommandOptionAndExitCode() throws {
        // roff writes a hyphen in an option as "\-".
        let page = try text("Documentation/podarchive.1").replacingOccurrences(of: "\\-", with: "-")
        for command in Arguments.commands {
            XCTAssertTrue(page.contains(".B \(command)"), "command \(command)")
        }
        for (command, options) in Arguments.options {
            for option in options.keys {
                XCTAssertTrue(page.contains(option), "\(command) \(option)")
                XCTAssertTrue(HelpText.text(for: command).contains(option), "help \(command) \(option)")
            }
        }
        for code in [ExitCode.success, .episodesFailed, .usage, .feedFailed, .locked, .archiveFailed] {
            XCTAssertTrue(page.contains(".B \(code.rawValue)\n"), "exit code \(code.rawValue)")
            XCTAssertTrue(HelpText.exitCodes.contains("  \(code.rawValue)  "), "help exit code \(code.rawValue)")
        }
        for code in [ExitCode.interrupted, .terminated] {
            XCTAssertTrue(page.contains(".B \(code.rawValue)\n"), "exit code \(code.rawValue)")
            XCTAssertTrue(HelpText.exitCodes.contains("\(code.rawValue)"), "help exit code \(code.rawValue)")
        }
    }

    func test_systemdService_runsACommandLineThePodarchiveOfTodayAccepts() throws {
        let unit = try text("Systemd/podarchive.service")
        let line = try XCTUnwrap(unit.split(separator: "\n").first { $0.hasPrefix("ExecStart=") })
        let words = line.dropFirst("ExecStart=".count).replacingOccurrences(of: "%h", with: "/home/someone")
            .split(separator: " ").map(String.init)

        XCTAssertEqual(words.first, "@BINDIR@/podarchive", "make install fills in the binary's folder")
        guard case .success(.sync(let arguments)) = Arguments.parse(Array(words.dropFirst())) else {
            return XCTFail("\(words) does not parse as a sync")
        }
        XCTAssertEqual(arguments.feedList, "/home/someone/.config/podarchive/feeds")
        XCTAssertEqual(arguments.archiveDirectory, "/home/someone/Podcasts")
        XCTAssertTrue(unit.contains("ConditionPathExists=%h/.config/podarchive/feeds"), "no feeds file, no failed run")
    }

    func test_completions_offerEveryCommandAndOption() throws {
        for file in ["Completions/podarchive.bash", "Completions/_podarchive", "Completions/podarchive.fish"] {
            let script = try text(file)
            for command in Arguments.commands {
                XCTAssertTrue(script.contains(command), "\(file): \(command)")
            }
            for option in Set(Arguments.options.values.flatMap(\.keys)) {
                let name = file.hasSuffix(".fish") ? "-l \(option.dropFirst(2))" : option
                XCTAssertTrue(script.contains(name), "\(file): \(option)")
            }
        }
    }

    func test_manPage_rendersWithoutWarnings() throws {
        let man = URL(fileURLWithPath: "/usr/bin/man")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: man.path), "man is not installed")
        let page = folder.appendingPathComponent("Documentation/podarchive.1").path

        let result = try ProcessRunner.run(
            man, ["--warnings=all", "-l", page],
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "80", "MAN_KEEP_FORMATTING": "0", "LANG": "C.UTF-8"])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "groff warnings")
        // Through a pipe, man marks bold by overstriking ("E\bE"): drop the overstruck copies.
        let plain = result.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
        XCTAssertTrue(plain.contains("EXIT STATUS"), plain)
        XCTAssertTrue(plain.contains("--repair"), plain)
    }

    func test_bashCompletion_completesCommandsAndOptions() throws {
        let bash = URL(fileURLWithPath: "/bin/bash")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: bash.path), "bash is not installed")
        let script = folder.appendingPathComponent("Completions/podarchive.bash").path
        let probe = """
            source '\(script)'
            COMP_WORDS=(podarchive ve); COMP_CWORD=1; _podarchive; echo "${COMPREPLY[*]}"
            COMP_WORDS=(podarchive sync --j); COMP_CWORD=2; _podarchive; echo "${COMPREPLY[*]}"
            """

        let result = try ProcessRunner.run(bash, ["-c", probe], environment: ["PATH": "/usr/bin:/bin"])

        XCTAssertEqual(result.stdout, "verify\n--json --jobs\n", result.stderr)
    }
}
