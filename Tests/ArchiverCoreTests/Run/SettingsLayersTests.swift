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
        let options = try SyncOptions(jobs: 3).applying(SettingsLayers(given: given, saved: saved))
        XCTAssertEqual(options.jobs, 3)
        XCTAssertEqual(options.filter.limit, 2)
        XCTAssertEqual(options.filter.match, "Bonus")
        XCTAssertTrue(options.metadata)
        XCTAssertEqual(options.profile.userAgent, "Saved/1")
        XCTAssertEqual(options.names, try NameTemplate("{title}"))
    }

    func test_applied_everyEpisodeGiven_turnsTheSavedFilterOff() throws {
        let options = try SyncOptions().applying(
            SettingsLayers(given: .everyEpisode, saved: ShowSettings(limit: 5, since: "2025-01-31")))
        XCTAssertNil(options.filter.limit)
        XCTAssertNil(options.filter.since)
    }

    func test_applied_checksASavedValue_evenOneTheGivenLayerReplaces() {
        let layers = SettingsLayers(given: ShowSettings(limit: 3), saved: ShowSettings(limit: -1))
        XCTAssertThrowsError(try SyncOptions().applying(layers)) { error in
            XCTAssertEqual(
                error as? SettingsError,
                SettingsError(key: .limit, value: "-1", problem: .needs("a whole number of episodes")))
        }
    }

    func test_filterLayer_isTheHighestThatSetsAFilter_elseTheSavedOne() {
        XCTAssertEqual(SettingsLayers(given: given, saved: saved).filterLayer?.source, .given)
        XCTAssertEqual(SettingsLayers(given: ShowSettings(metadata: true), saved: saved).filterLayer?.source, .saved)
        // Filters turned off (0, "") set none.
        XCTAssertEqual(SettingsLayers(given: .everyEpisode, saved: saved).filterLayer?.source, .saved)
        XCTAssertEqual(SettingsLayers(given: ShowSettings(), saved: nil).filterLayer?.source, .saved)
    }

    // Every layer in its place: the command line, then the show's saved settings, then the configuration file,
    // then the defaults; the environment sets no show setting, but has its place between them.
    func test_precedence_givenOverSavedOverConfigurationOverDefaults() {
        let layers = SettingsLayers(
            given: ShowSettings(userAgent: "Given/1"),
            saved: ShowSettings(name: "{date} {title}", userAgent: "Saved/1"),
            configuration: ShowSettings(name: "{title}", metadata: true, userAgent: "Config/1"))
        XCTAssertEqual(layers.layers.map(\.source), [.given, .saved, .configuration])
        XCTAssertEqual(layers.effective.userAgent, "Given/1")
        XCTAssertEqual(layers.source(of: .userAgent), .given)
        XCTAssertEqual(layers.effective.name, "{date} {title}")
        XCTAssertEqual(layers.source(of: .name), .saved)
        XCTAssertEqual(layers.effective.metadata, true)
        XCTAssertEqual(layers.source(of: .metadata), .configuration)
        XCTAssertNil(layers.effective.companions)
        XCTAssertEqual(layers.source(of: .companions), .defaults)
    }

    func test_sourceOrder_isThePrecedence_andHighestPicksTheFirstThatSetsOne() {
        XCTAssertEqual(SettingsSource.allCases, [.given, .saved, .environment, .configuration, .defaults])
        XCTAssertEqual(SettingsSource.allCases.sorted(), SettingsSource.allCases)
        XCTAssertEqual(
            SettingsSource.highest([.configuration: "/from/config", .environment: "/from/env"])?.value, "/from/env")
        XCTAssertEqual(
            SettingsSource.highest([.configuration: "/from/config", .given: "/given"])?.source, .given)
        XCTAssertEqual(SettingsSource.highest([.configuration: "/from/config"])?.source, .configuration)
        XCTAssertNil(SettingsSource.highest([SettingsSource: String]()))
    }

    func test_saving_putsAShowsSettingsBetweenTheRunsLayers() throws {
        let run = SettingsLayers(
            given: ShowSettings(netrcFile: "/given.netrc"), saved: nil,
            configuration: ShowSettings(name: "{guid}", userAgent: "Config/1"))
        let show = run.saving(ShowSettings(userAgent: "Saved/1", netrcFile: "/saved.netrc"))
        XCTAssertEqual(show.layers.map(\.source), [.given, .saved, .configuration])
        XCTAssertEqual(show.effective.userAgent, "Saved/1")
        XCTAssertEqual(show.effective.netrcFile, "/given.netrc")
        // Only how hosts are reached: the template stays out.
        XCTAssertEqual(show.access.effective, ShowSettings(userAgent: "Saved/1", netrcFile: "/given.netrc"))
        let options = try SyncOptions().applying(show.access)
        XCTAssertEqual(options.profile.userAgent, "Saved/1")
        XCTAssertEqual(options.netrc, NetrcChoice(path: "/given.netrc", required: true))
        XCTAssertEqual(options.names, .standard)
    }

    func test_applied_configurationUnderSaved() throws {
        let options = try SyncOptions().applying(
            SettingsLayers(
                given: ShowSettings(), saved: ShowSettings(metadata: false),
                configuration: ShowSettings(name: "{date} {title}", metadata: true)))
        XCTAssertFalse(options.metadata)
        XCTAssertEqual(options.names, try NameTemplate("{date} {title}"))
    }

    func test_applied_namesTheSavedSettingByItsKey() {
        let layers = SettingsLayers(given: ShowSettings(), saved: ShowSettings(userAgent: "two\nlines"))
        XCTAssertThrowsError(try SyncOptions().applying(layers)) { error in
            XCTAssertEqual(
                error as? SettingsError,
                SettingsError(key: .userAgent, value: "two\nlines", problem: .needs("one line of text")))
        }
    }
}
