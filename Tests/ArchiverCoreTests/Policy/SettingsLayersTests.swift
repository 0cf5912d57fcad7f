// How a show's settings are layered: the first source that sets a value wins, each value says where it came
// from, and every layer is checked even where a higher one replaces it.
import Foundation
import XCTest

@testable import ArchiverCore

final class SettingsLayersTests: XCTestCase {
    private let saved = ShowSettings(name: "{title}", metadata: true, limit: 5, userAgent: "Saved/1")
    private let given = ShowSettings(limit: 2, match: "Bonus")

    func test_effective_takesEachSettingFromTheHighestLayerThatSetsIt() {
        let layers = SettingsLayers(given: given, saved: saved)
        XCTAssertEqual(
            layers.effective,
            ShowSettings(name: "{title}", metadata: true, limit: 2, match: "Bonus", userAgent: "Saved/1"))
    }

    func test_source_saysWhereEachEffectiveValueCameFrom() {
        let layers = SettingsLayers(given: given, saved: saved)
        XCTAssertEqual(layers.source(of: \.limit), .given)
        XCTAssertEqual(layers.source(of: \.match), .given)
        XCTAssertEqual(layers.source(of: \.name), .saved)
        XCTAssertEqual(layers.source(of: \.userAgent), .saved)
        XCTAssertEqual(layers.source(of: \.since), .defaults)
        XCTAssertEqual(layers.source(of: \.companions), .defaults)
    }

    func test_noSavedSettings_isAnEmptySavedLayer() {
        let layers = SettingsLayers(given: given, saved: nil)
        XCTAssertEqual(layers.layers.map(\.source), [.given, .saved])
        XCTAssertEqual(layers.settings(from: .saved), ShowSettings())
        XCTAssertEqual(layers.source(of: \.name), .defaults)
    }

    func test_theListsOrderDecides_aLayerEarlierInItWins() {
        // More sources (the environment, a configuration file) are more layers in the list, in their place.
        let layers = SettingsLayers([.init(.saved, saved), .init(.given, given)])
        XCTAssertEqual(layers.effective.limit, 5)
        XCTAssertEqual(layers.source(of: \.limit), .saved)
        XCTAssertEqual(layers.source(of: \.match), .given)
    }

    func test_applied_putsGivenOverSavedOverDefaults() throws {
        let options = try SettingsLayers(given: given, saved: saved).applied(to: SyncOptions(jobs: 3))
        XCTAssertEqual(options.jobs, 3)
        XCTAssertEqual(options.filter.limit, 2)
        XCTAssertEqual(options.filter.match, "Bonus")
        XCTAssertTrue(options.metadata)
        XCTAssertEqual(options.profile.userAgent, "Saved/1")
        XCTAssertEqual(options.names, try NameTemplate("{title}"))
    }

    func test_applied_everyEpisodeGiven_turnsTheSavedFilterOff() throws {
        let options = try SettingsLayers(given: .everyEpisode, saved: ShowSettings(limit: 5, since: "2025-01-31"))
            .applied(to: SyncOptions())
        XCTAssertNil(options.filter.limit)
        XCTAssertNil(options.filter.since)
    }

    func test_applied_checksASavedValue_evenOneTheGivenLayerReplaces() {
        let layers = SettingsLayers(given: ShowSettings(limit: 3), saved: ShowSettings(limit: -1))
        XCTAssertThrowsError(try layers.applied(to: SyncOptions())) { error in
            XCTAssertEqual(
                error as? SettingsError, SettingsError(setting: "limit", value: "-1", reason: "it must be 1 or more"))
        }
    }

    func test_filterLayer_isTheHighestThatSetsAFilter_elseTheSavedOne() {
        XCTAssertEqual(SettingsLayers(given: given, saved: saved).filterLayer?.source, .given)
        XCTAssertEqual(SettingsLayers(given: ShowSettings(metadata: true), saved: saved).filterLayer?.source, .saved)
        // Filters turned off (0, "") set none.
        XCTAssertEqual(SettingsLayers(given: .everyEpisode, saved: saved).filterLayer?.source, .saved)
        XCTAssertEqual(SettingsLayers(given: ShowSettings(), saved: nil).filterLayer?.source, .saved)
    }
}
