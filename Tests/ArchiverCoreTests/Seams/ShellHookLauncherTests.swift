import Foundation
import TestSupport
import XCTest

// The live launcher with real /bin/sh commands: the environment reaches the command and nothing of it is read as
// shell text, the exit status comes back, and a hook past its time is stopped with its children, even one that
// ignores SIGTERM.
@testable import ArchiverCore

final class ShellHookLauncherTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("hooks")
    }

    override func tearDown() {
        folder.remove()
    }

    func test_theEnvironmentReachesTheCommand_andAHostileValueIsNeverRunAsShell() async throws {
        let out = folder.url.appendingPathComponent("out").path
        let exit = await ShellHookLauncher().run(
            #"printf '%s|%s' "$PODARCHIVE_TITLE" "$PODARCHIVE_FILE" > "$OUT""#,
            environment: [
                "PODARCHIVE_TITLE": "$(touch pwned); `touch pwned`", "PODARCHIVE_FILE": "/a b.mp3", "OUT": out,
            ],
            timeout: 10)

        XCTAssertEqual(exit, .exited(0))
        XCTAssertEqual(try String(contentsOfFile: out, encoding: .utf8), "$(touch pwned); `touch pwned`|/a b.mp3")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("pwned").path))
    }

    func test_theExitStatusComesBack() async {
        let exit = await ShellHookLauncher().run("exit 3", environment: [:], timeout: 10)
        XCTAssertEqual(exit, .exited(3))
        XCTAssertEqual(exit.reason, "exited with status 3")
    }

    func test_aHookPastItsTime_isStoppedWithTheChildrenItStarted() async throws {
        let pidFile = folder.url.appendingPathComponent("child").path
        let started = Date()
        let exit = await ShellHookLauncher(grace: 5).run(
            "sleep 60 & echo $! > \"$PIDFILE\"; wait", environment: ["PIDFILE": pidFile], timeout: 0.3)

        XCTAssertEqual(exit, .timedOut(0.3))
        XCTAssertLessThan(Date().timeIntervalSince(started), 5, "SIGTERM stopped it: no wait for the grace")
        let child = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        XCTAssertTrue(Self.ends(child), "the background child went with its group")
    }

    func test_aHookThatIgnoresSIGTERM_getsSIGKILL() async {
        let started = Date()
        let exit = await ShellHookLauncher(grace: 0.2).run(
            "trap '' TERM; sleep 60; sleep 60", environment: [:], timeout: 0.2)

        XCTAssertEqual(exit, .timedOut(0.2))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
    }

    func test_anInterruptedRun_stopsTheHookItWaitsFor() async throws {
        let marker = folder.url.appendingPathComponent("started").path
        let started = Date()
        let run = Task {
            await ShellHookLauncher().run(
                "echo > \"$MARKER\"; sleep 60", environment: ["MARKER": marker], timeout: 60)
        }
        let deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: marker) && Date() < deadline { usleep(10_000) }
        run.cancel()
        let exit = await run.value

        XCTAssertEqual(exit, .signalled(SIGTERM))
        XCTAssertLessThan(Date().timeIntervalSince(started), 10, "not left to run its minute")
    }

    func test_aCommandThatCannotRun_isAFailure() async {
        let exit = await ShellHookLauncher().run("/nonexistent/hook", environment: [:], timeout: 10)
        XCTAssertEqual(exit, .exited(127))
    }

    /// Whether process `pid` ends within 5 s: a signal is delivered when the process is next scheduled, so its end
    /// is looked for rather than assumed the instant the launcher returns.
    private static func ends(_ pid: String) -> Bool {
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline {
            if isGone(pid) { return true }
            usleep(10_000)
        }
        return isGone(pid)
    }

    /// Whether process `pid` has ended: no longer listed, or a zombie waiting to be reaped.
    private static func isGone(_ pid: String) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // "pid (comm) S ...": the state follows the command's closing parenthesis.
        guard let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(close, offsetBy: 2)] == "Z"
    }
}
