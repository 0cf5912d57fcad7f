import Foundation
import TestSupport
import XCTest

// One show, one subscription, however its URL is spelt or wherever it is fetched from, end to end on loopback:
// spellings of one address, a rotated token, a mirror that says it is the same show, a feed that only claims
// to be, and two records an earlier version made for one folder.
@testable import ArchiverCore
@testable import podarchive

final class IdentityTests: CommandLineTestCase {
    private var root: String { folder.url.appendingPathComponent("archive").path }

    private func rss(
        title: String = "Same Show", guid: String? = "f0e2a1b3-0000-4000-8000-000000000001",
        episodes: [String] = ["One", "Two"]
    ) -> String {
        var xml = "<rss version=\"2.0\" xmlns:podcast=\"https://podcastindex.org/namespace/1.0\"><channel>"
        xml += "<title>\(title)</title>" + (guid.map { "<podcast:guid>\($0)</podcast:guid>" } ?? "")
        for episode in episodes {
            xml +=
                "<item><title>\(episode)</title><guid>\(episode)</guid>"
                + "<enclosure url=\"/media/\(episode).mp3\" type=\"audio/mpeg\"/></item>"
        }
        return xml + "</channel></rss>"
    }

    private func serve(_ server: TestHTTPServer, _ path: String, _ xml: String) {
        server.route(path, .ok(xml, type: "application/rss+xml"))
        for episode in ["One", "Two", "Ad"] {
            server.route("/media/\(episode).mp3", .ok(Data("audio \(episode)".utf8)))
        }
    }

    private func feeds() async throws -> [[String: Any]] {
        output.clear()
        _ = await run("feeds", "--json", "--to", root)
        let object = try JSONSerialization.jsonObject(with: Data(output.text.utf8)) as? [String: Any]
        return try XCTUnwrap(object?["feeds"] as? [[String: Any]], output.text)
    }

    private func mediaRequests(_ server: TestHTTPServer) -> Int {
        server.requests.filter { $0.path.hasPrefix("/media/") }.count
    }

    func test_spellingsOfOneAddress_areOneSubscription_andNothingIsFetchedTwice() async throws {
        serve(server, "/feed.xml", rss())
        let port = server.url("/").port!
        let spellings = [
            "HTTP://127.0.0.1:\(port)/./feed.xml?utm_source=newsletter#latest", "http://127.0.0.1:\(port)/feed.xml?",
            "http://127.0.0.1:\(port)/a/../feed.xml",
        ]

        var codes: [ExitCode] = []
        for spelling in spellings { codes.append(await run("sync", spelling, "--to", root)) }
        codes.append(await run("sync", "--to", root))

        XCTAssertEqual(codes, [.success, .success, .success, .success], errors.text)
        let shows = try await feeds()
        XCTAssertEqual(shows.map { $0["feed"] as? String }, ["http://127.0.0.1:\(port)/feed.xml"])
        XCTAssertEqual(mediaRequests(server), 2, "each episode once")
    }

    func test_aRotatedToken_replacesTheSavedOne_inOneLine_andKeepsTheShow() async throws {
        serve(server, "/private.xml", rss())
        let old = server.url("/private.xml").absoluteString + "?token=OLDTOKEN"
        let new = server.url("/private.xml").absoluteString + "?token=NEWTOKEN"
        let first = await run("sync", old, "--to", root, "--limit", "5")
        output.clear()

        let added = await run("add", new, "--to", root)
        let addLines = output.text
        let synced = await run("sync", "--to", root)

        XCTAssertEqual(first, .success, errors.text)
        XCTAssertEqual(added, .success, errors.text)
        XCTAssertEqual(synced, .success, errors.text)
        XCTAssertTrue(
            addLines.contains(
                "the same show as <\(server.url("/private.xml").absoluteString)?token=REDACTED>: its subscription now "
                    + "uses <\(server.url("/private.xml").absoluteString)?token=REDACTED>"), addLines)
        let shows = try await feeds()
        XCTAssertEqual(shows.count, 1, "\(shows)")
        XCTAssertEqual((shows.first?["settings"] as? [String: Any])?["limit"] as? Int, 5, "its settings stay")
        XCTAssertEqual(server.requests.last { $0.path.hasPrefix("/private.xml") }?.path, "/private.xml?token=NEWTOKEN")
        XCTAssertEqual(mediaRequests(server), 2, "nothing downloaded twice")
    }

    func test_aMirrorSayingItIsTheSameShow_takesOverItsSubscription_butAFeedThatOnlyClaimsItDoesNot() async throws {
        let mirror = try TestHTTPServer(address: "127.0.0.2")
        defer { mirror.stop() }
        serve(server, "/feed.xml", rss())
        serve(mirror, "/mirror.xml", rss())
        _ = await run("sync", server.url("/feed.xml").absoluteString, "--to", root)
        output.clear()

        let moved = await run("sync", mirror.url("/mirror.xml").absoluteString, "--to", root)
        let movedLines = output.text
        // Someone else's feed that copies the podcast:guid, with another title and no episode in common.
        serve(mirror, "/claims.xml", rss(title: "Impostor", episodes: ["Ad"]))
        let claimed = await run("sync", mirror.url("/claims.xml").absoluteString, "--to", root)
        let shows = try await feeds()

        XCTAssertEqual(moved, .success, errors.text)
        let (old, new) = (server.url("/feed.xml").absoluteString, mirror.url("/mirror.xml").absoluteString)
        XCTAssertTrue(
            movedLines.contains(
                "the same show as <\(old)>: its subscription now uses <\(new)>, and <\(old)> is no longer fetched (to "
                    + "keep both, each in a folder of its own: podarchive add \(new) --separate)\n"), movedLines)
        XCTAssertEqual(mirror.requests.filter { $0.path.hasPrefix("/media/One") }.count, 0, "nothing twice")
        XCTAssertEqual(claimed, .success, errors.text)
        XCTAssertEqual(
            Set(shows.map { $0["feed"] as? String }),
            [mirror.url("/mirror.xml").absoluteString, mirror.url("/claims.xml").absoluteString])
        XCTAssertEqual(Set(shows.map { $0["folder"] as? String }), ["Same Show", "Impostor"])
    }

    func test_twoRecordsOfOneFolder_fromAnEarlierVersion_areMerged_andTheRunNeverLocksItself() async throws {
        serve(server, "/feed.xml", rss(guid: nil))
        let url = server.url("/feed.xml").absoluteString
        _ = await run("sync", url, "--to", root)
        // As an earlier version left it: a second record for the same folder, under another spelling.
        let records = folder.url.appendingPathComponent("archive/.podarchive/feeds")
        try Data(
            #"{"feed": "\#(url.uppercased().replacingOccurrences(of: "/FEED.XML", with: "/feed.xml"))#x", "folder": "Same Show", "added": "2020-01-01T00:00:00Z"}"#
                .utf8
        )
        .write(to: records.appendingPathComponent("0123456789abcdef.json"))
        output.clear()

        let code = await run("sync", "--to", root)
        let lines = output.text
        let again = await run("sync", "--to", root)
        let shows = try await feeds()

        XCTAssertEqual(code, .success, errors.text + lines)
        XCTAssertTrue(lines.contains("are one show, in Same Show/"), lines)
        XCTAssertEqual(again, .success, errors.text)
        XCTAssertEqual(shows.count, 1, "\(shows)")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: records.path).count, 1)
    }

    // Two URLs of one show before its first sync: the same title, episode GUIDs in common, no podcast:guid or self
    // link to say so (a mirror, a members or ad-free variant).

    func test_twoURLsOfOneShow_addedBeforeAnySync_areOneSubscriptionAndOneFolder_theNewerWinning() async throws {
        serve(server, "/a.xml", rss(guid: nil))
        serve(server, "/b.xml", rss(guid: nil))
        let (a, b) = (server.url("/a.xml").absoluteString, server.url("/b.xml").absoluteString)

        let first = await run("add", a, "--to", root)
        output.clear()
        let second = await run("add", b, "--to", root)
        let secondLines = output.text
        let askedBeforeSync = server.requests.filter { $0.path == "/a.xml" }.count
        let synced = await run("sync", "--to", root)
        let shows = try await feeds()

        XCTAssertEqual([first, second, synced], [.success, .success, .success], errors.text)
        XCTAssertEqual(
            secondLines,
            "the same show as <\(a)>: its subscription now uses <\(b)>, and <\(a)> is no longer fetched (to keep "
                + "both, each in a folder of its own: podarchive add \(b) --separate)\nsubscribed \(b) into Same Show/\n"
        )
        XCTAssertEqual(shows.map { $0["feed"] as? String }, [b], "one subscription, the newer URL's")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }, ["Same Show"])
        XCTAssertEqual(mediaRequests(server), 2, "each episode downloaded once")
        XCTAssertEqual(server.requests.filter { $0.path == "/a.xml" }.count, askedBeforeSync, "a is no longer fetched")

        // What the line says keeps both: the folder stays with the feed it was made for.
        output.clear()
        let kept = await run("add", b, "--separate", "--to", root)
        let keptLines = output.text
        let both = try await feeds()

        XCTAssertEqual(kept, .success, errors.text)
        XCTAssertEqual(
            keptLines,
            "both kept, each in a folder of its own: <\(a)> in Same Show/, where its files are, and <\(b)> in Same "
                + "Show (2)/, kept apart (its next sync fetches its episodes there)\nsubscribed \(b) into Same Show (2)/\n"
        )
        XCTAssertEqual(
            Set(both.map { [$0["feed"] as? String, $0["folder"] as? String] }),
            [[a, "Same Show"], [b, "Same Show (2)"]])
    }

    func test_aVariantAddedWithSeparate_isKeptApart_andNoLaterSyncRepointsIt() async throws {
        serve(server, "/feed.xml", rss(guid: nil))
        serve(server, "/members.xml", rss(guid: nil))
        let (main, members) = (server.url("/feed.xml").absoluteString, server.url("/members.xml").absoluteString)
        _ = await run("sync", main, "--to", root)
        output.clear()

        let added = await run("add", members, "--separate", "--to", root)
        let addLines = output.text
        let synced = await run("sync", "--to", root)
        let again = await run("sync", members, "--to", root)
        let mainAgain = await run("sync", main, "--to", root)
        let shows = try await feeds()

        XCTAssertEqual([added, synced, again, mainAgain], [.success, .success, .success, .success], errors.text)
        XCTAssertEqual(addLines, "subscribed \(members) into Same Show (2)/\n")
        XCTAssertEqual(
            shows.map { [$0["feed"] as? String, $0["folder"] as? String] },
            [[main, "Same Show"], [members, "Same Show (2)"]])
        XCTAssertEqual(shows.map { $0["separate"] as? Bool }, [false, true])
        XCTAssertEqual(mediaRequests(server), 4, "each feed's episodes in its own folder")
        XCTAssertTrue(FileManager.default.fileExists(atPath: root + "/Same Show (2)/One.mp3"))
        // The kept-apart show's index is written in a version an older podarchive refuses (exit 5, "newer than this
        // podarchive understands") rather than let the other URL take its folder over; the other show's is not.
        let versions = try ["Same Show", "Same Show (2)"].map { folder -> (Int?, Bool?) in
            let data = try Data(contentsOf: URL(fileURLWithPath: root + "/\(folder)/.podarchive/index.json"))
            let index = try XCTUnwrap(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            return (index["version"] as? Int, index["keptApart"] as? Bool)
        }
        XCTAssertEqual(versions.map(\.0), [2, 4])
        XCTAssertEqual(versions.map(\.1), [nil, true])
        XCTAssertTrue(
            try IndexFormat.decode(
                Data(contentsOf: URL(fileURLWithPath: root + "/Same Show (2)/.podarchive/index.json"))
            ).keptApart)
    }
}
