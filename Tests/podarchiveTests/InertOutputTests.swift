import Foundation
import TestSupport
import XCTest

// What a feed or a directory says is printed inert: no control or bidi character reaches the terminal, whatever
// command prints it (list, sync's lines, search), while podarchive's own colours and live area still do.
@testable import ArchiverCore
@testable import podarchive

final class InertOutputTests: CommandLineTestCase {
    /// Clears the screen, sets the terminal's title, rings the bell, reorders the line (RLO), carriage-returns.
    private let hostile = "A\u{1B}[2J\u{1B}]0;pwned\u{07}B\u{202E}C\u{2066}D\rE\u{85}F\u{7F}G"

    private func unprintable(_ text: String) -> [String] {
        text.unicodeScalars.filter(UnprintableText.contains).map { String(format: "U+%04X", $0.value) }
    }

    private func serveHostileFeed() {
        let escaped = hostile.unicodeScalars.map {
            $0.value < 0x20 || $0.value >= 0x7F ? String(format: "\\u%04x", $0.value) : String($0)
        }.joined()
        server.route(
            "/feed.json",
            .ok(
                """
                {"version": "https://jsonfeed.org/version/1.1", "title": "Show \(escaped)",
                 "items": [{"id": "1", "title": "Episode \(escaped)", "date_published": "2025-01-10T13:00:00Z",
                   "attachments": [{"url": "\(server.url("/gone.mp3").absoluteString)", "mime_type": "audio/mpeg"}]}]}
                """, type: "application/feed+json"))
    }

    func test_aFeedsTitles_printedByListAndSync_carryNoControlOrBidiCharacter() async throws {
        serveHostileFeed()
        let feed = server.url("/feed.json").absoluteString

        let listed = await run("list", feed)
        XCTAssertEqual(listed, .success, errors.text)
        XCTAssertTrue(output.text.contains("Show A[2J]0;pwnedBCDEFG: 1 episode\n"), output.text)
        let synced = await run("sync", feed, "--to", folder.url.appendingPathComponent("archive").path)

        XCTAssertEqual(synced, .episodesFailed, "the episode answers 404")
        XCTAssertTrue(errors.text.contains("Episode A [2J ]0;pwned"), errors.text)
        XCTAssertEqual(unprintable(output.text), [])
        XCTAssertEqual(unprintable(errors.text), [])
    }

    func test_listJSON_keepsTheText_withEveryCharacterEscaped() async throws {
        serveHostileFeed()

        let code = await run("list", server.url("/feed.json").absoluteString, "--json")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(unprintable(output.text), [])
        let object = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any])
        let episodes = try XCTUnwrap(object["episodes"] as? [[String: Any]])
        XCTAssertEqual(episodes[0]["title"] as? String, "Episode " + hostile, "the same text, escaped: none raw")
    }

    func test_podarchivesOwnControlSequences_stillPass_andTextBesideThemIsInert() {
        let screen = CapturedOutput()
        let output = RedactingOutput.wrap(screen)

        output.write(Printed.styled("archived", "32", on: true) + " \(hostile)\n")
        output.write(Printed.control("\r\u{1B}[2A\u{1B}[J"))

        XCTAssertEqual(screen.text, "\u{1B}[32marchived\u{1B}[0m A[2J]0;pwnedBCDEFG\n\r\u{1B}[2A\u{1B}[J")
    }
}
