// Which shows a sync takes on, from an archive held in memory: every subscription or the feeds named and listed,
// each once, a shard of them, and each problem met with the status it leaves.
import Foundation
import XCTest

@testable import ArchiverCore

final class ShowSelectionTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive", isDirectory: true)
    private let one = Subscription(
        feed: "https://one.example/feed", folder: "One", settings: ShowSettings(limit: 3), id: "id-one")
    private let two = Subscription(feed: "https://two.example/feed", folder: "Two", id: "id-two")

    // MARK: - Every subscription

    func test_noFeedNamed_takesEverySubscription_withItsSavedSettings_savingNothing() throws {
        let choice = select(ShowSelection(feeds: [], given: ShowSettings(metadata: true), currentDirectory: "/cwd"))
        XCTAssertEqual(choice.problems, [])
        XCTAssertEqual(choice.status, .success)
        let (first, second) = (try remote("https://one.example/feed"), try remote("https://two.example/feed"))
        // Each with its record as read: the sync starts from it rather than reading it again.
        XCTAssertEqual(
            choice.shows,
            [
                SyncTarget(
                    source: first, saved: ShowSettings(limit: 3), id: "id-one",
                    subscription: ResolvedSubscription(record: one, source: first)),
                SyncTarget(
                    source: second, id: "id-two", subscription: ResolvedSubscription(record: two, source: second)),
            ])
    }

    func test_aDamagedRecord_isNamedAndSkipped_theOthersStillSync() {
        let damaged = SubscriptionSet.DamagedRecord(path: "/archive/.podarchive/feeds/x.json", reason: "not JSON")
        let choice = select(
            ShowSelection(feeds: [], currentDirectory: "/cwd"),
            subscriptions: SubscriptionSet(shows: [one], damaged: [damaged]))
        XCTAssertEqual(choice.shows?.map(\.id), ["id-one"])
        XCTAssertEqual(choice.problems, [.damagedRecord(path: damaged.path, reason: "not JSON")])
        XCTAssertEqual(choice.status, .archiveFailed)
    }

    func test_noSubscriptions_stopsTheRun_asUsage() {
        let choice = select(
            ShowSelection(feeds: [], currentDirectory: "/cwd"), subscriptions: SubscriptionSet(shows: [], damaged: []))
        XCTAssertNil(choice.shows)
        XCTAssertEqual(choice.problems, [.noSubscriptions])
        XCTAssertEqual(choice.status, .usage)
    }

    func test_aShowWhoseSecretsAreMissing_isSkipped_asAFailedFeed() {
        let missing = CredentialError.missing(show: "One", feed: one.feed, path: "/config/x.json")
        var catalog = MemoryCatalog()
        catalog.unresolvable[one.id] = missing
        let choice = select(ShowSelection(feeds: [], currentDirectory: "/cwd"), catalog: catalog)
        XCTAssertEqual(choice.shows?.map(\.id), ["id-two"])
        XCTAssertEqual(choice.problems, [.credentialsMissing(reason: missing.localizedDescription)])
        XCTAssertEqual(choice.status, .feedFailed)
    }

    func test_aSubscriptionThatIsNoFeed_isSkipped_asAnArchiveProblem() {
        var catalog = MemoryCatalog()
        catalog.unresolvable[two.id] = FeedError.invalidSource("")
        let choice = select(ShowSelection(feeds: [], currentDirectory: "/cwd"), catalog: catalog)
        XCTAssertEqual(choice.shows?.map(\.id), ["id-one"])
        XCTAssertEqual(choice.problems, [.unusableSubscription(feed: "https://two.example/feed")])
        XCTAssertEqual(choice.status, .archiveFailed)
    }

    // MARK: - Feeds named and listed

    func test_namedAndListed_eachOnceInOrder_savedSettingsFound_givenToSave() throws {
        var catalog = MemoryCatalog()
        catalog.lists["/lists/feeds.txt"] = ["local.xml", "https://ONE.example/feed", "https://three.example/feed"]
        catalog.known["https://one.example/feed"] = one
        let given = ShowSettings(limit: 1)
        let choice = select(
            ShowSelection(
                feeds: ["https://one.example/feed", "mine.xml"],
                lists: [.init(path: "/lists/feeds.txt", opml: false)], given: given, currentDirectory: "/cwd"),
            catalog: catalog)
        XCTAssertEqual(choice.problems, [])
        let three = try remote("https://three.example/feed")
        XCTAssertEqual(
            choice.shows,
            [
                SyncTarget(
                    source: try remote("https://one.example/feed"), saved: ShowSettings(limit: 3), save: given,
                    id: "id-one",
                    subscription: ResolvedSubscription(record: one, source: try remote("https://one.example/feed"))),
                // A path named starts at the current directory; one listed, at the list's folder.
                SyncTarget(
                    source: .local(path: "/cwd/mine.xml"), save: given,
                    id: Subscription.id(forNewFeed: .local(path: "/cwd/mine.xml"))),
                SyncTarget(
                    source: .local(path: "/lists/local.xml"), save: given,
                    id: Subscription.id(forNewFeed: .local(path: "/lists/local.xml"))),
                SyncTarget(source: three, save: given, id: Subscription.id(forNewFeed: three)),
            ])
    }

    func test_aRedactedAddressNamed_isTheShowItRedacts() throws {
        var catalog = MemoryCatalog()
        let secret = Subscription(feed: "https://p.example/feed?token=REDACTED", folder: "P", id: "id-p")
        catalog.known["https://p.example/feed?token=REDACTED"] = secret
        let choice = select(
            ShowSelection(feeds: ["https://p.example/feed?token=REDACTED"], currentDirectory: "/cwd"),
            catalog: catalog)
        XCTAssertEqual(choice.shows?.map(\.id), ["id-p"])
    }

    func test_aLoginInTheURL_andHeaders_goToTheFeedsOwnOrigin() throws {
        let choice = select(
            ShowSelection(
                feeds: ["https://me:pw@private.example/feed", "local.xml"], headers: ["X-Token: 1"],
                currentDirectory: "/cwd"))
        let origin = try XCTUnwrap(Origin("https://private.example/feed"))
        XCTAssertEqual(
            choice.shows?.map(\.credentials),
            [ShowCredentials(origin: origin, user: "me", password: "pw", headers: ["X-Token: 1"]), nil])
    }

    func test_aFeedNamedThatIsNoFeed_stopsTheRunBeforeAnything() {
        let choice = select(ShowSelection(feeds: ["https://ok.example/f", "ftp://h/f"], currentDirectory: "/cwd"))
        XCTAssertNil(choice.shows)
        XCTAssertEqual(
            choice.problems, [.invalidFeed(reason: FeedError.unsupportedScheme("ftp://h/f").localizedDescription)])
        XCTAssertEqual(choice.status, .usage)
    }

    func test_aBadListLine_isSkipped_andTheRunEndsAsUsage() {
        var catalog = MemoryCatalog()
        catalog.lists["/l.opml"] = ["ftp://h/f", "https://ok.example/f"]
        let choice = select(
            ShowSelection(feeds: [], lists: [.init(path: "/l.opml", opml: true)], currentDirectory: "/cwd"),
            catalog: catalog)
        XCTAssertEqual(choice.shows?.count, 1)
        XCTAssertEqual(
            choice.problems,
            [
                .invalidListLine(
                    list: "/l.opml", reason: FeedError.unsupportedScheme("ftp://h/f").localizedDescription)
            ])
        XCTAssertEqual(choice.status, .usage)
    }

    func test_anUnreadableList_orListsNamingNothing_stopTheRun() {
        let unreadable = select(
            ShowSelection(feeds: [], lists: [.init(path: "/missing", opml: false)], currentDirectory: "/cwd"))
        XCTAssertNil(unreadable.shows)
        XCTAssertEqual(unreadable.problems, [.unreadableList(reason: MemoryCatalog.noList.localizedDescription)])
        var catalog = MemoryCatalog()
        catalog.lists["/empty"] = []
        let empty = select(
            ShowSelection(feeds: [], lists: [.init(path: "/empty", opml: false)], currentDirectory: "/cwd"),
            catalog: catalog)
        XCTAssertNil(empty.shows)
        XCTAssertEqual(empty.problems, [.emptyLists])
        XCTAssertEqual(empty.status, .usage)
    }

    func test_aFeedWhoseSubscriptionCannotBeRead_isSkipped_asAFailedFeed() {
        var catalog = MemoryCatalog()
        catalog.unreadable = ["https://one.example/feed"]
        let choice = select(
            ShowSelection(feeds: ["https://one.example/feed", "https://ok.example/f"], currentDirectory: "/cwd"),
            catalog: catalog)
        XCTAssertEqual(choice.shows?.map(\.source.displayName), ["https://ok.example/f"])
        XCTAssertEqual(choice.problems, [.lookupFailed(reason: MemoryCatalog.noSecrets.localizedDescription)])
        XCTAssertEqual(choice.status, .feedFailed)
    }

    // MARK: - Headers and shards

    func test_headers_needTheFeedsNamedOneByOne() {
        XCTAssertEqual(
            ShowSelection(feeds: [], headers: ["A: b"], currentDirectory: "/").requestProblem,
            .headersWithoutNamedFeeds)
        XCTAssertEqual(
            ShowSelection(
                feeds: ["https://h/f"], lists: [.init(path: "/l", opml: true)], headers: ["A: b"], currentDirectory: "/"
            ).requestProblem, .headersWithoutNamedFeeds)
        XCTAssertNil(ShowSelection(feeds: ["https://h/f"], headers: ["A: b"], currentDirectory: "/").requestProblem)
        XCTAssertNil(ShowSelection(feeds: [], currentDirectory: "/").requestProblem)
        XCTAssertEqual(SelectionProblem.headersWithoutNamedFeeds.status, .usage)
    }

    func test_shards_splitTheShowsWithoutOverlap_eachInOrder() {
        let shows = (0..<12).map { Subscription(feed: "https://h.example/\($0)", folder: "S\($0)", id: "id-\($0)") }
        let subscriptions = SubscriptionSet(shows: shows, damaged: [])
        var taken: [String] = []
        for index in 0..<3 {
            let selection = ShowSelection(feeds: [], shard: .init(index: index, count: 3), currentDirectory: "/")
            let ids = select(selection, subscriptions: subscriptions).shows?.map(\.id) ?? []
            XCTAssertEqual(ids, shows.map(\.id).filter(ids.contains), "shard \(index) keeps the order")
            taken += ids
        }
        XCTAssertEqual(taken.sorted(), shows.map(\.id).sorted())
        XCTAssertEqual(Set(taken).count, shows.count)
    }

    // MARK: - Helpers

    private func select(
        _ selection: ShowSelection, subscriptions: SubscriptionSet? = nil, catalog: MemoryCatalog = MemoryCatalog()
    ) -> ShowChoice {
        selection.choose(
            from: subscriptions ?? SubscriptionSet(shows: [one, two], damaged: []), in: root, catalog: catalog)
    }

    private func remote(_ text: String) throws -> FeedSource {
        try FeedSource(text, currentDirectory: "/")
    }
}

/// An archive's lookups from memory: records resolve to their own feed unless one is set to throw.
private struct MemoryCatalog: ShowCatalog {
    static let noList = FeedError.unreadableFile(path: "/missing", reason: "no such file")
    static let noSecrets = CredentialError.unreadable(path: "/config/x.json", reason: "permission denied")

    var unresolvable: [String: Error] = [:]
    var known: [String: Subscription] = [:]
    var unreadable: Set<String> = []
    var lists: [String: [String]] = [:]

    func resolve(_ record: Subscription, in root: URL) throws -> ResolvedSubscription {
        if let error = unresolvable[record.id] { throw error }
        return ResolvedSubscription(record: record, source: try FeedSource(record.feed, currentDirectory: "/"))
    }

    func subscription(for source: FeedSource, in root: URL) throws -> ResolvedSubscription? {
        if unreadable.contains(source.displayName) { throw Self.noSecrets }
        return known[source.displayName].map { ResolvedSubscription(record: $0, source: source) }
    }

    func subscriptions(atPath path: String, opml: Bool) throws -> [String] {
        guard let lines = lists[path] else { throw Self.noList }
        return lines
    }
}
