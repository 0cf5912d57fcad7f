import ArchiverCoreTesting
import Foundation
import XCTest

// `sync` and `add` as one call each on the facade, every effect a double: the events a run tells, in order, and
// the status its report carries, which is the process's exit status.
@testable import ArchiverCore

final class SyncRunnerTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")
    private let feedURL = "https://example.com/feed.xml"
    private let clock = Date(timeIntervalSince1970: 1_800_000_000)

    private func world(episode: SpyDownloader.Canned) -> ArchiveWorld {
        ArchiveWorld(
            feedURL: feedURL, feed: FeedText.rss([("One", "https://example.com/1.mp3", "g1")]),
            episodes: ["https://example.com/1.mp3": episode], now: clock, onUnexpected: failOnUnexpected)
    }

    private var audio: SpyDownloader.Canned {
        SpyDownloader.Canned(body: Data("ID3 audio".utf8), headers: ["Content-Type": "audio/mpeg"])
    }

    private func request(feeds: [String], headers: [String] = []) -> SyncRequest {
        SyncRequest(
            root: root, selection: ShowSelection(feeds: feeds, headers: headers, currentDirectory: "/"),
            settings: CommandSettings(currentDirectory: "/", home: nil))
    }

    /// The events told, each as a word (the show's own sync events left out), in the order told.
    private final class Told: Sendable {
        private let words = Locked<[String]>([])
        var said: [String] { words.current }

        func hear(_ event: SyncRunEvent) {
            let word: String? =
                switch event {
                case .found: "found"
                case .accessLeftBehind: "accessLeftBehind"
                case .unfound(let outcome): "unfound \(outcome.status)"
                case .problem(let problem): "problem \(problem)"
                case .merged: "merged"
                case .secretsInside: "secretsInside"
                case .chosen(let shows): "chosen \(shows.count)"
                case .started(let show): "started \(show)"
                case .show: nil
                case .ended(let show, let outcome): "ended \(show) \(outcome.status)"
                case .site, .siteFailed: "site"
                case .library, .libraryFailed: "library"
                }
            if let word { words.withLock { $0.append(word) } }
        }
    }

    func test_aFeedNamed_isChosenStartedAndEnded_andItsArchivedEpisodeMakesTheRunASuccess() async {
        let world = world(episode: audio)
        let told = Told()

        let report = await world.archiver.commands.sync(request(feeds: [feedURL]), onEvent: told.hear)

        XCTAssertEqual(told.said, ["chosen 1", "started 0", "ended 0 success"])
        XCTAssertEqual(report.status, .success)
        guard case .synced(let synced)? = report.outcomes?.first?.result else {
            return XCTFail("the show's outcome is its sync: \(String(describing: report.outcomes))")
        }
        XCTAssertEqual(synced.archived.count, 1)
        XCTAssertEqual(world.archiver.subscriptions(in: root).shows.map(\.feed), [feedURL], "a feed synced is followed")
    }

    func test_anEpisodeThatFails_endsTheRunAsEpisodesFailed() async {
        let world = world(episode: SpyDownloader.Canned(status: 404))

        let report = await world.archiver.commands.sync(request(feeds: [feedURL]), onEvent: { _ in })

        XCTAssertEqual(report.status, .episodesFailed)
        XCTAssertEqual(report.outcomes?.map(\.status), [.episodesFailed])
    }

    func test_aDryRun_plansTheEpisode_andFetchesNothingButTheFeed() async {
        let world = world(episode: audio)
        var asked = request(feeds: [feedURL])
        asked.dryRun = true

        let report = await world.archiver.commands.sync(asked, onEvent: { _ in })

        XCTAssertEqual(report.status, .success)
        guard case .planned(let plan)? = report.outcomes?.first?.result else {
            return XCTFail("a dry run's outcome is its plan")
        }
        XCTAssertEqual(plan.downloads.map(\.episode.title), ["One"])
        let requests = await world.logger.requests
        XCTAssertEqual(requests, [.feed(feedURL)])
        XCTAssertEqual(world.mover.moves, [])
    }

    func test_headersWithoutTheFeedsTheyAreFor_areRefused_beforeAnythingIsRead() async {
        let world = world(episode: audio)
        let told = Told()

        let report = await world.archiver.commands.sync(request(feeds: [], headers: ["X-Token: t"]), onEvent: told.hear)

        XCTAssertEqual(told.said, ["problem headersWithoutNamedFeeds"])
        XCTAssertEqual(report.status, .usage)
        XCTAssertNil(report.outcomes, "nothing ran")
        let requests = await world.logger.requests
        XCTAssertEqual(requests, [])
    }

    func test_anArchiveFollowingNothing_withNothingNamed_isAUsageError() async {
        let told = Told()

        let report = await world(episode: audio).archiver.commands.sync(request(feeds: []), onEvent: told.hear)

        XCTAssertEqual(told.said, ["problem noSubscriptions"])
        XCTAssertEqual(report.status, .usage)
    }

    func test_aNameThatIsNoFeedAddress_stopsTheRunBeforeAnyShow() async {
        let world = world(episode: audio)
        let told = Told()

        let report = await world.archiver.commands.sync(
            request(feeds: [feedURL, "ftp://example.com/x"]), onEvent: told.hear)

        XCTAssertEqual(told.said.map { $0.prefix(19) }, ["problem invalidFeed"])
        XCTAssertEqual(report.status, .usage)
        XCTAssertNil(report.outcomes)
        let requests = await world.logger.requests
        XCTAssertEqual(requests, [], "not even the good feed is read")
    }

    func test_add_subscribesWithoutDownloading_andEndsEachShowAsSubscribed() async {
        let world = world(episode: audio)
        let told = Told()

        let report = await world.archiver.commands.add(
            AddRequest(root: root, feeds: [feedURL], settings: CommandSettings(currentDirectory: "/", home: nil)),
            onEvent: told.hear)

        XCTAssertEqual(told.said, ["ended 0 success"])
        XCTAssertEqual(report.status, .success)
        guard case .subscribed(let subscription)? = report.outcomes?.first?.result else {
            return XCTFail("add's outcome is the subscription")
        }
        XCTAssertEqual(subscription.feed, feedURL)
        let requests = await world.logger.requests
        XCTAssertEqual(requests, [.feed(feedURL)], "no episode is fetched")
    }
}
