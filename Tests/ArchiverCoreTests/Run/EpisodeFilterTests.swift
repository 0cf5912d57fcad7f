import Foundation
import XCTest

// Selecting episodes: the newest N, since a date, titles matching a pattern; always in the feed's order.
@testable import ArchiverCore

final class EpisodeFilterTests: XCTestCase {
    private func episode(_ title: String?, _ day: Int?) -> Episode {
        Episode(
            title: title, guid: title, url: "https://e.x/\(title ?? "untitled").mp3",
            published: day.map { Date(timeIntervalSince1970: TimeInterval($0) * 86_400) })
    }

    private var episodes: [Episode] {
        [episode("Ep 3", 30), episode("Bonus", 25), episode("Ep 2", 20), episode(nil, nil), episode("Ep 1", 10)]
    }

    func test_emptyFilter_selectsEverything() {
        XCTAssertEqual(EpisodeFilter().apply(to: episodes), episodes)
    }

    func test_limit_keepsTheNewestInFeedOrder() {
        XCTAssertEqual(EpisodeFilter(limit: 2).apply(to: episodes).map(\.title), ["Ep 3", "Bonus"])
        // Feed order, not date order, in the result: the feed lists the older one first here.
        let reversed = Array(episodes.reversed())
        XCTAssertEqual(EpisodeFilter(limit: 2).apply(to: reversed).map(\.title), ["Bonus", "Ep 3"])
        XCTAssertEqual(EpisodeFilter(limit: 10).apply(to: episodes).count, 5)
    }

    func test_since_leavesOutOlderAndUndatedEpisodes() {
        let since = Date(timeIntervalSince1970: 20 * 86_400)
        XCTAssertEqual(EpisodeFilter(since: since).apply(to: episodes).map(\.title), ["Ep 3", "Bonus", "Ep 2"])
    }

    func test_match_isARegularExpressionOnTitles() {
        XCTAssertEqual(EpisodeFilter(match: "^Ep [12]$").apply(to: episodes).map(\.title), ["Ep 2", "Ep 1"])
        XCTAssertEqual(EpisodeFilter(match: "(?i)bonus").apply(to: episodes).map(\.title), ["Bonus"])
        XCTAssertThrowsError(try ShowSettings.checkMatch("(unclosed"))
    }

    func test_exclude_leavesOutMatchingTitles_andKeepsUntitledOnes() throws {
        var filter = EpisodeFilter()
        filter.exclude = "(?i)bonus"
        XCTAssertEqual(filter.apply(to: episodes).map(\.title), ["Ep 3", "Ep 2", nil, "Ep 1"], "untitled kept")
        XCTAssertEqual(try EpisodeFilter().applying(ShowSettings.everyEpisode), EpisodeFilter())
    }

    func test_filtersCombine_limitCountingOnlyWhatTheOthersSelect() {
        XCTAssertEqual(EpisodeFilter(limit: 1, match: "^Ep").apply(to: episodes).map(\.title), ["Ep 3"])
    }
}
