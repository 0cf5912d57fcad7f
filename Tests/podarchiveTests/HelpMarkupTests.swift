// Help's light markup (HelpMarkup) made into the terminal's plain text, the man page's roff and the completion
// menus' summary: each rule on a small text, roff's hostile characters, and every declared option's text as shown.
import Foundation
import TestSupport
import XCTest

@testable import podarchive

final class HelpMarkupTests: XCTestCase {
    func test_plain_dropsTheMarks_andShowsPlaceholdersAsTheOptionColumnDoes() {
        let text = HelpMarkup("give `--to` <DIR> for *the root* and <feed> or <feed title>, not \\*this\\* or \\<x>")
        XCTAssertEqual(text.lead, "give --to DIR for the root and <feed> or <feed title>, not *this* or <x>")
    }

    func test_plain_leavesWhatIsNotMarkupAsItIs() {
        // An unmatched mark, a tag that is no placeholder, and an empty pair are text.
        let text = HelpMarkup(#"a * b, (<link rel="alternate">), `` and 2 < 3 > 1"#)
        XCTAssertEqual(text.lead, #"a * b, (<link rel="alternate">), `` and 2 < 3 > 1"#)
    }

    func test_plain_wrapsEachParagraph_andKeepsExampleLinesAsWritten() {
        let text = HelpMarkup(
            """
            one two three
            four five

              $ podarchive   sync
            six
            """)
        XCTAssertEqual(text.plain(width: 10), "one two\nthree four\nfive\n\n  $ podarchive   sync\n\nsix")
    }

    func test_summary_isTheFirstClause() {
        XCTAssertEqual(
            HelpMarkup("download <N> episodes at once (default 4); more").summary, "download N episodes at once")
        XCTAssertEqual(HelpMarkup("archive root: where it goes").summary, "archive root")
        XCTAssertEqual(HelpMarkup("show help. Then more").summary, "show help")
        XCTAssertEqual(HelpMarkup("print JSON\n\nA second paragraph.").summary, "print JSON")
        XCTAssertEqual(HelpMarkup("the end.").summary, "the end")
    }

    func test_roff_marksLiteralsBold_emphasisAndPlaceholdersItalic_andWritesHyphensAsMinus() {
        let text = HelpMarkup("with `--jobs` <N>, *Pilot.mp3* and YYYY-MM-DD")
        XCTAssertEqual(text.roff, #"With \fB\-\-jobs\fR \fIn\fR, \fIPilot.mp3\fR and YYYY\-MM\-DD."#)
    }

    func test_roff_escapesWhatRoffWouldReadAsRequestsOrEscapes() {
        // A backslash (written `\\` in the markup), a font change typed as text, a dot or an apostrophe starting a
        // line, in paragraphs and in examples.
        let text = HelpMarkup(
            #"""
            a path C:\\temp and \\fB not bold. `.podarchive` is kept.

            .hidden files.

            'quoted' word.

              .podarchive/index.json
              'x' \n
            """#)
        XCTAssertEqual(
            text.roff,
            #"""
            A path C:\etemp and \efB not bold.
            \fB.podarchive\fR is kept.
            .IP
            \&.hidden files.
            .IP
            \&'quoted' word.
            .IP
            .nf
            \&.podarchive/index.json
            \&'x' \en
            .fi
            """#)
    }

    func test_roff_putsOneSentenceOnALine_andLaterParagraphsUnderTheSameIndent() {
        let text = HelpMarkup("first one. Second one; `--x` too.\n\nThird. `--y` fourth.")
        XCTAssertEqual(text.roff, "First one.\nSecond one; \\fB\\-\\-x\\fR too.\n.IP\nThird.\n\\fB\\-\\-y\\fR fourth.")
    }

    func test_roffOfHostileText_rendersWithoutAGroffWarning_andShowsTheCharactersTyped() throws {
        let man = URL(fileURLWithPath: "/usr/bin/man")
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: man.path), "man is not installed")
        let text = HelpMarkup(
            #"""
            `C:\dir\` and \\fI and a-b. "quoted" \\(dq {{x}} $HOME `--a-b`

            .x starts

            'y starts

              .SH not a heading
            """#)
        let scratch = try TemporaryFolder("markup")
        defer { scratch.remove() }
        let page = scratch.url.appendingPathComponent("t.1")
        try Data(".TH T 1\n.SH NAME\nt \\- t\n.SH OPTIONS\n.TP\n.B \\-\\-x\n\(text.roff)\n".utf8).write(to: page)

        let result = try ProcessRunner.run(
            man, ["--warnings=all", "-l", page.path],
            environment: ["PATH": "/usr/bin:/bin", "MANWIDTH": "200", "MAN_KEEP_FORMATTING": "0", "LANG": "C.UTF-8"])

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "groff warnings")
        let shown = result.stdout.replacingOccurrences(of: ".\u{8}", with: "", options: .regularExpression)
            .replacingOccurrences(of: "\u{2010}", with: "-").replacingOccurrences(of: "\u{2212}", with: "-")
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        XCTAssertTrue(shown.contains(#"C:\dir\ and \fI and a-b. "quoted" \(dq {{x}} $HOME --a-b."#), shown)
        XCTAssertTrue(shown.contains(".x starts 'y starts .SH not a heading"), shown)
    }

    func test_everyOptionsText_showsNoMarkup_andItsSummaryFitsAMenu() {
        for option in OptionCatalog.all {
            let lead = option.help(for: "")
            XCTAssertFalse(lead.isEmpty, option.name)
            XCTAssertFalse(lead.contains("`") || lead.contains("*"), "\(option.name): \(lead)")
            XCTAssertFalse(option.summary.isEmpty, option.name)
            XCTAssertLessThanOrEqual(option.summary.count, 90, "\(option.name): \(option.summary)")
            // Every line of its roff is text or one of the requests the renderer writes.
            for line in option.manual().split(separator: "\n") where line.hasPrefix(".") || line.hasPrefix("'") {
                XCTAssertTrue([".IP", ".nf", ".fi"].contains(line), "\(option.name): \(line)")
            }
        }
    }
}
