import XCTest

// The one way a command's settings are put in layers with a show's saved ones, and the statuses reports end with.
@testable import ArchiverCore

final class CommandSettingsTests: XCTestCase {
    func test_relativeNetrcPaths_startAtTheCurrentDirectory_inTheGivenAndTheConfiguredLayers() {
        var given = ShowSettings()
        given.netrcFile = "given.netrc"
        var configured = ShowSettings()
        configured.netrcFile = "/etc/configured.netrc"
        configured.userAgent = "File/1"
        let settings = CommandSettings(
            given: given, configured: configured, currentDirectory: "/work", home: "/home/me")

        let layers = settings.layers(saved: nil)

        XCTAssertEqual(layers.effective.netrcFile, "/work/given.netrc")
        XCTAssertEqual(settings.givenResolved.netrcFile, "/work/given.netrc", "what is saved is absolute too")
        XCTAssertEqual(layers.settings(from: .configuration)?.netrcFile, "/etc/configured.netrc")
        XCTAssertEqual(layers.effective.userAgent, "File/1")
    }

    func test_givenOverSavedOverConfigured() {
        var given = ShowSettings()
        given.userAgent = "Given/1"
        var saved = ShowSettings()
        saved.userAgent = "Saved/1"
        saved.limit = 3
        var configured = ShowSettings()
        configured.limit = 9
        let settings = CommandSettings(given: given, configured: configured, currentDirectory: "/", home: nil)

        let effective = settings.layers(saved: saved).effective

        XCTAssertEqual(effective.userAgent, "Given/1")
        XCTAssertEqual(effective.limit, 3)
    }

    func test_homesNetrc_isReadWhenNoLayerNamesOne_andNoHomeReadsNone() throws {
        let home = CommandSettings(currentDirectory: "/", home: "/home/me")
        XCTAssertEqual(try home.options(saved: nil).netrc, NetrcChoice(path: "/home/me/.netrc", required: false))
        var named = ShowSettings()
        named.netrcFile = "/etc/n"
        XCTAssertEqual(try home.options(saved: named).netrc, NetrcChoice(path: "/etc/n", required: true))
        XCTAssertNil(try CommandSettings(currentDirectory: "/", home: nil).options(saved: nil).netrc)
        XCTAssertNil(try CommandSettings(currentDirectory: "/", home: "").options(saved: nil).netrc)
    }

    func test_eachReportsStatus() {
        var verify = VerifyReport()
        XCTAssertEqual(verify.status(repairing: false), .success)
        verify.damagedHistory = 1
        XCTAssertEqual(verify.status(repairing: false), .episodesFailed)
        verify.damagedHistory = 0
        verify.clashes = [
            ArchiveIndex.Clash(
                claim: .file("a.mp3"), first: .init(position: 1, name: "A"), second: .init(position: 2, name: "B"))
        ]
        XCTAssertEqual(verify.status(repairing: false), .episodesFailed)
        XCTAssertEqual(verify.status(repairing: true), .archiveFailed, "a repair that had to leave entries alone")

        let feed = Feed(title: "Show", episodes: [], format: .rss)
        XCTAssertEqual(PageWalk(feed: feed).status, .success)
        XCTAssertEqual(PageWalk(feed: feed, problem: PageProblem(url: "u", reason: "r")).status, .episodesFailed)

        XCTAssertEqual(SubscriptionSet(shows: [], damaged: []).status, .success)
        XCTAssertEqual(
            SubscriptionSet(shows: [], damaged: [.init(path: "p", reason: "r")]).status, .archiveFailed)

        XCTAssertEqual(RunStatus.of(ArchiveError.locked(folder: "p", holder: nil), cancelled: false), .locked)
        XCTAssertEqual(RunStatus.of(ArchiveError.locked(folder: "p", holder: nil), cancelled: true), .interrupted)
    }
}
