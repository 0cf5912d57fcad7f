import Foundation
import TestSupport
import XCTest

// What an archive keeps of the show itself (its author, for the library's artist; its cover), through the command
// line against a loopback feed behind an ETag that never changes. An archive of an earlier version kept neither,
// and its feed answers 304 every night, so it is never read again: one 304 sync takes them from the document the
// history keeps as current, once. A second 304 night asks for nothing but the feed and writes nothing; a cover that
// fails is said once, costs the run nothing, and is not asked for again each night.
@testable import ArchiverCore
@testable import podarchive

final class ShowFromHistoryTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var show: URL { root.appendingPathComponent("Night Show") }
    private var library: URL { folder.url.appendingPathComponent("library") }
    private var feed: String { server.url("/feed.xml").absoluteString }
    private static let jpeg = Data(
        [0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10] + Array("JFIF".utf8) + [UInt8](repeating: 7, count: 64))

    /// One episode (`episode` bytes, an MP3 unless told) of "Night Show" by "Ada Lovelace", its artwork at the
    /// relative `art` (`/art.jpg`), behind the ETag `"same"`.
    private func serveFeed(episode: Data = Data("audio one".utf8), art: String = "/art.jpg") {
        let body = Data(
            """
            <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel>
            <title>Night Show</title><itunes:author>Ada Lovelace</itunes:author><itunes:image href="\(art)"/>
            <item><title>Pilot</title><guid>p-1</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
            <enclosure url="/pilot.mp3" type="audio/mpeg"/></item></channel></rss>
            """.utf8)
        server.route("/feed.xml") { request, _ in
            if request.headers["if-none-match"] == "\"same\"" { return TestResponse(status: 304) }
            return TestResponse(headers: [("ETag", "\"same\""), ("Content-Type", "application/rss+xml")], body: body)
        }
        server.route("/pilot.mp3", .ok(episode))
        server.route("/art.jpg", .ok(Self.jpeg, type: "image/jpeg"))
    }

    private func sync() async -> ExitCode {
        output.clear()
        errors.clear()
        return await run("sync", "--to", root.path)
    }

    /// How many times `path` was asked for.
    private func asked(_ path: String) -> Int { server.requestedPaths.filter { $0 == path }.count }

    /// The show's state file `name`: its bytes and its inode (a file written again is a new one).
    private func state(_ name: String) throws -> (Data, Int?) {
        let url = show.appendingPathComponent(".podarchive/" + name)
        let inode = try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int
        return (try Data(contentsOf: url), inode)
    }

    /// The archive as an earlier version left it: its index without the show's author, its feed's validators
    /// without the mark that the show was read, its folder without a cover unless `keepingCover`.
    private func makeOld(keepingCover: Bool = false) throws {
        let url = show.appendingPathComponent(".podarchive/index.json")
        var index = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        XCTAssertEqual(index.removeValue(forKey: "author") as? String, "Ada Lovelace", "a sync keeps the author")
        try JSONSerialization.data(withJSONObject: index).write(to: url)
        let validatorsURL = show.appendingPathComponent(".podarchive/feed.json")
        var validators = try XCTUnwrap(
            try JSONSerialization.jsonObject(with: Data(contentsOf: validatorsURL)) as? [String: Any])
        XCTAssertEqual(validators.removeValue(forKey: "showRead") as? Bool, true, "a sync that reads the feed marks it")
        try JSONSerialization.data(withJSONObject: validators).write(to: validatorsURL)
        if !keepingCover { try FileManager.default.removeItem(at: show.appendingPathComponent("cover.jpg")) }
    }

    func test_anOldArchive_exportsTheShowAsArtist_aSyncAnswered304TakesTheAuthor_andTheLibraryIsRetagged()
        async throws
    {
        try TagTools.require()
        let mp3 = try TagTools.tone(
            folder.url.appendingPathComponent("tone.mp3"), seconds: 2, ["-c:a", "libmp3lame", "-b:a", "32k"])
        serveFeed(episode: mp3)
        let first = await run("sync", feed, "--to", root.path)
        XCTAssertEqual(first, .success, errors.text)
        try makeOld(keepingCover: true)  // the author alone changes the tags
        let copy = library.appendingPathComponent("Night Show/2025-01-06 Pilot.mp3")

        let oldExport = await run("export", "--library", library.path, root.path)
        let old = try TagTools.mutagen(copy)
        let night = await sync()
        let (index, indexInode) = try state("index.json")
        output.clear()
        let export = await run("export", "--library", library.path, root.path)
        let exported = output.text
        let retagged = try TagTools.mutagen(copy)
        let secondNight = await sync()

        XCTAssertEqual([oldExport, night, export, secondNight], [.success, .success, .success, .success], errors.text)
        XCTAssertEqual(old.artist, "Night Show", "no author kept: the show stands for it")
        XCTAssertEqual(old.albumArtist, "Night Show")
        XCTAssertEqual(
            server.requests.filter { $0.path == "/feed.xml" }.map { $0.headers["if-none-match"] != nil },
            [false, true, true], "every night after the first answered 304")
        XCTAssertTrue(
            String(decoding: index, as: UTF8.self).contains("\"author\": \"Ada Lovelace\""),
            String(decoding: index, as: UTF8.self))
        XCTAssertTrue(exported.contains("1 episode tagged, 0 copied untagged"), exported)
        XCTAssertEqual(retagged.artist, "Ada Lovelace")
        XCTAssertEqual(retagged.album, "Night Show")
        XCTAssertEqual(retagged.albumArtist, "Night Show")
        let (indexAfter, inodeAfter) = try state("index.json")
        XCTAssertEqual(indexAfter, index)
        XCTAssertEqual(inodeAfter, indexInode, "an unchanged author is not written again")
    }

    func test_anArchiveWithoutItsCover_whoseFeedAnswers304_getsItOnce_andTheNextNightAsksOnlyForTheFeed()
        async throws
    {
        serveFeed()
        let first = await run("sync", feed, "--to", root.path)
        XCTAssertEqual(first, .success, errors.text)
        XCTAssertEqual(asked("/art.jpg"), 1)
        try makeOld()

        let night = await sync()
        let nightErrors = errors.text
        let (validators, validatorsInode) = try state("feed.json")
        let secondNight = await sync()

        XCTAssertEqual(night, .success, nightErrors)
        XCTAssertEqual(nightErrors, "")
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("cover.jpg")), Self.jpeg)
        XCTAssertEqual(asked("/art.jpg"), 2, "fetched once more, from the document the history keeps")
        XCTAssertEqual(secondNight, .success, errors.text)
        XCTAssertEqual(errors.text, "")
        XCTAssertEqual(server.requestedPaths.suffix(1), ["/feed.xml"], "the second night asks only for the feed")
        XCTAssertEqual(asked("/art.jpg"), 2)
        XCTAssertEqual(try state("feed.json").0, validators)
        XCTAssertEqual(try state("feed.json").1, validatorsInode, "nothing written the second night")
    }

    func test_aCoverThatFails_behindA304_isSaidOnce_theRunSucceeds_andIsNotAskedForEachNight() async throws {
        serveFeed()
        let first = await run("sync", feed, "--to", root.path)
        XCTAssertEqual(first, .success, errors.text)
        try makeOld()
        server.route("/art.jpg", .status(404))

        let night = await sync()
        let nightErrors = errors.lines
        let secondNight = await sync()

        XCTAssertEqual(night, .success, "the episodes are all archived: \(nightErrors)")
        XCTAssertEqual(
            nightErrors,
            [
                "podarchive: artwork \(server.url("/art.jpg").absoluteString): server answered HTTP 404; "
                    + "tried again when the feed changes"
            ])
        XCTAssertEqual(secondNight, .success, errors.text)
        XCTAssertEqual(errors.text, "", "said once")
        XCTAssertEqual(asked("/art.jpg"), 2, "once by the first sync, once from the history; not each night")
        XCTAssertEqual(
            server.requests.filter { $0.path == "/feed.xml" }.map { $0.headers["if-none-match"] != nil },
            [false, true, true], "a failed cover is no reason to read the feed in full each night")
    }

    func test_aPrivateShowsCover_whoseURLTheHistoryRedacted_isFetchedByTheNextSync_whichReadsTheFeedInFull()
        async throws
    {
        serveFeed(art: "/art.jpg?v=7")
        let first = await run("sync", feed + "?token=s3cret-value", "--to", root.path)
        XCTAssertEqual(first, .success, errors.text)
        try makeOld()

        let night = await sync()
        let coverAfterNight = FileManager.default.fileExists(atPath: show.appendingPathComponent("cover.jpg").path)
        let (index, _) = try state("index.json")
        let secondNight = await sync()

        XCTAssertEqual([night, secondNight], [.success, .success], errors.text)
        XCTAssertFalse(coverAfterNight, "its URL as the history keeps it is no URL to fetch")
        XCTAssertTrue(String(decoding: index, as: UTF8.self).contains("\"author\": \"Ada Lovelace\""))
        XCTAssertEqual(try Data(contentsOf: show.appendingPathComponent("cover.jpg")), Self.jpeg)
        XCTAssertEqual(
            server.requests.filter { $0.path.hasPrefix("/feed.xml") }.map { $0.headers["if-none-match"] != nil },
            [false, true, false], "the night after the 304 reads the feed in full, for the cover")
        XCTAssertEqual(
            server.requests.filter { $0.path.hasPrefix("/art.jpg") }.map(\.path), ["/art.jpg?v=7", "/art.jpg?v=7"],
            "never a redacted URL")
    }
}
