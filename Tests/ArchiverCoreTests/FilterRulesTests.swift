import Foundation
import XCTest

// The values of the filters of issue 39 as they are read: durations, ranges of episode numbers, an upper date
// bound, and where a pattern looks; each refused one with what it needs.
@testable import ArchiverCore

final class FilterRulesTests: XCTestCase {
    func test_durations() throws {
        XCTAssertEqual(try ShowSettings.checkDuration("90"), 90)
        XCTAssertEqual(try ShowSettings.checkDuration("45m"), 2700)
        XCTAssertEqual(try ShowSettings.checkDuration("1h30m"), 5400)
        XCTAssertEqual(try ShowSettings.checkDuration("2h5s"), 7205)
        XCTAssertEqual(try ShowSettings.checkDuration("1:30:00"), 5400)
        XCTAssertEqual(try ShowSettings.checkDuration("45:00"), 2700)
        for bad in ["-5", "", "m", "1h1h", "5x", "1:2:3:4", "1:-2", "1.5h", "30m5"] {
            XCTAssertThrowsError(try ShowSettings.checkDuration(bad), bad) { error in
                XCTAssertEqual(error as? SettingProblem, .needs(ShowSettings.durationNeeds))
            }
        }
    }

    func test_episodeRanges() throws {
        let range = try ShowSettings.checkEpisodes("1-3,7,20-")
        XCTAssertEqual(range.text, "1-3,7,20-")
        XCTAssertEqual([0, 1, 3, 4, 7, 19, 20, 5000].filter(range.contains), [1, 3, 7, 20, 5000])
        for bad in ["", "5-3", "a", "1-2-3", "1,,2", "-4", "1-x"] {
            XCTAssertThrowsError(try ShowSettings.checkEpisodes(bad), bad)
        }
    }

    func test_until_aDayIsTakenWhole_aTimeAsGiven() throws {
        let day = try ShowSettings.checkUntil("2023-12-31")
        XCTAssertEqual(day, FeedDate.parseRFC3339("2024-01-01"))
        let time = try ShowSettings.checkUntil("2023-12-31T12:00:00Z")
        XCTAssertGreaterThan(time, FeedDate.parseRFC3339("2023-12-31T12:00:00Z")!)
        XCTAssertLessThan(time, FeedDate.parseRFC3339("2023-12-31T12:00:01Z")!)
        XCTAssertThrowsError(try ShowSettings.checkUntil("yesterday"))
    }

    func test_matchIn() throws {
        XCTAssertEqual(try ShowSettings.checkMatchIn("Both"), .both)
        XCTAssertThrowsError(try ShowSettings.checkMatchIn("notes"))
    }

    func test_aSavedBadValue_isNamedWithItsSetting() {
        var settings = ShowSettings()
        settings[.episodes] = .text("9-1")
        XCTAssertThrowsError(try EpisodeFilter().applying(settings)) { error in
            XCTAssertEqual((error as? SettingsError)?.key, .episodes)
        }
    }

    func test_leftOut_namesTheSettingThatLeavesEachOut() {
        var filter = EpisodeFilter(limit: 1)
        filter.maxDuration = 100
        let episodes = [
            Episode(title: "Long", guid: "Long", url: "http://127.0.0.1/1", duration: 500),
            Episode(title: "A", guid: "A", url: "http://127.0.0.1/2", published: Date(timeIntervalSince1970: 10)),
            Episode(title: "B", guid: "B", url: "http://127.0.0.1/3", published: Date(timeIntervalSince1970: 20)),
        ]
        XCTAssertEqual(filter.apply(to: episodes).map(\.title), ["B"])
        XCTAssertEqual(filter.leftOut(of: episodes).map(\.by), [.maxDuration, .limit])
        XCTAssertEqual(filter.missing(episodes[1]), [.maxDuration])
        XCTAssertEqual(filter.missing(episodes[0]), [])
    }
}
