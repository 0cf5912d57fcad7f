import Foundation
import TestSupport
import XCTest

// Shows that move and episodes that vanish, as a user meets them: a 301/308 or an announced new feed URL moves
// the subscription (folder, files and settings stay), a 302 changes nothing, a new URL that does not answer is
// reported; an episode the publisher deleted stays archived, marked as removed upstream.
@testable import ArchiverCore
@testable import podarchive

final class MovedAndRemovedTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }

    private func rss(_ titles: [String], newFeedURL: String? = nil) -> String {
        var xml = "<rss version=\"2.0\" xmlns:itunes=\"http://www.itunes.com/dtds/podcast-1.0.dtd\"><channel>"
        xml +=
            "<title>Moving Show</title>" + (newFeedURL.map { "<itunes:new-feed-url>\($0)</itunes:new-feed-url>" } ?? "")
        for title in titles {
            xml +=
                "<item><title>\(title)</title><guid>\(title)</guid>"
                + "<enclosure url=\"/media/\(title).mp3\" type=\"audio/mpeg\"/></item>"
            server.route("/media/\(title).mp3", .ok(Data("audio \(title)".utf8)))
        }
        return xml + "</channel></rss>"
    }

    private func feeds() async throws -> [[String: Any]] {
        output.clear()
        _ = await run("feeds", "--json", "--to", root)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["feeds"] as? [[String: Any]], output.text)
    }

    func test_permanentRedirect_movesTheSubscription_temporaryDoesNot() async throws {
        server.route("/old.xml", .ok(rss(["One"]), type: "application/rss+xml"))
        let old = server.url("/old.xml").absoluteString
        let temporary = server.url("/temporary.xml").absoluteString
        _ = await run("sync", old, "--to", root, "--limit", "5")
        // 301 to /temporary.xml, which answers 302 to /new.xml: moved as far as the permanent part goes.
        server.route("/new.xml", .ok(rss(["One", "Two"]), type: "application/rss+xml"))
        server.route("/temporary.xml", .redirect(to: "/new.xml", status: 302))
        server.route("/old.xml", .redirect(to: "/temporary.xml", status: 301))

        output.clear()
        let first = await run("sync", "--to", root)
        let firstLines = output.text
        let afterFirst = try await feeds()
        server.route("/temporary.xml", .ok(rss(["One", "Two"]), type: "application/rss+xml"))
        let second = await run("sync", "--to", root)
        let afterSecond = try await feeds()

        XCTAssertEqual(first, .success, errors.text)
        XCTAssertTrue(firstLines.contains("moved to <\(temporary)> (was <\(old)>)"), firstLines)
        XCTAssertEqual(afterFirst.map { $0["feed"] as? String }, [temporary], "the 302 changed nothing")
        XCTAssertEqual(afterFirst.first?["movedFrom"] as? String, old)
        XCTAssertEqual((afterFirst.first?["settings"] as? [String: Any])?["limit"] as? Int, 5, "settings stay")
        XCTAssertEqual(second, .success, errors.text)
        XCTAssertEqual(afterSecond.map { $0["folder"] as? String }, ["Moving Show"], "one show, in its folder")
        XCTAssertEqual(
            folder.files().filter { $0.hasSuffix(".mp3") },
            ["archive/Moving Show/One.mp3", "archive/Moving Show/Two.mp3"])
    }

    func test_newFeedURL_isFollowedOnlyWhenItAnswersWithAFeed() async throws {
        let new = server.url("/new.xml").absoluteString
        server.route("/old.xml", .ok(rss(["One"], newFeedURL: new), type: "application/rss+xml"))
        let old = server.url("/old.xml").absoluteString

        // The new URL does not answer yet: reported, nothing changes.
        let refused = await run("sync", old, "--to", root)
        let refusedLines = output.text
        server.route("/new.xml", .ok(rss(["One", "Two"]), type: "application/rss+xml"))
        output.clear()
        let moved = await run("sync", "--to", root)
        let movedLines = output.text
        let shows = try await feeds()

        XCTAssertEqual(refused, .success, errors.text)
        XCTAssertTrue(refusedLines.contains("the feed says it moved to <\(new)>, not followed"), refusedLines)
        XCTAssertTrue(refusedLines.contains("404"), refusedLines)
        XCTAssertEqual(moved, .success, errors.text)
        XCTAssertTrue(movedLines.contains("moved to <\(new)> (was <\(old)>)"), movedLines)
        XCTAssertEqual(shows.map { $0["feed"] as? String }, [new])
        XCTAssertEqual(shows.first?["folder"] as? String, "Moving Show")
        XCTAssertTrue(
            folder.files().contains("archive/Moving Show/Two.mp3"), "the new home is archived in the same run")
    }

    func test_newFeedURL_toAnotherShow_isNotFollowed_andSaidOnce() async throws {
        let other = try TestHTTPServer(address: "127.0.0.2")
        defer { other.stop() }
        // A compromised feed names someone else's show on another host: no podcast:guid, no episode in common.
        let hijack = other.url("/theirs.xml").absoluteString
        other.route(
            "/theirs.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Their Show</title><item><title>Ad</title><guid>ad-1</guid>"
                    + "<enclosure url=\"/ad.mp3\" type=\"audio/mpeg\"/></item></channel></rss>",
                type: "application/rss+xml"))
        server.route("/old.xml", .ok(rss(["One"], newFeedURL: hijack), type: "application/rss+xml"))
        let old = server.url("/old.xml").absoluteString

        let first = await run("sync", old, "--to", root)
        let firstLines = output.text + errors.text
        output.clear()
        errors.clear()
        let second = await run("sync", "--to", root)
        let secondLines = output.text + errors.text
        let shows = try await feeds()

        XCTAssertEqual(first, .success, firstLines)
        XCTAssertTrue(firstLines.contains(hijack) && firstLines.contains(old), "names both URLs: \(firstLines)")
        XCTAssertEqual(second, .success, secondLines)
        XCTAssertFalse(secondLines.contains(hijack), "said once, not every night: \(secondLines)")
        XCTAssertEqual(shows.map { $0["feed"] as? String }, [old], "the subscription stays")
        XCTAssertFalse(other.requests.contains { $0.path == "/ad.mp3" }, "nothing of theirs archived")
        XCTAssertEqual(folder.files().filter { $0.hasSuffix(".mp3") }, ["archive/Moving Show/One.mp3"])
    }

    func test_episodeDeletedUpstream_staysArchived_markedAsRemoved() async throws {
        server.route("/show.xml", .ok(rss(["One", "Two"]), type: "application/rss+xml"))
        let feed = server.url("/show.xml").absoluteString
        _ = await run("sync", feed, "--to", root)
        server.route("/show.xml", .ok(rss(["Two", "Three"]), type: "application/rss+xml"))

        _ = await run("sync", "--to", root)
        let shows = try await feeds()
        output.clear()
        let listed = await run("list", "--archived", "Moving Show", "--to", root)

        XCTAssertEqual(
            folder.files().filter { $0.hasSuffix(".mp3") },
            ["archive/Moving Show/One.mp3", "archive/Moving Show/Three.mp3", "archive/Moving Show/Two.mp3"],
            "nothing is deleted")
        XCTAssertEqual(shows.first?["removedUpstream"] as? Int, 1)
        XCTAssertEqual(listed, .success, errors.text)
        XCTAssertEqual(output.lines.first, "Moving Show: 3 archived episodes, 1 removed upstream")
        let one = try XCTUnwrap(output.lines.first { $0.contains("One") })
        XCTAssertTrue(
            one.contains("[One.mp3]  removed upstream (not in the feed since 1970-01-01; last seen 1970-01-01)"), one)
        XCTAssertFalse(try XCTUnwrap(output.lines.first { $0.contains("Two") }).contains("removed"))
    }
}
