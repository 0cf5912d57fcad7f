// Each completion script, sourced in its shell, completes a command, each command's options (exactly the declared
// ones) and a subscription (a show folder of an archive root made here). Skipped only where the shell (or, for zsh,
// its zsh/zpty module) is absent; CI installs bash, zsh and fish.
import Foundation
import TestSupport
import XCTest

@testable import podarchive

final class CompletionSessionTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        try super.setUpWithError()
        folder = try TemporaryFolder("completion-session")
        // The archive root: one subscribed show, named with an apostrophe and a space.
        try FileManager.default.createDirectory(
            at: folder.url.appendingPathComponent("archive/Tom's Show"), withIntermediateDirectories: true)
    }

    override func tearDown() {
        folder.remove()
        super.tearDown()
    }

    private func spellings(_ command: CommandEntry, long: Bool = false) -> Set<String> {
        Set(command.options.flatMap { [$0.name] + (long ? [] : $0.short.map { ["-\($0)"] } ?? []) })
    }

    private func shell(_ path: String) throws -> URL {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: path), "\(path) is not installed")
        return URL(fileURLWithPath: path)
    }

    func test_bash_completesCommandsEachCommandsOptionsAndASubscription() throws {
        let bash = try shell("/bin/bash")
        let script = folder.url.appendingPathComponent("podarchive.bash")
        try Data(Completions.script(for: "bash")!.utf8).write(to: script)
        var probe = """
            source '\(script.path)'
            show() { local IFS='|'; echo "${COMPREPLY[*]}"; }
            COMP_WORDS=(podarchive ''); COMP_CWORD=1; _podarchive; show
            COMP_WORDS=(podarchive sy); COMP_CWORD=1; _podarchive; show
            COMP_WORDS=(podarchive remove ''); COMP_CWORD=2; _podarchive; show

            """
        for command in Commands.entries.filter(\.info.readsConfiguration) {
            probe += "COMP_WORDS=(podarchive \(command.name) -); COMP_CWORD=2; _podarchive; show\n"
        }

        let result = try ProcessRunner.run(
            bash, ["-c", probe],
            environment: ["PATH": "/usr/bin:/bin", "PODARCHIVE_DIR": folder.url.appendingPathComponent("archive").path])

        let lines = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            Set($0.split(separator: "|").map(String.init))
        }
        XCTAssertEqual(
            lines.count, 3 + Commands.entries.filter(\.info.readsConfiguration).count + 1, result.stdout + result.stderr
        )
        guard lines.count > 3 + Commands.entries.filter(\.info.readsConfiguration).count else { return }
        XCTAssertEqual(lines[0], Set(Commands.names + ["--help", "--version"]))
        XCTAssertEqual(lines[1], ["sync"])
        XCTAssertEqual(lines[2], ["Tom's Show"])
        for (index, command) in Commands.entries.filter(\.info.readsConfiguration).enumerated() {
            XCTAssertEqual(lines[3 + index], spellings(command), command.name)
        }
    }

    func test_fish_completesCommandsEachCommandsOptionsAndASubscription() throws {
        let fish = try shell("/usr/bin/fish")
        let script = folder.url.appendingPathComponent("podarchive.fish")
        try Data(Completions.script(for: "fish")!.utf8).write(to: script)
        func complete(_ line: String) throws -> Set<String> {
            let result = try ProcessRunner.run(
                fish, ["-c", "source '\(script.path)'; complete -C '\(line)'"],
                environment: [
                    "PATH": "/usr/bin:/bin", "HOME": folder.url.path,
                    "PODARCHIVE_DIR": folder.url.appendingPathComponent("archive").path,
                ])
            XCTAssertEqual(result.stderr, "", line)
            return Set(result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) })
        }

        XCTAssertEqual(try complete("podarchive "), Set(Commands.names))
        XCTAssertEqual(try complete("podarchive sy"), ["sync"])
        XCTAssertEqual(try complete("podarchive remove "), ["Tom's Show"])
        for command in Commands.entries.filter(\.info.readsConfiguration) {
            XCTAssertEqual(try complete("podarchive \(command.name) -"), spellings(command), command.name)
            XCTAssertEqual(
                try complete("podarchive \(command.name) --"), spellings(command, long: true), command.name)
        }
    }

    /// zsh where it is installed, and only with its zsh/zpty module (the session runs in a pseudo-terminal it
    /// makes): some builds leave the module out, and the test then skips, saying which is missing.
    private func zshWithPseudoTerminals() throws -> URL {
        let found = ["/usr/bin/zsh", "/bin/zsh", "/usr/local/bin/zsh", "/opt/homebrew/bin/zsh"].first {
            FileManager.default.isExecutableFile(atPath: $0)
        }
        let zsh = try shell(found ?? "/usr/bin/zsh")
        let probe = try ProcessRunner.run(
            zsh, ["-f", "-c", "zmodload zsh/zpty"], environment: ["PATH": "/usr/bin:/bin"])
        try XCTSkipIf(probe.status != 0, "\(zsh.path) has no zsh/zpty module: \(probe.stderr)")
        return zsh
    }

    func test_zsh_completesCommandsEachCommandsOptionsAndASubscription() throws {
        let zsh = try zshWithPseudoTerminals()
        let functions = folder.url.appendingPathComponent("functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        try Data(Completions.script(for: "zsh")!.utf8).write(to: functions.appendingPathComponent("_podarchive"))
        let driver = Fixtures.repositoryRoot.appendingPathComponent("Tests/Tools/zsh-complete.zsh")
        let requests =
            ["podarchive ", "podarchive sy", "podarchive remove "]
            + Commands.entries.filter(\.info.readsConfiguration).map { "podarchive \($0.name) -" }

        // One interactive zsh (in a pseudo-terminal) completes each line in turn with its completion system.
        let result = try ProcessRunner.run(
            zsh, ["-f", driver.path, functions.path] + requests,
            environment: ["PATH": "/usr/bin:/bin", "PODARCHIVE_DIR": folder.url.appendingPathComponent("archive").path])

        // Each answer: the matches offered, then "=" and the line after Tab.
        let answers = result.stdout.components(separatedBy: "--\n").map {
            Set($0.components(separatedBy: "=\n")[0].split(separator: "\n").map(String.init))
        }
        XCTAssertEqual(answers.count, requests.count + 1, result.stdout + result.stderr)
        guard answers.count > requests.count else { return }
        XCTAssertEqual(answers[0], Set(Commands.names))
        XCTAssertEqual(answers[1], ["sync"])
        XCTAssertEqual(answers[2], [#"Tom\'s\ Show"#], "the show's folder, quoted as zsh inserts it")
        for (index, command) in Commands.entries.filter(\.info.readsConfiguration).enumerated() {
            XCTAssertEqual(answers[3 + index], spellings(command), command.name)
        }
    }

    /// Each shell completes `remove`'s show from the root the configuration file names (asking the podarchive on
    /// the PATH), not from ~/Podcasts.
    func test_eachShell_completesTheShowsOfTheConfigurationFilesRoot() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path), "podarchive is not built")
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent("Podcasts/Not This One"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: home.appendingPathComponent(".config/podarchive"), withIntermediateDirectories: true)
        try Data("to = \(folder.url.appendingPathComponent("archive").path)\n".utf8).write(
            to: home.appendingPathComponent(".config/podarchive/config"))
        let environment = [
            "HOME": home.path, "PATH": ProcessRunner.productsDirectory.path + ":/usr/bin:/bin",
        ]
        let bash = try shell("/bin/bash")
        let script = folder.url.appendingPathComponent("podarchive.bash")
        try Data(Completions.script(for: "bash")!.utf8).write(to: script)

        let result = try ProcessRunner.run(
            bash,
            [
                "-c",
                "source '\(script.path)'; COMP_WORDS=(podarchive remove ''); COMP_CWORD=2; _podarchive; "
                    + "printf '%s\\n' \"${COMPREPLY[@]}\"",
            ],
            environment: environment)
        XCTAssertEqual(result.stdout, "Tom's Show\n", result.stderr)

        if FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") {
            let fishScript = folder.url.appendingPathComponent("podarchive.fish")
            try Data(Completions.script(for: "fish")!.utf8).write(to: fishScript)
            let fish = try ProcessRunner.run(
                URL(fileURLWithPath: "/usr/bin/fish"),
                ["-c", "source '\(fishScript.path)'; complete -C 'podarchive remove '"], environment: environment)
            XCTAssertEqual(fish.stdout, "Tom's Show\n", fish.stderr)
        }
        if let zsh = try? zshWithPseudoTerminals() {
            let functions = folder.url.appendingPathComponent("functions")
            try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
            try Data(Completions.script(for: "zsh")!.utf8).write(to: functions.appendingPathComponent("_podarchive"))
            let driver = Fixtures.repositoryRoot.appendingPathComponent("Tests/Tools/zsh-complete.zsh")
            let answer = try ProcessRunner.run(
                zsh, ["-f", driver.path, functions.path, "podarchive remove "], environment: environment)
            XCTAssertEqual(
                Set(
                    answer.stdout.components(separatedBy: "=\n")[0].split(separator: "\n").map(String.init)),
                [#"Tom\'s\ Show"#], answer.stderr)
        }
    }

    func test_quotedText_readsBackWhole_inEachShell() throws {
        let hostile = #"the feed's [host] \ a: $(touch x) `y` "z" ${HOME} ; end"#
        for (path, quoted) in [
            ("/bin/bash", ShellWord.quoted(hostile)), ("/usr/bin/zsh", ShellWord.quoted(hostile)),
            ("/usr/bin/fish", Completions.fishQuoted(hostile)),
        ] where FileManager.default.isExecutableFile(atPath: path) {
            let result = try ProcessRunner.run(
                URL(fileURLWithPath: path), ["-c", "printf '%s' \(quoted)"], environment: ["PATH": "/usr/bin:/bin"])

            XCTAssertEqual(result.stdout, hostile, path)
            XCTAssertEqual(result.stderr, "", path)
        }
    }
}
