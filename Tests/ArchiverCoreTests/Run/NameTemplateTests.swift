import Foundation
import XCTest

// `--name` templates: what names they give, and the templates and values that must never escape the feed folder.
@testable import ArchiverCore

final class NameTemplateTests: XCTestCase {
    private let published = Date(timeIntervalSince1970: 1_736_514_000)  // 2025-01-10T13:00:00Z

    private func episode(
        title: String? = "Pilot", guid: String? = "guid-1", url: String = "https://example.com/a/ep1.mp3",
        published: Date? = nil, number: Int? = nil, season: Int? = nil
    ) -> Episode {
        Episode(
            title: title, guid: guid, url: url, published: published, episodeNumber: number, seasonNumber: season)
    }

    private func path(_ template: String, _ episode: Episode, feed: String = "The Show") throws -> String {
        let (folders, stem) = try NameTemplate(template).path(for: episode, feedTitle: feed)
        return (folders + [stem]).joined(separator: "/")
    }

    // MARK: - Names

    func test_fields_fillInFromTheEpisodeAndFeed() throws {
        let full = episode(published: published, number: 7, season: 2)

        XCTAssertEqual(try path("{date} {title}", full), "2025-01-10 Pilot")
        XCTAssertEqual(try path("{feed} - S{season}E{episode:03} - {title}", full), "The Show - S2E007 - Pilot")
        XCTAssertEqual(try path("{episode:02}", episode(number: 123)), "123", "padding never cuts digits")
        XCTAssertEqual(try path("{{{title}}}", full), "{Pilot}", "doubled braces are literal")
    }

    func test_dates_takeAFormatAndTheirParts_inUTC_andNothingWithoutADate() throws {
        let dated = episode(published: published)
        let late = episode(published: Date(timeIntervalSince1970: 1_735_689_599))  // 2024-12-31T23:59:59Z

        XCTAssertEqual(try path("{date:%Y.%m.%d} {title}", dated), "2025.01.10 Pilot")
        XCTAssertEqual(try path("{year}/{month}/{day} {title}", dated), "2025/01/10 Pilot")
        XCTAssertEqual(try path("{date:%d %b %Y, %H-%M-%S} {title}", dated), "10 Jan 2025, 13-00-00 Pilot")
        XCTAssertEqual(try path("{date:%B %y} {title}", dated), "January 25 Pilot")
        XCTAssertEqual(try path("{date:%Y-%j} {title}", late), "2024-366 Pilot", "day of the year, a leap year")
        XCTAssertEqual(try path("{date:100%% %Y} {title}", dated), "100% 2025 Pilot")
        XCTAssertEqual(try path("{year}/{date:%m-%d} {title}", episode()), "Pilot", "undated: no folder, no date")
    }

    func test_asciiNames_transliterateStripAndReplace_thenStayWithinEveryRuleOfANameAsBefore() throws {
        var template = try NameTemplate("{feed}/{title}")
        template.ascii = true
        func path(_ title: String, feed: String = "Ünïcödé") -> String {
            let (folders, stem) = template.path(for: episode(title: title), feedTitle: feed)
            return (folders + [stem]).joined(separator: "/")
        }

        XCTAssertEqual(path("Café crème — Ép. 3"), "Unicode/Cafe creme - Ep. 3")
        XCTAssertEqual(path("Привет мир"), "Unicode/Privet mir")
        XCTAssertEqual(path("Straße ﬁnale æ ø"), "Unicode/Strasse finale ae o")
        XCTAssertEqual(path("music 🎧🎧 night"), "Unicode/music _ night", "a run of what cannot be spelled is one _")
        XCTAssertEqual(path("../../\u{202E}evil"), "Unicode/evil", "still never leaves the folder")
        XCTAssertEqual(path("🎧"), "Unicode/_")
        for title in [
            "東京の夜", "مرحبا", "שלום", "Ελληνικά", "e\u{301}\u{301}\u{301}", String(repeating: "é", count: 400),
        ] {
            let name = path(title)
            XCTAssertTrue(name.unicodeScalars.allSatisfy(\.isASCII), "\(title): \(name)")
            XCTAssertFalse(name.hasSuffix("/"), title)
            XCTAssertLessThanOrEqual(name.utf8.count, "Unicode/".utf8.count + 200, title)
        }
    }

    func test_guid_isAShortStableHashThatDiffersPerEpisode() throws {
        let first = try path("{guid}", episode(guid: "guid-1"))
        let again = try path("{guid}", episode(title: "Renamed", guid: "guid-1"))
        let other = try path("{guid}", episode(guid: "guid-2"))

        XCTAssertEqual(first.count, 8)
        XCTAssertTrue(first.allSatisfy(\.isHexDigit), first)
        XCTAssertEqual(first, again)
        XCTAssertNotEqual(first, other)
    }

    func test_missingValues_leaveNoStrayPunctuationOrEmptyFolders() throws {
        let bare = episode()

        XCTAssertEqual(try path("{date} {title}", bare), "Pilot")
        XCTAssertEqual(try path("{episode} - {title}", bare), "Pilot")
        XCTAssertEqual(try path("{season}/{title}", bare), "Pilot", "an empty folder part is left out")
        XCTAssertEqual(try path("{date}", bare), "Pilot", "an empty file name falls back to the title")
        XCTAssertEqual(try path("{title}", episode(title: nil)), "ep1", "no title: the enclosure's file name")
    }

    func test_missingValue_takesTheTextAroundItAlong() throws {
        let bare = episode()
        let numbered = episode(number: 7, season: 2)

        // The README's own example, on a feed without seasons: no folder literally named "Season".
        XCTAssertEqual(try path("Season {season}/{episode:03} {title}", bare), "Pilot")
        XCTAssertEqual(try path("Season {season}/{episode:03} {title}", numbered), "Season 2/007 Pilot")
        XCTAssertEqual(try path("{title} ({date})", bare), "Pilot")
        XCTAssertEqual(try path("Ep. {episode} - {title}", bare), "Pilot")
        XCTAssertEqual(try path("Archive/{title}", bare), "Archive/Pilot", "a folder with no field always stays")
    }

    func test_templateEndingInAnExtension_getsTheRealExtensionOnce() throws {
        XCTAssertEqual(try path("{title}.mp3", episode()), "Pilot")
        XCTAssertEqual(try path("{date} {title}.M4A", episode(published: published)), "2025-01-10 Pilot")
        XCTAssertEqual(try path("{title}.final cut", episode()), "Pilot.final cut", "not an extension")
        XCTAssertEqual(try path("{title} v1.2", episode()), "Pilot v1.2", "a single digit is no extension")
    }

    func test_slash_makesSubfolders() throws {
        let full = episode(published: published, number: 7, season: 2)

        let (folders, stem) = try NameTemplate("Season {season}/{date}/{title}").path(for: full, feedTitle: "Show")

        XCTAssertEqual(folders, ["Season 2", "2025-01-10"])
        XCTAssertEqual(stem, "Pilot")
    }

    // MARK: - Hostile values

    func test_hostileValues_neverLeaveTheFeedFolderOrAddLevels() throws {
        let cases: [(String, String)] = [
            ("{title}", "../../x"), ("{title}", "/etc/passwd"), ("{title}", ".."), ("{title}", "a/b\\c"),
            ("{feed}/{title}", "../../.ssh"), ("{title}/{title}", "../.."), ("{title}", "-rf"),
            ("{title}", "\u{202E}3pm.exe\u{0}"),
        ]
        for (template, title) in cases {
            let (folders, stem) = try NameTemplate(template).path(for: episode(title: title), feedTitle: title)
            XCTAssertLessThanOrEqual(folders.count + 1, template.split(separator: "/").count, "no level added")
            for part in folders + [stem] {
                XCTAssertFalse(part.isEmpty, "\(template) with \(title)")
                XCTAssertFalse(part.contains("/"), "\(part) from \(title)")
                XCTAssertFalse(part.hasPrefix("."), "\(part) from \(title)")
                XCTAssertFalse(part.hasPrefix("-"), "\(part) from \(title)")
                XCTAssertFalse(part.unicodeScalars.contains { $0.value < 0x20 || $0 == "\u{202E}" }, part)
            }
        }
        XCTAssertEqual(try path("{title}", episode(title: "../../x")), "x")
    }

    // MARK: - Templates that cannot be used

    func test_unusableTemplates_areRejectedNamingTheProblemAndTemplate() {
        let cases: [(String, String)] = [
            (
                "{titel}",
                "unknown field {titel}; the fields are {title} {date} {feed} {episode} {season} {guid} {year} {month} "
                    + "{day}"
            ),
            ("{title", "'{' without '}'"),
            ("title}", "'}' without '{'"),
            ("", "it is empty"),
            ("/tmp/{title}", "starts with '/'"),
            ("a//{title}", "empty folder name"),
            ("{title}/", "empty folder name"),
            ("../{title}", "'..' is not usable"),
            ("./{title}", "'.' is not usable"),
            ("{title:03}", "{episode}, {season} and {number} take a width ({episode:03}), {date} a date format"),
            ("{date:%Y-%q}", "unknown date code %q; the codes are %Y %y %m %d %H %M %S %j %b %B %%"),
            ("{date:Y-m-d}", "has no date code, as in {date:%Y-%m-%d}"),
            ("{date:%%}", "has no date code"),
            ("{year:%Y}", "unknown format"),
            ("{episode:x3}", "unknown format"),
            ("{title}/episode", "its file name has no field"),
        ]
        for (template, problem) in cases {
            XCTAssertThrowsError(try NameTemplate(template), template) { error in
                let message = (error as? LocalizedError)?.errorDescription ?? ""
                XCTAssertTrue(message.hasPrefix("name template '\(template)' cannot be used: "), message)
                XCTAssertTrue(message.contains(problem), "\(template): \(message)")
            }
        }
    }
}
