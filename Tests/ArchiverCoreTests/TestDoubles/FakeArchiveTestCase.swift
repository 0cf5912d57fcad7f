import ArchiverCoreTesting
import Foundation
import XCTest

// The set-up most archive tests share: an archiver on the in-memory file system, with scripted downloads, a
// spy for waits, one feed URL and a root folder.
@testable import ArchiverCore

/// A test case whose archiver touches only doubles; subclasses add the tests.
class FakeArchiveTestCase: XCTestCase {
    let root = URL(fileURLWithPath: "/archive")
    let feedURL = "https://example.com/feed.xml"
    let logger = RequestLogger()
    let fileSystem = FakeFileSystem()
    let sleeper = SpySleeper()
    var downloader: SpyDownloader!

    override func setUp() {
        super.setUp()
        downloader = SpyDownloader(logger: logger, fileSystem: fileSystem, onUnexpected: failOnUnexpected)
    }

    func archiver(feed: Data) -> Archiver {
        let sleeper = self.sleeper
        return Archiver(
            fileSystem: FileSystemSeams(
                files: fileSystem, attributes: fileSystem, mover: fileSystem, writer: fileSystem, locker: fileSystem,
                hasher: fileSystem),
            network: NetworkSeams(
                fetcher: StubFetcher(logger: logger, feedURL: feedURL, body: feed, onUnexpected: failOnUnexpected),
                downloader: downloader),
            clock: SyncClock(
                now: { Date(timeIntervalSince1970: 1_800_000_000) }, sleep: { try await sleeper.sleep($0) },
                timer: noDeadline, jitter: { 0.5 }))
    }

    func rss(_ items: [(title: String, url: String, guid: String?)]) -> Data {
        FeedText.rss(items)
    }

    func audio(_ text: String) -> SpyDownloader.Canned {
        SpyDownloader.Canned(body: Data(text.utf8), headers: ["Content-Type": "audio/mpeg"])
    }

    func sync(_ feed: Data, options: SyncOptions = SyncOptions()) async throws -> SyncReport {
        try await archiver(feed: feed).sync(.remote(URL(string: feedURL)!), into: root, options: options)
    }

    var index: ArchiveIndex {
        get throws { try IndexFormat.decode(XCTUnwrap(fileSystem.file("/archive/Show/.podarchive/index.json"))) }
    }
}
