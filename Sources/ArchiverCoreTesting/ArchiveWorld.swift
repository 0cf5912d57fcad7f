// One sync's world with every effect replaced by a double: the fake file system, the spies and the archiver.
import ArchiverCore
import Foundation

/// An `Archiver` wired to doubles only: a feed at one URL, scripted episodes, an in-memory file system, a clock
/// that does not move unless told, and waits that return at once.
public struct ArchiveWorld {
    /// The order of feed and episode requests.
    public let logger = RequestLogger()
    /// Where everything is written.
    public let fileSystem: FakeFileSystem
    /// Every rename.
    public let mover: SpyFileMovement
    /// Every date and origin set.
    public let attributes: SpyFileAttributes
    /// The scripted episodes.
    public let downloader: SpyDownloader
    /// The feed.
    public let fetcher: StubFetcher
    /// Every wait asked for (retries, lock polls).
    public let sleeper = SpySleeper()
    /// The archiver under test.
    public let archiver: Archiver

    /// A world whose clock always shows `now`.
    public init(
        feedURL: String, feed: Data, feedStatus: Int = 200, feedETag: String? = nil,
        episodes: [String: SpyDownloader.Canned], now: Date,
        onUnexpected: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.init(
            feedURL: feedURL, feed: feed, feedStatus: feedStatus, feedETag: feedETag, episodes: episodes,
            clock: { now }, onUnexpected: onUnexpected)
    }

    /// A world whose clock is `clock`, for tests where days pass between runs.
    /// - Parameters:
    ///   - fileSystem: the disk, shared with an earlier world to sync the same archive again.
    ///   - onUnexpected: called for each request nobody scripted (pass the test's `XCTFail`).
    public init(
        feedURL: String, feed: Data, feedStatus: Int = 200, feedETag: String? = nil,
        episodes: [String: SpyDownloader.Canned], clock: @escaping @Sendable () -> Date,
        fileSystem: FakeFileSystem = FakeFileSystem(), onUnexpected: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.fileSystem = fileSystem
        mover = SpyFileMovement(fileSystem: fileSystem)
        attributes = SpyFileAttributes(fileSystem: fileSystem)
        downloader = SpyDownloader(
            logger: logger, fileSystem: fileSystem, canned: episodes, onUnexpected: onUnexpected)
        fetcher = StubFetcher(
            logger: logger, feedURL: feedURL, body: feed, status: feedStatus, etag: feedETag,
            onUnexpected: onUnexpected)
        let sleeper = self.sleeper
        archiver = Archiver(
            fileSystem: FileSystemSeams(
                files: fileSystem, attributes: attributes, mover: mover, writer: fileSystem, locker: fileSystem,
                hasher: fileSystem),
            network: NetworkSeams(fetcher: fetcher, downloader: downloader),
            clock: SyncClock(
                now: clock, sleep: { try await sleeper.sleep($0) },
                // Deadlines in real time: they pass only when a test's script never ends.
                timer: { seconds in try await Task.sleep(nanoseconds: UInt64(min(max(seconds, 0), 1e9) * 1e9)) },
                jitter: { 0.5 }))
    }

    /// Every request nobody scripted, feed or episode.
    public var unexpectedCalls: [String] { fetcher.unexpectedCalls + downloader.unexpectedCalls }
}
