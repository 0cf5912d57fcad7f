// The run's download budget on its own: caps in all and per host, the order slots are handed on, cancellation,
// and disk space claimed by downloads in flight. No sleeping: tasks are observed waiting through the budget.
import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class DownloadBudgetTests: XCTestCase {
    /// Yields until `condition` holds; the watchdog ends a test whose condition never comes.
    private func until(_ condition: @escaping @Sendable () -> Bool) async throws {
        try await withWatchdog(seconds: 10) {
            while !condition() { await Task.yield() }
        }
    }

    private final class Order: @unchecked Sendable {
        private let lock = NSLock()
        private var granted: [String] = []
        var all: [String] { lock.withLock { granted } }
        func append(_ name: String) { lock.withLock { granted.append(name) } }
    }

    func test_slots_capInAllAndPerHost_andGoToTheOldestWaiterThatFits() async throws {
        let budget = DownloadBudget(total: 3, perHost: 2)
        try await budget.acquire(host: "a")
        try await budget.acquire(host: "a")
        let order = Order()
        // A third for host a must wait (per-host cap); one for b fits; then one for c must wait (total cap).
        let thirdA = Task {
            try await budget.acquire(host: "a")
            order.append("a")
        }
        try await until { budget.waiting == 1 }
        try await budget.acquire(host: "b")
        let firstC = Task {
            try await budget.acquire(host: "c")
            order.append("c")
        }
        try await until { budget.waiting == 2 }
        XCTAssertEqual(budget.inFlight, 3)

        // b's slot frees room in all, but a is still at its cap: c, the oldest that fits, gets it.
        budget.release(host: "b")
        try await firstC.value
        XCTAssertEqual(order.all, ["c"])
        // One of a's ends: the waiting a gets it.
        budget.release(host: "a")
        try await thirdA.value
        XCTAssertEqual(order.all, ["c", "a"])
        XCTAssertEqual(budget.inFlight, 3)
        XCTAssertEqual(budget.waiting, 0)
    }

    func test_slots_aWaiterCancelled_endsAtOnceAndTakesNothing() async throws {
        let budget = DownloadBudget(total: 1, perHost: 1)
        try await budget.acquire(host: "a")
        let waiter = Task { try await budget.acquire(host: "a") }
        try await until { budget.waiting == 1 }

        waiter.cancel()
        let outcome = await waiter.result

        guard case .failure(let error) = outcome else { return XCTFail("a cancelled wait must not get a slot") }
        XCTAssertTrue(error is CancellationError)
        XCTAssertEqual(budget.waiting, 0)
        budget.release(host: "a")
        XCTAssertEqual(budget.inFlight, 0, "nothing leaked")
    }

    func test_requests_countAgainstTheirHost_notAgainstDownloadsInAll() async throws {
        let budget = DownloadBudget(total: 1, perHost: 2)
        try await budget.acquire(host: "a")
        // A feed request to a fits beside the one download (the cap in all counts downloads only)...
        try await budget.acquire(host: "A", kind: .request)
        XCTAssertEqual(budget.inFlight(to: "a"), 2, "a host is one host whatever the case of its name")
        let order = Order()
        // ...but a third request to a waits for its host, and a download from b for the cap in all.
        let thirdA = Task {
            try await budget.acquire(host: "a", kind: .request)
            order.append("a")
        }
        try await until { budget.waiting == 1 }
        let downloadB = Task {
            try await budget.acquire(host: "b")
            order.append("b")
        }
        try await until { budget.waiting == 2 }
        // One request to b still fits at once: its host is free and requests take nothing in all.
        try await budget.acquire(host: "b", kind: .request)

        // The request to a ends: the waiting request to a gets its host's slot; the download still waits.
        budget.release(host: "a", kind: .request)
        try await thirdA.value
        XCTAssertEqual(order.all, ["a"])
        XCTAssertEqual(budget.waiting, 1)
        // The download from a ends: the download from b gets the slot in all.
        budget.release(host: "a")
        try await downloadB.value
        XCTAssertEqual(order.all, ["a", "b"])
        XCTAssertEqual(budget.inFlight, 1)
        XCTAssertEqual([budget.inFlight(to: "a"), budget.inFlight(to: "b")], [1, 2])
    }

    func test_aFeedFetch_waitsForItsHostsSlot_thenFetches_andGivesItBack() async throws {
        let budget = DownloadBudget(total: 4, perHost: 1)
        let logger = RequestLogger()
        let feedURL = "https://Example.com/feed.xml"
        let loader = FeedLoader(
            fetcher: StubFetcher(
                logger: logger, feedURL: feedURL, body: Data("<rss><channel><title>T</title></channel></rss>".utf8),
                onUnexpected: failOnUnexpected), files: FakeFileSystem(), timer: noDeadline)
        // A download from the feed's host holds its only slot.
        try await budget.acquire(host: "example.com")
        let fetch = Task {
            try await loader.load(.remote(URL(string: feedURL)!), limits: FeedLimits(budget: budget)).title
        }
        try await until { budget.waiting == 1 }
        let loggedWhileWaiting = await logger.requests
        XCTAssertEqual(loggedWhileWaiting, [], "nothing is asked of the host while it is at its cap")

        budget.release(host: "example.com")
        let title = try await withWatchdog(seconds: 10) { try await fetch.value }

        XCTAssertEqual(title, "T")
        let logged = await logger.requests
        XCTAssertEqual(logged, [.feed(feedURL)])
        XCTAssertEqual(budget.inFlight(to: "example.com"), 0, "the feed's slot is given back")
    }

    func test_aFeedFetchWaitingForASlot_endsWhenCancelled_andAsksNothing() async throws {
        let budget = DownloadBudget(total: 4, perHost: 1)
        let logger = RequestLogger()
        let loader = FeedLoader(
            fetcher: StubFetcher(logger: logger, answers: [:], onUnexpected: failOnUnexpected),
            files: FakeFileSystem(), timer: noDeadline)
        try await budget.acquire(host: "example.com", kind: .request)
        let fetch = Task {
            try await loader.load(
                .remote(URL(string: "https://example.com/feed.xml")!), limits: FeedLimits(budget: budget))
        }
        try await until { budget.waiting == 1 }

        fetch.cancel()
        let outcome = try await withWatchdog(seconds: 10) { await fetch.result }

        guard case .failure(let error) = outcome else { return XCTFail("a cancelled wait fetches nothing") }
        XCTAssertEqual(error as? FeedError, .transport(url: "https://example.com/feed.xml", reason: "cancelled"))
        XCTAssertEqual(budget.waiting, 0)
        let logged = await logger.requests
        XCTAssertEqual(logged, [])
        budget.release(host: "example.com", kind: .request)
        XCTAssertEqual(budget.inFlight(to: "example.com"), 0, "nothing leaked")
    }

    func test_space_claimsCountWhatDownloadsInFlightHaveYetToWrite() async throws {
        let mb: Int64 = 1 << 20
        let budget = DownloadBudget(total: 4, perHost: 4)

        let first = budget.claim(3 * mb, free: 6 * mb)
        let second = budget.claim(2 * mb, free: 6 * mb)
        guard case .claimed(let firstID) = first, case .claimed = second else {
            return XCTFail("3 MB and 2 MB fit in 6 MB: \(first), \(second)")
        }
        XCTAssertEqual(budget.claim(4 * mb, free: 6 * mb), .wait, "fits once the others are done")
        XCTAssertEqual(budget.claim(7 * mb, free: 6 * mb), .refused, "never fits")

        // The first has written 2 MB (now out of the free space): 1 MB of it and 2 MB of the second are owed.
        budget.wrote(2 * mb, claim: firstID)
        guard case .claimed = budget.claim(1 * mb, free: 4 * mb) else { return XCTFail("4 - (1 + 2) leaves 1 MB") }
        XCTAssertEqual(budget.claim(2 * mb, free: 4 * mb), .wait, "4 - (1 + 2 + 1) leaves nothing")
    }

    func test_space_waitEndsWhenAClaimEnds_orAtOnceWhenNoneIsLeft() async throws {
        let budget = DownloadBudget(total: 2, perHost: 2)
        try await budget.spaceReturned()  // nothing claimed: returns at once
        guard case .claimed(let id) = budget.claim(10, free: 10) else { return XCTFail("10 fits in 10") }
        let waiter = Task { try await budget.spaceReturned() }
        try await until { budget.claim(1, free: 10) == .wait }

        budget.endClaim(id)

        try await withWatchdog(seconds: 10) { try await waiter.value }
    }
}

/// An episode's deadline and the budget: waiting for a slot is no time spent on the episode.
final class DeadlineAndBudgetTests: XCTestCase {
    func test_anEpisodesDeadline_startsWithItsSlot_notWhileItWaitsForOne() async throws {
        let fileSystem = FakeFileSystem()
        let logger = RequestLogger()
        let spy = SpyDownloader(logger: logger, fileSystem: fileSystem, onUnexpected: failOnUnexpected)
        for name in ["a", "b"] {
            spy.script(
                "https://example.com/\(name).mp3",
                [SpyDownloader.Canned(body: Data(name.utf8), headers: ["Content-Type": "audio/mpeg"])])
        }
        let budget = DownloadBudget(total: 1, perHost: 1)
        let clock = TestClock()
        // The first download takes two hours (by the clock), while the other episode waits for the one slot.
        let slow = FirstDownloadWaits(spy) {
            try await withWatchdog(seconds: 10) {
                while budget.waiting == 0 { await Task.yield() }
            }
            clock.advance(2 * 3600)
        }
        let archiver = Archiver(
            fileSystem: FileSystemSeams(
                files: fileSystem, attributes: fileSystem, mover: fileSystem, writer: fileSystem, locker: fileSystem,
                hasher: fileSystem),
            network: NetworkSeams(
                fetcher: StubFetcher(
                    logger: logger, feedURL: "https://example.com/feed.xml",
                    body: FeedText.rss([
                        ("A", "https://example.com/a.mp3", "a"), ("B", "https://example.com/b.mp3", "b"),
                    ]), onUnexpected: failOnUnexpected), downloader: slow),
            clock: SyncClock(now: { clock.now }, sleep: { _ in }, timer: noDeadline, jitter: { 0.5 }))
        var options = SyncOptions(episodeTimeout: 3600, jobs: 2)
        options.budget = budget

        let report = try await archiver.sync(
            .remote(URL(string: "https://example.com/feed.xml")!), into: URL(fileURLWithPath: "/archive"),
            options: options)

        XCTAssertEqual(
            report.failed.map { $0.failure }, [EpisodeFailure](), "the episode that waited had its whole hour")
        XCTAssertEqual(report.archived.count, 2)
    }
}

/// A downloader whose first download runs `first` before it answers.
private final class FirstDownloadWaits: FileDownloading, @unchecked Sendable {
    private let inner: any FileDownloading
    private let first: @Sendable () async throws -> Void
    private let lock = NSLock()
    private var started = false

    init(_ inner: any FileDownloading, first: @escaping @Sendable () async throws -> Void) {
        self.inner = inner
        self.first = first
    }

    func download(_ request: URLRequest, to destination: URL, options: DownloadOptions) async throws
        -> DownloadResult
    {
        let isFirst = lock.withLock { () -> Bool in
            defer { started = true }
            return !started
        }
        if isFirst { try await first() }
        return try await inner.download(request, to: destination, options: options)
    }
}
