// One sync's world with every effect replaced by a double: the fake file system, the spies and the archiver.
import ArchiverCore
import Foundation

struct ArchiveWorld {
    let logger = RequestLogger()
    let fileSystem = FakeFileSystem()
    let mover: SpyFileMovement
    let attributes: SpyFileAttributes
    let downloader: SpyDownloader
    let sleeper = SpySleeper()
    let archiver: Archiver

    init(
        feedURL: String, feed: Data, feedStatus: Int = 200, feedETag: String? = nil,
        episodes: [String: SpyDownloader.Canned], now: Date
    ) {
        self.init(
            feedURL: feedURL, feed: feed, feedStatus: feedStatus, feedETag: feedETag, episodes: episodes,
            clock: { now })
    }

    /// A world whose clock is `clock`, for tests where days pass between runs.
    init(
        feedURL: String, feed: Data, feedStatus: Int = 200, feedETag: String? = nil,
        episodes: [String: SpyDownloader.Canned], clock: @escaping @Sendable () -> Date
    ) {
        mover = SpyFileMovement(fileSystem: fileSystem)
        attributes = SpyFileAttributes(fileSystem: fileSystem)
        downloader = SpyDownloader(logger: logger, fileSystem: fileSystem, canned: episodes)
        let fetcher = StubFetcher(logger: logger, feedURL: feedURL, body: feed, status: feedStatus, etag: feedETag)
        let sleeper = self.sleeper
        archiver = Archiver(
            fetcher: fetcher, downloader: downloader, mover: mover, attributes: attributes, files: fileSystem,
            writer: fileSystem, locker: fileSystem, hasher: fileSystem, now: clock,
            sleep: { try await sleeper.sleep($0) }, jitter: { 0.5 })
    }
}
