import ArchiverCoreTesting
import Foundation
import XCTest

// The commands over the archive as one call each: the status their outcome carries, and what a refused request
// leaves untouched.
@testable import ArchiverCore

final class CommandOutcomeTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let feedURL = "https://example.com/feed.xml"

    private func synced() async throws -> ArchiveWorld {
        let world = ArchiveWorld(
            feedURL: feedURL, feed: FeedText.rss([("One", "https://example.com/1.mp3", "g1")]),
            episodes: [
                "https://example.com/1.mp3": SpyDownloader.Canned(
                    body: Data("ID3 audio".utf8), headers: ["Content-Type": "audio/mpeg"])
            ], now: Date(timeIntervalSince1970: 1_800_000_000), onUnexpected: failOnUnexpected)
        _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: root)
        return world
    }

    private var settings: CommandSettings { CommandSettings(currentDirectory: "/", home: nil) }

    func test_site_intoAFolderInsideTheArchive_isAUsageError_andNothingIsSavedOrWritten() async throws {
        let world = try await synced()
        let before = world.fileSystem.allFiles
        var request = SiteRequest(root: root, settings: settings)
        request.out = "/archive/public"

        let outcome = await world.archiver.commands.site(request)

        XCTAssertEqual(outcome.status, .usage)
        guard case .failure(let error as SiteOutInsideArchive) = outcome.result else {
            return XCTFail("refused as a folder inside the archive: \(outcome.result)")
        }
        XCTAssertEqual(error.out, "/archive/public")
        XCTAssertEqual(world.fileSystem.allFiles, before)
    }

    func test_site_writesThePages_andSavesTheBaseURLGiven() async throws {
        let world = try await synced()
        var request = SiteRequest(root: root, settings: settings)
        request.baseURL = "https://podcasts.example.org/"

        let outcome = await world.archiver.commands.site(request)

        XCTAssertEqual(outcome.status, .success)
        guard case .success(let written) = outcome.result else { return XCTFail("\(outcome.result)") }
        XCTAssertEqual(written.report.shows, 1)
        XCTAssertEqual(world.archiver.siteSettings(in: root).baseURL, "https://podcasts.example.org/")
        XCTAssertFalse(written.intoSavedOut)
    }

    func test_verify_ofAFolderHoldingNoArchive_isAUsageError() async {
        let world = ArchiveWorld(feedURL: feedURL, feed: Data(), episodes: [:], now: Date())

        let outcome = await world.archiver.commands.verify(
            VerifyRequest(directory: URL(fileURLWithPath: "/nothing"), settings: settings), onEvent: { _ in })

        XCTAssertEqual(outcome.status, .usage)
    }

    func test_verify_ofAWholeArchive_isASuccess_andAMissingFileFailsIt() async throws {
        let world = try await synced()
        let request = VerifyRequest(directory: root, settings: settings)
        let whole = await world.archiver.commands.verify(request, onEvent: { _ in })
        XCTAssertEqual(whole.status, .success)

        let episode = try XCTUnwrap(world.fileSystem.visibleFiles.first { $0.hasSuffix(".mp3") })
        try world.fileSystem.removeItem(at: URL(fileURLWithPath: episode))
        let damaged = await world.archiver.commands.verify(request, onEvent: { _ in })

        XCTAssertEqual(damaged.status, .episodesFailed)
    }
}
