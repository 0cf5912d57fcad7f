// The README's "Embedding ArchiverCore", compiled as an outside package would: plain imports only (no `@testable`),
// so a type the embedding API needs that became internal fails the build here, not in someone else's package.
import ArchiverCore
import ArchiverCoreTesting
import Foundation
import XCTest

final class ReadmeEmbeddingTests: XCTestCase {
    func test_theReadmesExample_syncsAFeedThroughThePublicAPI() async throws {
        let feedURL = "https://example.com/feed.xml"
        let feedData = Data(
            """
            <?xml version="1.0"?><rss version="2.0"><channel><title>Show</title>
            <item><title>One</title><guid>1</guid><pubDate>Mon, 06 Jan 2025 10:00:00 GMT</pubDate>
            <enclosure url="https://example.com/1.mp3" type="audio/mpeg" length="5"/></item>
            <item><title>Two</title><guid>2</guid><pubDate>Tue, 07 Jan 2025 10:00:00 GMT</pubDate>
            <enclosure url="https://example.com/2.mp3" type="audio/mpeg" length="5"/></item>
            </channel></rss>
            """.utf8)
        let audio = Data("ID3ab".utf8)
        let world = ArchiveWorld(
            feedURL: feedURL, feed: feedData,
            episodes: ["https://example.com/1.mp3": SpyDownloader.Canned(body: audio)],
            now: Date(timeIntervalSince1970: 1_736_300_000), onUnexpected: { _ in })
        let report = try await world.archiver.sync(
            .remote(URL(string: feedURL)!), into: URL(fileURLWithPath: "/archive"))

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["One.mp3"])
        XCTAssertEqual(report.failed.map { $0.episode.title }, ["Two"], "nobody scripted episode 2")
        XCTAssertEqual(report.alreadyArchived, 0)
        XCTAssertTrue(world.fileSystem.visibleFiles.contains { $0.hasSuffix("/One.mp3") })
        XCTAssertEqual(world.mover.moves.count, 1)
        let requests = await world.logger.requests
        XCTAssertEqual(requests.first, .feed(feedURL), "the feed first")
        XCTAssertEqual(
            Set(requests.dropFirst()), [.episode("https://example.com/1.mp3"), .episode("https://example.com/2.mp3")])
    }
}
