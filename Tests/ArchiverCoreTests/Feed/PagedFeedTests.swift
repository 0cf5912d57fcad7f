import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// Feeds whose back catalogue is on further pages or in RFC 5005 archive documents, served on loopback from
// Fixtures/feeds/pages: every page on a first sync, the new ones later, archives once, cycles and bad links
// reported while the rest of the sync goes on.
@testable import ArchiverCore

final class PagedFeedTests: LoopbackArchiveTestCase {
    /// Serves the fixtures `names` at /pages/<name>, and a small body for every media file they name.
    private func servePages(_ names: [String]) {
        for name in names {
            server.route("/pages/\(name)", .ok(Fixtures.data("feeds/pages/\(name)"), type: "application/xml"))
        }
        for media in ["1", "2", "3", "4", "5", "6", "a1", "a2", "a3", "j1", "j2", "c1", "c2", "b1"] {
            server.route("/pages/media/\(media).mp3", .ok(Data("audio \(media)".utf8)))
        }
    }

    private func syncPages(_ first: String) async throws -> SyncReport {
        try await archiver().sync(.remote(server.url("/pages/\(first)")), into: folder.url)
    }

    private func requested(_ prefix: String) -> [String] {
        server.requestedPaths.filter { $0.hasPrefix(prefix) }
    }

    func test_pagedRSS_firstSyncWalksEveryPage_episodesOnTwoPagesAreOne() async throws {
        servePages(["paged-1.xml", "paged-2.xml", "paged-3.xml"])

        let report = try await syncPages("paged-1.xml")

        XCTAssertEqual(report.pages, 3)
        XCTAssertNil(report.pageProblem)
        XCTAssertEqual(
            report.archived.map(\.lastPathComponent), ["Five.mp3", "Four.mp3", "Three.mp3", "Two.mp3", "One.mp3"])
        XCTAssertEqual(requested("/pages/media/4.mp3").count, 1, "Four, on two pages, is one episode")
    }

    func test_pagedRSS_laterSyncWalksUntilAPageBringsNothingNew() async throws {
        servePages(["paged-1.xml", "paged-2.xml", "paged-3.xml"])
        _ = try await syncPages("paged-1.xml")
        // A new episode on page 1; pages 2 and 3 are as they were.
        let page1 = String(decoding: Fixtures.data("feeds/pages/paged-1.xml"), as: UTF8.self).replacingOccurrences(
            of: "<item><title>Five</title>",
            with: "<item><title>Six</title><guid>p6</guid><enclosure url=\"media/6.mp3\" type=\"audio/mpeg\"/></item>"
                + "<item><title>Five</title>")
        server.route("/pages/paged-1.xml", .ok(page1, type: "application/xml"))
        let before = server.requestedPaths.count

        let report = try await syncPages("paged-1.xml")

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Six.mp3"])
        XCTAssertEqual(
            Array(server.requestedPaths.dropFirst(before)),
            ["/pages/paged-1.xml", "/pages/paged-2.xml", "/pages/media/6.mp3"],
            "page 2 brought nothing new: page 3 is not fetched")
    }

    func test_archivedFeed_readsEveryArchiveOnce() async throws {
        servePages(["archived-current.xml", "archived-2024.xml", "archived-2023.xml"])

        let first = try await syncPages("archived-current.xml")
        // The current document changes; the archives never do, and are not fetched again.
        let current = String(decoding: Fixtures.data("feeds/pages/archived-current.xml"), as: UTF8.self)
            .replacingOccurrences(of: "<id>a3</id>", with: "<id>a3-renumbered</id>")
        server.route("/pages/archived-current.xml", .ok(current, type: "application/xml"))
        let before = server.requestedPaths.count
        let second = try await syncPages("archived-current.xml")

        XCTAssertEqual(first.pages, 3)
        XCTAssertEqual(
            first.archived.map(\.lastPathComponent), ["Current.mp3", "Last year.mp3", "The first year.mp3"])
        XCTAssertEqual(
            Array(server.requestedPaths.dropFirst(before)).filter { $0.hasSuffix(".xml") },
            ["/pages/archived-current.xml"], "each archive document is read once")
        XCTAssertEqual(second.alreadyArchived, 1)
    }

    func test_jsonFeedNextURL_isFollowed() async throws {
        servePages(["paged-1.json", "paged-2.json"])

        let report = try await syncPages("paged-1.json")

        XCTAssertEqual(report.pages, 2)
        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Newer.mp3", "Older.mp3"])
    }

    func test_cycle_isReported_andTheSyncGoesOn() async throws {
        servePages(["cycle-1.xml", "cycle-2.xml"])
        let events = EventLog()

        let report = try await archiver().sync(
            .remote(server.url("/pages/cycle-1.xml")), into: folder.url, onEvent: events.append)

        XCTAssertEqual(report.archived.map(\.lastPathComponent), ["Top.mp3", "Bottom.mp3"])
        XCTAssertNil(report.pageProblem, "a cycle is no failure")
        let cycles = events.all.compactMap { event -> String? in
            if case .pageCycle(let url) = event { return url }
            return nil
        }
        XCTAssertEqual(cycles, [server.url("/pages/cycle-1.xml").absoluteString])
    }

    func test_badNextLinks_areReported_theFirstPageIsArchived_andTheNextRunWalksAgain() async throws {
        servePages(["bad-next.xml", "paged-1.xml"])
        // A next link that is no feed at all, on the feed's own host.
        let notAFeed = String(decoding: Fixtures.data("feeds/pages/paged-1.xml"), as: UTF8.self)
            .replacingOccurrences(of: "paged-2.xml", with: "not-a-feed.html")
        server.route("/pages/not-a-feed-first.xml", .ok(notAFeed, type: "application/xml"))
        server.route("/pages/not-a-feed.html", .ok("<html><body>Oops</body></html>", type: "text/html"))

        let events = EventLog()
        let ftp = try await archiver().sync(
            .remote(server.url("/pages/bad-next.xml")), into: folder.url, onEvent: events.append)
        let ftpAgain = EventLog()
        let ftpSecond = try await archiver().sync(
            .remote(server.url("/pages/bad-next.xml")), into: folder.url, onEvent: ftpAgain.append)
        let html = try await syncPages("not-a-feed-first.xml")
        let again = server.requestedPaths.count
        _ = try await syncPages("not-a-feed-first.xml")

        XCTAssertEqual(ftp.archived.map(\.lastPathComponent), ["Only.mp3"])
        // A link that is not http(s) is the publisher's mistake every night: a warning once, never a failure.
        XCTAssertNil(ftp.pageProblem)
        XCTAssertNil(ftpSecond.pageProblem)
        XCTAssertEqual(
            events.all.filter { $0 == .pageRefused(url: "ftp://127.0.0.1/older.xml") }.count, 1, "said once")
        XCTAssertFalse(ftpAgain.all.contains(.pageRefused(url: "ftp://127.0.0.1/older.xml")), "not every night")
        XCTAssertEqual(html.archived.map(\.lastPathComponent), ["Five.mp3", "Four.mp3"])
        XCTAssertEqual(html.pageProblem?.url, server.url("/pages/not-a-feed.html").absoluteString)
        XCTAssertTrue(
            server.requestedPaths.dropFirst(again).contains("/pages/not-a-feed.html"),
            "the page is looked for again next run")
    }

    func test_list_showsEveryPage_orTheFirstOnly() async throws {
        servePages(["paged-1.xml", "paged-2.xml", "paged-3.xml"])

        let all = try await archiver().list(.remote(server.url("/pages/paged-1.xml")), allPages: true)
        let first = try await archiver().list(.remote(server.url("/pages/paged-1.xml")))

        XCTAssertEqual(all.episodes.map(\.title), ["Five", "Four", "Three", "Two", "One"])
        XCTAssertEqual(first.episodes.map(\.title), ["Five", "Four"])
    }

    func test_aChainLongerThanOneWalk_isReadOnAcrossRuns_andNoArchiveIsFetchedTwice() async throws {
        // A current document and four archive documents, each linking to the one before; a walk fetches 3.
        func document(_ number: Int) -> String {
            let previous = number > 1 ? "<atom:link rel=\"prev-archive\" href=\"/chain/\(number - 1).xml\"/>" : ""
            return """
                <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom"><channel><title>Chain</title>\(previous)
                <item><title>E\(number)</title><guid>e\(number)</guid><enclosure url="/chain/e\(number).mp3"
                 type="audio/mpeg"/></item></channel></rss>
                """
        }
        for number in 1...5 {
            server.route("/chain/\(number).xml", .ok(document(number), type: "application/xml"))
            server.route("/chain/e\(number).mp3", .ok(Data("audio \(number)".utf8)))
        }
        var options = SyncOptions()
        options.maximumPages = 3
        func sync() async throws -> SyncReport {
            try await archiver().sync(.remote(server.url("/chain/5.xml")), into: folder.url, options: options)
        }

        let first = try await sync()
        let second = try await sync()
        let before = server.requestedPaths.count
        let third = try await sync()

        XCTAssertEqual(first.archived.count, 3)
        XCTAssertNotNil(first.pageProblem, "more pages than one walk reads: said, and read on next run")
        XCTAssertEqual(second.archived.count, 2, "the rest of the chain")
        XCTAssertNil(second.pageProblem)
        XCTAssertEqual(
            requested("/chain/").filter { $0.hasSuffix(".xml") && $0 != "/chain/5.xml" }.sorted(),
            ["/chain/1.xml", "/chain/2.xml", "/chain/3.xml", "/chain/4.xml"],
            "each archive document fetched once")
        XCTAssertNil(third.pageProblem)
        XCTAssertEqual(
            Array(server.requestedPaths.dropFirst(before)), ["/chain/5.xml"], "then only the current document")
    }
}
