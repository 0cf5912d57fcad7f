// Each completion script, sourced in its shell, against a real archive (synced by the built binary from a loopback
// server): shows completed as the commands take them (no trailing slash, no .podarchive) wherever a show is asked
// for (`remove`, `config`, `forget`, `export --show`, `list --archived`), and after `forget SHOW` that show's
// episodes by file name. Skipped only where the shell is absent (CI installs bash, zsh and fish).
import Foundation
import TestSupport
import XCTest

@testable import podarchive

final class CompletionArchiveSessionTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!
    private var archive: URL { folder.url.appendingPathComponent("archive") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path), "podarchive is not built")
        folder = try TemporaryFolder("completion-archive")
        server = try TestHTTPServer()
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Tom's Show</title>"
                    + "<item><title>One Ep</title><guid>1</guid><enclosure url=\"/1.mp3\" type=\"audio/mpeg\"/></item>"
                    + "<item><title>Two</title><guid>2</guid><enclosure url=\"/2.mp3\" type=\"audio/mpeg\"/></item>"
                    + "</channel></rss>", type: "application/rss+xml"))
        server.route("/1.mp3", .ok(Data("ID3 one".utf8)))
        server.route("/2.mp3", .ok(Data("ID3 two".utf8)))
        let synced = try ProcessRunner.run(
            ProcessRunner.podarchive, ["sync", server.url("/feed.xml").absoluteString, "--to", archive.path],
            environment: environment, timeout: 30)
        XCTAssertEqual(synced.status, 0, synced.stderr)
        // The archive's own folder is there, as in every archive.
        XCTAssertTrue(FileManager.default.fileExists(atPath: archive.appendingPathComponent(".podarchive").path))
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
        super.tearDown()
    }

    /// The built podarchive first on the PATH (the scripts ask it for the root and the episodes), the archive
    /// named by $PODARCHIVE_DIR, a home of the test's own.
    private var environment: [String: String] {
        [
            "HOME": folder.url.path, "PATH": ProcessRunner.productsDirectory.path + ":/usr/bin:/bin",
            "PODARCHIVE_DIR": archive.path,
            "PODARCHIVE_CONFIG_DIR": folder.url.appendingPathComponent("cfg").path,
        ]
    }

    private func shell(_ paths: [String]) throws -> URL {
        let found = paths.first { FileManager.default.isExecutableFile(atPath: $0) }
        try XCTSkipIf(found == nil, "\(paths[0]) is not installed")
        return URL(fileURLWithPath: found!)
    }

    private func script(_ shell: String) throws -> URL {
        let file = folder.url.appendingPathComponent("podarchive.\(shell)")
        try Data(Completions.script(for: shell)!.utf8).write(to: file)
        return file
    }

    func test_bash_completesShowsWithoutDotFolders_andForgetsEpisodes() throws {
        let bash = try shell(["/bin/bash", "/usr/bin/bash"])
        let lines: [(words: String, expected: [String])] = [
            ("remove ''", ["Tom's Show"]),
            ("config ''", ["Tom's Show"]),
            ("forget ''", ["Tom's Show"]),
            (#"forget Tom\'s\ Show ''"#, ["One Ep.mp3", "Two.mp3"]),
            (#"forget --wait 3 "Tom's Show" O"#, ["One Ep.mp3"]),
            ("export --show ''", ["Tom's Show"]),
            ("list --archived ''", ["Tom's Show"]),
        ]
        var probe = "source '\(try script("bash").path)'\n"
        for line in lines {
            // The words as bash splits the line, the last one being completed.
            probe += "COMP_WORDS=(podarchive \(line.words)); COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 )); _podarchive; "
            probe += "printf '%s\\n' \"${COMPREPLY[@]}\" | sort; echo --\n"
        }

        let result = try ProcessRunner.run(bash, ["-c", probe], environment: environment, timeout: 20)

        let answers = result.stdout.components(separatedBy: "--\n").map { $0.split(separator: "\n").map(String.init) }
        XCTAssertEqual(answers.count, lines.count + 1, result.stdout + result.stderr)
        for (line, answer) in zip(lines, answers) {
            XCTAssertEqual(answer, line.expected, "podarchive \(line.words)")
        }
    }

    func test_zsh_insertsShowsAsTheCommandsTakeThem_andForgetsEpisodes() throws {
        let zsh = try shell(["/usr/bin/zsh", "/bin/zsh", "/usr/local/bin/zsh", "/opt/homebrew/bin/zsh"])
        let probe = try ProcessRunner.run(zsh, ["-f", "-c", "zmodload zsh/zpty"], environment: environment)
        try XCTSkipIf(probe.status != 0, "\(zsh.path) has no zsh/zpty module: \(probe.stderr)")
        let functions = folder.url.appendingPathComponent("functions")
        try FileManager.default.createDirectory(at: functions, withIntermediateDirectories: true)
        try Data(Completions.script(for: "zsh")!.utf8).write(to: functions.appendingPathComponent("_podarchive"))
        let driver = Fixtures.repositoryRoot.appendingPathComponent("Tests/Tools/zsh-complete.zsh")
        // Each line typed, then what is on it after Tab: the show's folder name quoted, a space, never a slash.
        let show = #"Tom\'s\ Show"#
        let lines: [(typed: String, offered: Set<String>, after: String)] = [
            ("podarchive remove ", [show], "podarchive remove \(show) "),
            ("podarchive config ", [show], "podarchive config \(show) "),
            ("podarchive forget ", [show], "podarchive forget \(show) "),
            ("podarchive export --show ", [show], "podarchive export --show \(show) "),
            ("podarchive list --archived ", [show], "podarchive list --archived \(show) "),
            ("podarchive forget \(show) ", [#"One\ Ep.mp3"#, "Two.mp3"], "podarchive forget \(show) "),
            (#"podarchive forget "Tom's Show" O"#, [#"One\ Ep.mp3"#], #"podarchive forget "Tom's Show" One\ Ep.mp3 "#),
        ]

        let result = try ProcessRunner.run(
            zsh, ["-f", driver.path, functions.path] + lines.map(\.typed), environment: environment, timeout: 30)

        let answers = result.stdout.components(separatedBy: "--\n").map { $0.components(separatedBy: "=\n") }
        XCTAssertEqual(answers.count, lines.count + 1, result.stdout + result.stderr)
        for (line, answer) in zip(lines, answers) where answer.count == 2 {
            XCTAssertEqual(Set(answer[0].split(separator: "\n").map(String.init)), line.offered, line.typed)
            XCTAssertEqual(answer[1], line.after + "\n", line.typed)
        }
    }

    func test_fish_completesShowsWhereveraShowIsAsked_andForgetsEpisodes() throws {
        let fish = try shell(["/usr/bin/fish", "/usr/local/bin/fish", "/opt/homebrew/bin/fish"])
        let lines: [(typed: String, expected: Set<String>)] = [
            ("podarchive remove ", ["Tom's Show"]),
            ("podarchive forget ", ["Tom's Show"]),
            (#"podarchive forget Tom\'s\ Show "#, ["One Ep.mp3", "Two.mp3"]),
            (#"podarchive forget --wait 3 "Tom's Show" O"#, ["One Ep.mp3"]),
            ("podarchive export --show ", ["Tom's Show"]),
            ("podarchive list --archived ", ["Tom's Show"]),
        ]
        let source = try script("fish")
        for line in lines {
            let result = try ProcessRunner.run(
                fish, ["-c", "source '\(source.path)'; complete -C \(Completions.fishQuoted(line.typed))"],
                environment: environment, timeout: 20)

            XCTAssertEqual(result.stderr, "", line.typed)
            let offered = result.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
            XCTAssertEqual(Set(offered), line.expected, line.typed)
        }
    }
}
