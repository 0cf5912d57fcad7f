import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// What sync shows: plain lines when nobody watches, a live area redrawn in place on a terminal, and nothing a
// terminal could not take (NO_COLOR, TERM=dumb, narrow windows).
@testable import ArchiverCore
@testable import podarchive

final class SyncConsoleTests: XCTestCase {
    private let output = CapturedOutput()
    private let errors = CapturedOutput()
    private let clock = TestClock()
    private let root = URL(fileURLWithPath: "/archive")
    private let one = Episode(title: "One", guid: "1", url: "https://example.com/1.mp3")
    private let two = Episode(
        title: "Two: a much longer title that will not fit a narrow window", guid: "2", url: "https://example.com/2.mp3"
    )

    private func terminal(tty: Bool = true, dumb: Bool = false, noColor: Bool = false, width: Int = 72)
        -> TerminalInfo
    {
        TerminalInfo(outputIsTerminal: tty, errorsIsTerminal: tty, dumb: dumb, noColor: noColor, columns: { width })
    }

    private func console(_ terminal: TerminalInfo, verbosity: Verbosity = .normal) -> SyncConsole {
        let clock = self.clock
        return SyncConsole(
            output: output, errors: errors, terminal: terminal, verbosity: verbosity, json: false, root: root,
            now: { clock.now })
    }

    /// A sync of two episodes: one archived after a megabyte a second, one failed.
    private func play(_ console: SyncConsole) {
        console.handle(.feedRead(title: "Show", folder: root.appendingPathComponent("Show"), episodes: 2, new: 2))
        console.handle(.started(one, position: 0, total: 2))
        console.handle(.started(two, position: 1, total: 2))
        clock.advance(1)
        console.handle(.progress(position: 0, received: 16_384, expected: 2_000_000))
        clock.advance(1)
        console.handle(.progress(position: 0, received: 1_000_000, expected: 2_000_000))
        clock.advance(1)
        console.handle(.progress(position: 0, received: 2_000_000, expected: 2_000_000))
        console.handle(.finished(position: 0))
        console.handle(.finished(position: 1))
        console.handle(.archived(one, file: root.appendingPathComponent("Show/One.mp3"), bytes: 2_000_000))
        console.handle(.failed(two, .httpStatus(404)))
        console.finish(summary: "Show: 1 archived, 1 failed, 0 already archived")
    }

    // MARK: - Not a terminal

    func test_notATerminal_printsOneLinePerEpisodeAndNoEscapeCodes() {
        play(console(terminal(tty: false)))

        XCTAssertEqual(
            output.lines, ["archived Show/One.mp3 (2.0 MB)", "Show: 1 archived, 1 failed, 0 already archived"])
        XCTAssertEqual(
            errors.lines,
            [
                "podarchive: episode \"Two: a much longer title that will not fit a narrow window\" "
                    + "<https://example.com/2.mp3>: server answered HTTP 404"
            ])
        XCTAssertFalse(output.text.contains("\u{1B}") || errors.text.contains("\u{1B}"))
    }

    func test_theSummary_countsFailedHooks_inTheNumberItSays() {
        var report = SyncReport(feedTitle: "Night Show", folder: URL(fileURLWithPath: "/archive/Night Show"))
        let problem = HookProblem(
            episode: "Pilot", file: "Pilot.mp3", reason: "exited with status 3", runs: 1, gaveUp: false)
        report.hookProblems = [problem]
        XCTAssertTrue(SyncFormatter.summary(report).contains("1 hook failed"), SyncFormatter.summary(report))
        report.hookProblems = [problem, problem, problem]
        XCTAssertTrue(SyncFormatter.summary(report).contains("3 hooks failed"), SyncFormatter.summary(report))
    }

    func test_aWaitBeforeARetry_isSaid() {
        let console = console(terminal(tty: false))

        console.handle(
            .waitingToRetry(
                Episode(title: "Pilot", guid: nil, url: "https://example.com/p.mp3"), seconds: 16.2, .httpStatus(429)))

        XCTAssertEqual(output.lines, ["retrying Pilot in 17 s: server answered HTTP 429"])
    }

    func test_aFileMovedOffTheSitesName_isOneLine_andOneThatCouldNotBe_isOneErrorLine() {
        let console = console(terminal(tty: false))
        let from = root.appendingPathComponent("Show/cover.jpg")
        let to = root.appendingPathComponent("Show/cover (2).jpg")

        console.handle(.siteName(SiteNameMove(from: from, to: to)))
        console.handle(.siteName(SiteNameMove(from: from, to: to, failure: "Permission denied")))

        XCTAssertEqual(output.lines, ["moved Show/cover.jpg to Show/cover (2).jpg: the site needs the name cover.jpg"])
        XCTAssertEqual(
            errors.lines,
            [
                "podarchive: Show/cover.jpg could not be moved to Show/cover (2).jpg (the site needs the name "
                    + "cover.jpg): Permission denied; it stays as it was"
            ])
    }

    func test_dumbTerminal_getsThePlainLinesToo() {
        play(console(terminal(dumb: true)))

        XCTAssertEqual(
            output.lines, ["archived Show/One.mp3 (2.0 MB)", "Show: 1 archived, 1 failed, 0 already archived"])
        XCTAssertFalse(output.text.contains("\u{1B}") || errors.text.contains("\u{1B}"))
    }

    // MARK: - A terminal

    func test_terminal_drawsEachDownloadAndNofM_thenLeavesOnlyThePermanentLines() {
        let console = console(terminal())
        console.handle(.feedRead(title: "Show", folder: root.appendingPathComponent("Show"), episodes: 2, new: 2))
        console.handle(.started(one, position: 0, total: 2))
        console.handle(.started(two, position: 1, total: 2))
        clock.advance(0.5)
        console.handle(.progress(position: 0, received: 16_384, expected: 2_000_000))
        clock.advance(1)
        console.handle(.progress(position: 0, received: 1_016_384, expected: 2_000_000))

        let screen = Screen(output.text)
        XCTAssertEqual(screen.lines.count, 3, screen.lines.joined(separator: "\n"))
        XCTAssertTrue(screen.lines[0].hasPrefix("  One "))
        XCTAssertTrue(screen.lines[0].contains("1.0 MB /   2.0 MB  50%"), screen.lines[0])
        XCTAssertEqual(screen.lines[0].count, 71, "the whole width but the last column")
        XCTAssertTrue(screen.lines[0].contains("1.0 MB/s"), screen.lines[0])
        XCTAssertTrue(screen.lines[0].hasSuffix("0:01 left"), screen.lines[0])
        XCTAssertTrue(screen.lines[1].hasPrefix("  Two: a much longer title"), screen.lines[1])
        XCTAssertEqual(screen.lines[2], "Show: 0 of 2, 1.0 MB/s")

        clock.advance(1)
        console.handle(.finished(position: 0))
        console.handle(.archived(one, file: root.appendingPathComponent("Show/One.mp3"), bytes: 2_000_000))
        XCTAssertEqual(Screen(output.text).lines.first, "archived Show/One.mp3 (2.0 MB)")
        XCTAssertEqual(Screen(output.text).lines.last, "Show: 1 of 2")

        console.handle(.finished(position: 1))
        console.handle(.failed(two, .httpStatus(404)))
        console.finish(summary: "Show: 1 archived, 1 failed, 0 already archived")
        XCTAssertEqual(
            Screen(output.text).lines,
            ["archived Show/One.mp3 (2.0 MB)", "Show: 1 archived, 1 failed, 0 already archived"],
            "the live area is gone; errors went to standard error")
        XCTAssertTrue(output.text.contains("\u{1B}[32marchived\u{1B}[0m"), "colour on a terminal")
        XCTAssertTrue(errors.text.hasPrefix("\u{1B}[31mpodarchive:\u{1B}[0m episode \"Two"))
    }

    func test_everyLiveLineFitsTheWindow_wideCharactersCountTwice() {
        let wide = Episode(title: "日本語のポッドキャスト🎙️エピソード第一回のタイトル", guid: "w", url: "https://example.com/w.mp3")
        for width in [30, 50, 72, 120] {
            let captured = CapturedOutput()
            let clock = self.clock
            let console = SyncConsole(
                output: captured, errors: errors, terminal: terminal(width: width), verbosity: .normal, json: false,
                root: root, now: { clock.now })
            console.handle(
                .feedRead(title: String(repeating: "Long feed title ", count: 10), folder: root, episodes: 2, new: 2))
            console.handle(.started(wide, position: 0, total: 2))
            console.handle(.started(two, position: 1, total: 2))
            clock.advance(3)
            console.handle(.progress(position: 1, received: 1_456_789, expected: 987_654_321))
            clock.advance(3)
            console.handle(.progress(position: 1, received: 123_456_789, expected: 987_654_321))
            for line in Screen(captured.text).lines {
                XCTAssertLessThan(SyncConsole.columns(line), width, "\(width): \(line)")
            }
        }
    }

    func test_narrowWindow_cutsTheTitleBeforeTheNumbers_andSizesNeverTouch() {
        for (width, expectTiming) in [(40, false), (100, true)] {
            let output = CapturedOutput()
            let clock = TestClock()
            let console = SyncConsole(
                output: output, errors: CapturedOutput(), terminal: terminal(width: width), verbosity: .normal,
                json: false, root: root, now: { clock.now })
            let title = "A rather long episode title that will not fit"
            console.handle(.feedRead(title: "Show", folder: root.appendingPathComponent("Show"), episodes: 1, new: 1))
            console.handle(.started(Episode(title: title, guid: nil, url: "https://e.x/1.mp3"), position: 0, total: 1))
            console.handle(.progress(position: 0, received: 24_600, expected: 350_000))
            clock.advance(1)
            console.handle(.progress(position: 0, received: 124_600, expected: 350_000))

            let line = Screen(output.text).lines[0]

            XCTAssertTrue(line.contains("124.6 kB / 350.0 kB"), "\(width): \(line)")
            XCTAssertTrue(line.contains("35%"), "\(width): the percentage stays: \(line)")
            XCTAssertEqual(line.contains("left"), expectTiming, "\(width): \(line)")
            XCTAssertEqual(line.contains("…"), width == 40, "\(width): the title is cut only when narrow: \(line)")
            XCTAssertLessThan(SyncConsole.columns(line), width, line)
        }
    }

    func test_noColor_keepsTheLiveAreaButNoColours() {
        play(console(terminal(noColor: true)))

        XCTAssertTrue(output.text.contains("\u{1B}[J"), "still redrawn in place")
        XCTAssertFalse(output.text.contains("m\u{1B}") || output.text.contains("\u{1B}[0m"), "no SGR codes")
        XCTAssertFalse(errors.text.contains("\u{1B}"))
    }

    func test_progressRedrawsAtMostTenTimesASecond() {
        let console = console(terminal())
        console.handle(.feedRead(title: "Show", folder: root.appendingPathComponent("Show"), episodes: 1, new: 1))
        console.handle(.started(one, position: 0, total: 1))
        clock.advance(0.5)
        let before = output.text.components(separatedBy: "\u{1B}[J").count
        for bytes in 1...1000 { console.handle(.progress(position: 0, received: Int64(bytes) * 16_384, expected: nil)) }
        let burst = output.text.components(separatedBy: "\u{1B}[J").count - before
        clock.advance(SyncConsole.redrawInterval)
        console.handle(.progress(position: 0, received: 20_000_000, expected: nil))
        let after = output.text.components(separatedBy: "\u{1B}[J").count - before

        XCTAssertEqual(burst, 1, "a thousand reports in one instant draw once")
        XCTAssertEqual(after, 2)
        XCTAssertTrue(Screen(output.text).lines[0].contains("20.0 MB"))
    }

    func test_quiet_showsNoProgressEvenOnATerminal() {
        play(console(terminal(), verbosity: .quiet))

        XCTAssertEqual(output.text, "")
        XCTAssertEqual(errors.lines.count, 1)
    }

    func test_detect_readsTermNoColorAndColumns() {
        let plain = TerminalInfo.detect(
            ProcessEnvironment(variables: ["TERM": "xterm-256color", "COLUMNS": "133"], currentDirectory: "/"))
        let dumb = TerminalInfo.detect(
            ProcessEnvironment(variables: ["TERM": "dumb", "NO_COLOR": "1"], currentDirectory: "/"))
        let emptyNoColor = TerminalInfo.detect(
            ProcessEnvironment(variables: ["TERM": "xterm", "NO_COLOR": ""], currentDirectory: "/"))

        XCTAssertFalse(plain.dumb)
        XCTAssertFalse(plain.noColor)
        if isatty(1) == 0 { XCTAssertEqual(plain.columns(), 133, "no window size: $COLUMNS") }
        XCTAssertTrue(dumb.dumb)
        XCTAssertTrue(dumb.noColor)
        XCTAssertFalse(emptyNoColor.noColor, "NO_COLOR counts only when it is not empty")
        XCTAssertTrue(TerminalInfo.detect(ProcessEnvironment(variables: [:], currentDirectory: "/")).dumb)
    }

    func test_failureAndErrorLines_nameTheOptionThatHelps_theCoreNeverDoes() {
        let episode = Episode(title: "Long one", guid: nil, url: "https://e.x/1.mp3")

        XCTAssertEqual(
            SyncFormatter.failureLine(episode, .timedOut(3600)),
            "episode \"Long one\" <https://e.x/1.mp3>: not complete after 3600 s; it resumes next run "
                + "(--timeout sets how long an episode may take)")
        XCTAssertEqual(
            SyncFormatter.errorLine(ArchiveError.locked(folder: "/a/Show", holder: 7)),
            "/a/Show is being synced by process 7; try again later or pass --wait SECONDS")
        // ArchiverCore could serve an app with no command line: its messages name no flag. The command line's words
        // are said in one layer, Presentation/ (the executable's lines), which such an app would not call.
        let core = Fixtures.repositoryRoot.appendingPathComponent("Sources/ArchiverCore")
        let enumerator = FileManager.default.enumerator(atPath: core.path)
        while let file = enumerator?.nextObject() as? String {
            guard file.hasSuffix(".swift"), !file.hasPrefix("Presentation/"),
                let text = try? String(contentsOf: core.appendingPathComponent(file), encoding: .utf8)
            else { continue }
            for line in text.split(separator: "\n") where !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") {
                XCTAssertNil(line.firstMatch(of: /"[^"]*--[a-z]/), "\(file): \(line)")
            }
        }
    }

    func test_durations() {
        XCTAssertEqual(SyncConsole.duration(0.2), "0:01")
        XCTAssertEqual(SyncConsole.duration(750), "12:30")
        XCTAssertEqual(SyncConsole.duration(3723), "1:02:03")
        XCTAssertEqual(SyncConsole.duration(.infinity), "--:--")
    }
}

/// What a terminal shows after `text`: understands the few codes podarchive writes (carriage return, newline,
/// cursor up, erase to the end of the line and of the screen) and drops colours. podarchive writes every line
/// whole from its start, after a carriage return it erases, so a carriage return is taken to empty its line.
struct Screen {
    private(set) var lines: [String] = []

    init(_ text: String) {
        var row = 0
        var scalars = Array(text.unicodeScalars)[...]
        func line(_ row: Int) -> String { row < lines.count ? lines[row] : "" }
        func set(_ row: Int, _ value: String) {
            while lines.count <= row { lines.append("") }
            lines[row] = value
        }
        while let scalar = scalars.popFirst() {
            switch scalar {
            case "\n": row += 1
            case "\r": if row < lines.count { lines[row] = "" }
            case "\u{1B}":
                guard scalars.popFirst() == "[" else { continue }
                var argument = ""
                while let next = scalars.popFirst() {
                    if next.properties.isAlphabetic {
                        switch next {
                        case "A": row = max(0, row - (Int(argument) ?? 1))
                        case "J": lines.removeSubrange(min(row, lines.count)...)
                        case "K": if row < lines.count { lines[row] = "" }
                        default: break  // colours
                        }
                        break
                    }
                    argument.unicodeScalars.append(next)
                }
            default:
                set(row, line(row) + String(scalar))
            }
        }
        while lines.last == "" { lines.removeLast() }
    }
}
