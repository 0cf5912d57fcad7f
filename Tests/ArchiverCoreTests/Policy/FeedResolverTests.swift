// What a show's address, as typed, resolves to, against a stub fetcher that answers from a table (milliseconds,
// no network): pages followed to their podcast feed, Apple Podcasts links looked up, and every hostile or failing
// answer turned into a clear error or left for the feed's own fetch to report.
import Foundation
import TestSupport
import XCTest

@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers each URL from a table (404 for the rest) and records the requests.
private final class TableFetcher: URLDataFetcher, @unchecked Sendable {
    private let lock = NSLock()
    private var answers: [String: (Int, Data)] = [:]
    private var failures: [String: Error] = [:]
    private var asked: [URLRequest] = []

    var requests: [URLRequest] { lock.withLock { asked } }

    func answer(_ url: String, _ body: String, status: Int = 200) {
        lock.withLock { answers[url] = (status, Data(body.utf8)) }
    }

    func answer(_ url: String, data: Data) { lock.withLock { answers[url] = (200, data) } }

    func fail(_ url: String, with error: Error) { lock.withLock { failures[url] = error } }

    func data(for request: URLRequest, maximumBytes: Int64) async throws -> (Data, URLResponse) {
        let url = request.url!
        let (answer, failure) = lock.withLock { () -> ((Int, Data)?, Error?) in
            asked.append(request)
            return (answers[url.absoluteString], failures[url.absoluteString])
        }
        if let failure { throw failure }
        let (status, body) = answer ?? (404, Data())
        if Int64(body.count) > maximumBytes { throw FetchError.tooLarge(limit: maximumBytes) }
        return (body, HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!)
    }
}

final class FeedResolverTests: XCTestCase {
    private let fetcher = TableFetcher()
    private let directory = PodcastDirectory(base: URL(string: "https://dir.example")!)
    private var resolver: FeedResolver { FeedResolver(fetcher: fetcher, directory: directory, timer: noDeadline) }

    private func page(_ links: String) -> String {
        "<!DOCTYPE html><html><head><title>Show</title>\(links)</head><body><p>Hello</p></body></html>"
    }

    private let rss =
        #"<rss version="2.0"><channel><title>S</title><item><title>E</title>"#
        + #"<enclosure url="https://cdn.example/e.mp3" type="audio/mpeg"/></item></channel></rss>"#
    private let emptyRSS = #"<rss version="2.0"><channel><title>News</title></channel></rss>"#

    /// What a command does: resolve, then follow what may be a page (a command does that only once reading it
    /// as a feed found no feed).
    private func resolve(_ typed: String, credentials: Bool = false) async throws -> ResolvedFeed {
        let first = try await resolver.resolve(
            typed, currentDirectory: "/tmp", limits: FeedLimits(timeout: 60), credentialsGiven: credentials)
        return first.followable ? try await resolver.follow(first, limits: FeedLimits(timeout: 60)) : first
    }

    func testAnAddressIsNotReadBeforeItIsReadAsAFeed_unlessCredentialsCameWithIt() async throws {
        fetcher.answer("https://show.example/feed.xml", rss)
        let plain = try await resolver.resolve(
            "https://show.example/feed.xml", currentDirectory: "/", limits: FeedLimits())
        XCTAssertTrue(plain.followable)
        XCTAssertTrue(fetcher.requests.isEmpty, "a feed is read once, by the sync")
        let withHeader = try await resolver.resolve(
            "https://show.example/feed.xml", currentDirectory: "/", limits: FeedLimits(), credentialsGiven: true)
        XCTAssertFalse(withHeader.followable)
        XCTAssertEqual(fetcher.requests.count, 1, "read first without the credentials, to keep them from a page")
        let redacted = try await resolver.resolve(
            "https://show.example/feed.xml?token=REDACTED", currentDirectory: "/", limits: FeedLimits(),
            credentialsGiven: true)
        XCTAssertFalse(redacted.followable)
        XCTAssertEqual(fetcher.requests.count, 1, "an address carrying the redaction marker is never read")
    }

    func testAFeedIsTakenAsItIs() async throws {
        fetcher.answer("https://show.example/feed.xml", rss)
        let resolved = try await resolve("https://show.example/feed.xml")
        XCTAssertEqual(resolved.text, "https://show.example/feed.xml")
        XCTAssertNil(resolved.feed)
    }

    func testAPageIsFollowedToTheFeedItsHeadNames_relativeHrefResolved() async throws {
        fetcher.answer(
            "https://show.example/", page(#"<link rel="alternate" type="application/rss+xml" href="/feed.xml">"#))
        let resolved = try await resolve("https://show.example/")
        XCTAssertEqual(resolved.text, "https://show.example/feed.xml")
        XCTAssertEqual(resolved.page?.absoluteString, "https://show.example/")
        XCTAssertEqual(fetcher.requests.count, 1, "one link is taken without reading it")
        XCTAssertEqual(fetcher.requests.first?.value(forHTTPHeaderField: "Range"), "bytes=0-1048575")
    }

    func testOfSeveralLinksThePodcastFeedWins_theOthersListed() async throws {
        fetcher.answer(
            "https://blog.example/",
            page(
                #"<link rel="alternate" type="application/rss+xml" title="Posts" href="/posts.xml">"#
                    + #"<link rel="alternate" type="application/atom+xml" href="/broken.xml">"#
                    + #"<link rel="alternate" type="application/rss+xml" title="Podcast" href="/podcast.xml">"#))
        fetcher.answer("https://blog.example/posts.xml", emptyRSS)
        fetcher.answer("https://blog.example/broken.xml", "<html>not a feed</html>")
        fetcher.answer("https://blog.example/podcast.xml", rss)
        let resolved = try await resolve("https://blog.example/")
        XCTAssertEqual(resolved.feed?.absoluteString, "https://blog.example/podcast.xml")
        XCTAssertEqual(
            resolved.others.map(\.url.absoluteString),
            ["https://blog.example/posts.xml", "https://blog.example/broken.xml"])
    }

    func testWhenNoLinkReadsAsAPodcastTheFirstIsTaken() async throws {
        fetcher.answer(
            "https://blog.example/",
            page(
                #"<link rel="alternate" type="application/rss+xml" href="/a.xml">"#
                    + #"<link rel="alternate" type="application/rss+xml" href="/b.xml">"#))
        fetcher.answer("https://blog.example/a.xml", "x", status: 401)
        let resolved = try await resolve("https://blog.example/")
        XCTAssertEqual(resolved.text, "https://blog.example/a.xml")
    }

    func testAPageWithoutFeedLinksIsAnErrorNamingThePage() async {
        fetcher.answer("https://show.example/about?token=s3cret", page("<meta charset=utf-8>"))
        do {
            _ = try await resolve("https://show.example/about?token=s3cret")
            XCTFail("no error")
        } catch {
            XCTAssertEqual(error as? FeedError, .pageWithoutFeed(url: "https://show.example/about?token=REDACTED"))
            XCTAssertEqual(RunStatus(for: error), .feedFailed)
            XCTAssertFalse(error.localizedDescription.contains("s3cret"))
        }
    }

    func testWithCredentialsAPageWithoutFeedLinksIsTakenAsTheFeed() async throws {
        fetcher.answer("https://private.example/feed", page(""))
        let resolved = try await resolve("https://private.example/feed", credentials: true)
        XCTAssertEqual(resolved.text, "https://private.example/feed")
    }

    func testThePageIsReadWithoutCredentials_theLoginTypedGoesWithAFeedOnItsOrigin() async throws {
        fetcher.answer(
            "https://page.example/",
            page(#"<link rel="alternate" type="application/rss+xml" href="https://page.example/show.xml">"#))
        let resolved = try await resolve("https://ann:pw%40x@page.example/")
        XCTAssertEqual(resolved.text, "https://ann:pw%40x@page.example/show.xml")
        XCTAssertNil(resolved.namedAt)
        let request = try XCTUnwrap(fetcher.requests.first)
        XCTAssertEqual(request.url?.absoluteString, "https://page.example/")
        XCTAssertNil(request.value(forHTTPHeaderField: "Authorization"))
    }

    func testTheLoginTypedWithAPage_staysWithIt_whenTheFeedIsOnAnotherOrigin() async throws {
        fetcher.answer(
            "https://page.example/",
            page(#"<link rel="alternate" type="application/rss+xml" href="https://feeds.example/show.xml">"#))
        let resolved = try await resolve("https://ann:pw%40x@page.example/")
        XCTAssertEqual(resolved.text, "https://feeds.example/show.xml")
        XCTAssertEqual(resolved.namedAt, Origin("https://page.example/"))
        let source = try FeedSource(resolved.text, currentDirectory: "/")
        XCTAssertNil(resolved.givenCredentials(to: source, headers: ["Authorization: Bearer T"]))
    }

    func testFailuresAndRefusalsLeaveTheAddressToTheFeedsOwnFetch() async throws {
        fetcher.fail("https://down.example/feed", with: URLError(.cannotConnectToHost))
        fetcher.answer("https://locked.example/feed", "no", status: 401)
        for typed in ["https://down.example/feed", "https://locked.example/feed", "/tmp/local.xml", "ftp://x/y"] {
            let resolved = try await resolve(typed)
            XCTAssertEqual(resolved.text, typed)
            XCTAssertNil(resolved.feed)
        }
    }

    func testAKnownSubscriptionIsNotRead() async throws {
        let resolved = try await resolver.resolve(
            "https://show.example/feed.xml", currentDirectory: "/", limits: FeedLimits(), known: { _ in true })
        XCTAssertEqual(resolved.text, "https://show.example/feed.xml")
        XCTAssertTrue(fetcher.requests.isEmpty)
    }

    func testAnAppleLinkIsLookedUpAndItsFeedFollowed() async throws {
        let answer = String(decoding: Fixtures.data("directory/lookup-show.json"), as: UTF8.self)
            .replacingOccurrences(of: "FEED_URL", with: "https://feeds.example/loopback.xml")
        fetcher.answer("https://dir.example/lookup?id=1200361736&entity=podcast", answer)
        fetcher.answer("https://feeds.example/loopback.xml", rss)
        let link = "https://podcasts.apple.com/us/podcast/loopback-stories/id1200361736?i=1000650000000"
        let resolved = try await resolve(link)
        XCTAssertEqual(resolved.text, "https://feeds.example/loopback.xml")
        XCTAssertEqual(resolved.link, link)
        XCTAssertEqual(resolved.listed?.absoluteString, "https://feeds.example/loopback.xml")
        XCTAssertEqual(
            fetcher.requests.map { $0.url!.absoluteString },
            ["https://dir.example/lookup?id=1200361736&entity=podcast", "https://feeds.example/loopback.xml"])
    }

    func testAnAppleLinkTheDirectoryCannotResolveSaysWhy() async {
        let link = "https://podcasts.apple.com/us/podcast/x/id1500000001"
        let lookup = "https://dir.example/lookup?id=1500000001&entity=podcast"
        let cases: [(() -> Void, DirectoryError)] = [
            (
                { self.fetcher.answer(lookup, data: Fixtures.data("directory/lookup-empty.json")) },
                .noSuchShow(id: 1_500_000_001, link: link)
            ),
            (
                { self.fetcher.answer(lookup, data: Fixtures.data("directory/lookup-no-feed.json")) },
                .noFeed(title: "Subscribers' Hour", link: link)
            ),
            ({ self.fetcher.answer(lookup, "oops", status: 500) }, .httpStatus(url: lookup, status: 500)),
            ({ self.fetcher.answer(lookup, "<html>") }, .unreadableAnswer(url: lookup)),
            (
                { self.fetcher.answer(lookup, data: Data(count: Int(FeedResolver.maximumAnswer) + 1)) },
                .tooLarge(url: lookup, limit: FeedResolver.maximumAnswer)
            ),
            (
                { self.fetcher.fail(lookup, with: URLError(.cannotConnectToHost)) },
                .unreachable(url: lookup, reason: "connection refused")
            ),
        ]
        for (serve, expected) in cases {
            serve()
            do {
                _ = try await resolve(link)
                XCTFail("no error for \(expected)")
            } catch {
                XCTAssertEqual(error as? DirectoryError, expected)
                XCTAssertEqual(RunStatus(for: error), .feedFailed)
            }
        }
    }

    func testSearchReadsTheShowsUpToTheLimit() async throws {
        let url = directory.searchURL(term: "history", limit: 2).absoluteString
        fetcher.answer(url, data: Fixtures.data("directory/search-history.json"))
        let shows = try await resolver.search("history", limit: 2, limits: FeedLimits(timeout: 5))
        XCTAssertEqual(shows.map(\.title), ["A History of Loopback", "History Hour Weekly"])
        XCTAssertEqual(shows[1].author, "Public Radio History Desk")
        XCTAssertEqual(shows[1].feedURL?.absoluteString, "https://feeds.example.org/history-hour.rss")
    }

    func testAPageOfManyFeedLinksIsTriedOnlySoFar() async throws {
        let links = (0..<500).map { #"<link rel="alternate" type="application/rss+xml" href="/f\#($0).xml">"# }
        fetcher.answer("https://spam.example/", page(links.joined()))
        let resolved = try await resolve("https://spam.example/")
        XCTAssertEqual(resolved.text, "https://spam.example/f0.xml")
        XCTAssertEqual(fetcher.requests.count, 1 + FeedResolver.maximumCandidates)
        XCTAssertEqual(resolved.others.count, FeedResolver.maximumCandidates - 1)
    }
}
