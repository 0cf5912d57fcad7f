import Foundation
import TestSupport
import XCTest

// Alternate enclosures as the Podcasting 2.0 namespace defines them, through the command line against a loopback
// server, with the spec's own examples: a source that delivers something else (a torrent, an HLS or DASH
// playlist) is never archived as the episode, a `rel` alternate is other content and never replaces it, the URL
// recorded is the one that served the bytes (index and WARC), and `sync -n` chooses as `sync` does.
@testable import ArchiverCore
@testable import podarchive

final class AlternateEnclosureSyncTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var feed: String { server.url("/feed.xml").absoluteString }
    private let mp3 = Data("ID3 the episode as mp3".utf8)
    private let mp4 = Data("....ftypisom the episode as video".utf8)
    private let opus = Data("OggS the episode as opus".utf8)

    /// Serves a one-item feed titled "Spec" whose item is "Ep", with `alternates` (XML) beside the enclosure.
    private func serve(enclosure: String = "/ep.mp3", type: String = "audio/mpeg", _ alternates: String) {
        let xml = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Spec</title>
            <item><title>Ep</title><guid>ep</guid><enclosure url="\(enclosure)" type="\(type)"/>
            \(alternates)
            </item></channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/ep.mp3", .ok(mp3))
        server.route("/ep.mp4", .ok(mp4, type: "video/mp4"))
        server.route("/file-0.torrent", .ok(Data(repeating: 0x64, count: 90), type: "application/x-bittorrent"))
        server.route(
            "/master.m3u8", .ok("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n", type: "application/x-mpegURL"))
        server.route("/master.mpd", .ok("<MPD/>", type: "application/dash+xml"))
        server.route("/file-0.mp3", .ok(mp3))
        server.route("/bts.mp4", .ok(Data("behind the scenes".utf8), type: "video/mp4"))
        server.route("/gone.opus", .status(404, "no"))
        server.route("/e.opus", .ok(opus, type: "audio/opus"))
    }

    private func sync(_ arguments: String...) async -> (ExitCode, String) {
        output.clear()
        let code = await run(["sync", feed] + arguments + ["--to", root.path])
        return (code, output.text)
    }

    private func index() throws -> ArchiveIndex {
        try IndexFormat.decode(Data(contentsOf: ArchiveLayout.indexFile(of: root.appendingPathComponent("Spec"))))
    }

    private func requested(_ path: String) -> Int { server.requests.count { $0.path == path } }

    private func file(_ name: String) -> Data? {
        FileManager.default.contents(atPath: root.appendingPathComponent("Spec/\(name)").path)
    }

    func test_aTorrentSource_isNeverArchivedAsTheEpisode_theNextSourceIs() async throws {
        serve(
            enclosure: "/ep.mp4", type: "video/mp4",
            """
            <podcast:alternateEnclosure type="audio/mpeg" bitrate="160707.74">
            <podcast:source uri="ipfs://QmdwGqd3d2gFPGeJNLLCshdiPert45fMu84552Y4XHTy4y" />
            <podcast:source uri="\(server.url("/file-0.torrent"))" contentType="application/x-bittorrent" />
            <podcast:source uri="\(server.url("/file-0.mp3"))" />
            </podcast:alternateEnclosure>
            """)

        let (code, lines) = await sync("--prefer", "audio/mpeg", "--verbose")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(file("Ep.mp3"), mp3, lines)
        XCTAssertEqual(requested("/file-0.torrent"), 0, "a torrent is not the file")
        XCTAssertEqual(try index().episodes.first?.url, server.url("/file-0.mp3").absoluteString)
        XCTAssertTrue(lines.contains("file-0.torrent"), "the torrent is said not fetched: \(lines)")
    }

    func test_aPlaylist_HLSOrDASH_isNeverArchivedAsTheEpisode() async throws {
        serve(
            """
            <podcast:alternateEnclosure type="video/mp4" height="1080">
            <podcast:source uri="\(server.url("/master.m3u8"))" contentType="application/vnd.apple.mpegurl" />
            </podcast:alternateEnclosure>
            <podcast:alternateEnclosure type="application/x-mpegURL" codecs="avc1.64001f,mp4a.40.2">
            <podcast:source uri="\(server.url("/master.m3u8"))" />
            </podcast:alternateEnclosure>
            <podcast:alternateEnclosure type="application/dash+xml" codecs="avc1.64001f">
            <podcast:source uri="\(server.url("/master.mpd"))" />
            </podcast:alternateEnclosure>
            """)

        let (code, lines) = await sync("--prefer", "video/mp4,avc1,application/dash+xml")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(file("Ep.mp3"), mp3, "the enclosure is archived: \(lines)")
        XCTAssertEqual(requested("/master.m3u8") + requested("/master.mpd"), 0)
        XCTAssertEqual(try index().episodes.first?.url, server.url("/ep.mp3").absoluteString)
    }

    func test_aRelAlternate_isOtherContent_neverInPlaceOfTheEpisode() async throws {
        serve(
            """
            <podcast:alternateEnclosure type="video/mp4" height="1080" rel="Behind the Scenes">
            <podcast:source uri="\(server.url("/bts.mp4"))" />
            <podcast:source uri="ipfs://exampleLinkThatDoesntWorkVideo" />
            </podcast:alternateEnclosure>
            """)

        let (code, lines) = await sync("--prefer", "video/mp4")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(file("Ep.mp3"), mp3, lines)
        XCTAssertNil(file("Ep.mp4"))
        XCTAssertEqual(requested("/bts.mp4"), 0)
    }

    func test_theURLRecorded_isTheSourceThatServedTheBytes_inTheIndexAndTheWARC() async throws {
        serve(
            """
            <podcast:alternateEnclosure type="audio/opus" codecs="opus">
            <podcast:source uri="\(server.url("/gone.opus"))" />
            <podcast:source uri="\(server.url("/e.opus"))" />
            </podcast:alternateEnclosure>
            """)

        let (code, lines) = await sync("--prefer", "audio/opus", "--retries", "0")
        output.clear()
        let export = await run("export", "--warc", "out.warc", "--to", root.path)

        XCTAssertEqual(code, .success, errors.text + lines)
        XCTAssertEqual(export, .success, errors.text)
        XCTAssertEqual(file("Ep.opus"), opus)
        let served = server.url("/e.opus").absoluteString
        XCTAssertEqual(try index().episodes.first?.url, served)
        let records = try WARCReader.records(Data(contentsOf: folder.url.appendingPathComponent("out.warc")))
        let resource = try XCTUnwrap(records.first { $0.type == "resource" && $0.payload == opus })
        XCTAssertEqual(resource["WARC-Target-URI"], served)
    }

    func test_dryRun_choosesAsTheSyncDoes() async throws {
        serve(
            """
            <podcast:alternateEnclosure type="audio/opus" codecs="opus">
            <podcast:source uri="\(server.url("/e.opus"))" />
            </podcast:alternateEnclosure>
            <podcast:alternateEnclosure type="video/mp4" rel="Behind the Scenes">
            <podcast:source uri="\(server.url("/bts.mp4"))" />
            </podcast:alternateEnclosure>
            """)

        let (planned, plan) = await sync("-n", "--prefer", "video/mp4,audio/opus")
        let (synced, _) = await sync("--prefer", "video/mp4,audio/opus")

        XCTAssertEqual([planned, synced], [.success, .success], errors.text)
        XCTAssertEqual(
            plan,
            "would fetch Ep <\(server.url("/e.opus"))> as Ep.opus (the alternate (audio/opus): --prefer audio/opus)\n"
                + "Spec: 1 to fetch, 0 already archived (dry run)\n")
        XCTAssertEqual(file("Ep.opus"), opus)
        XCTAssertEqual(server.requests.filter { $0.path != "/feed.xml" }.map(\.path), ["/e.opus"])
    }

    // MARK: - What answers

    /// A torrent, as the namespace's examples have one: bencoded, its first key `announce`.
    private let torrent = Data("d8:announce35:udp://tracker.example:80/announce4:infod6:lengthi43200000ee".utf8)

    private var visible: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("Spec").path))
        return (names ?? []).filter { !$0.hasPrefix(".") }.sorted()
    }

    /// A source with no `contentType` and a neutral name whose server answers with a torrent: kept as `H.dl` (93
    /// bytes) under `--prefer audio/opus`, exit 0. It is not the episode's media: the enclosure is archived instead.
    func test_aSourceAnsweringWithATorrent_isNotKept_theEnclosureIsArchivedInstead() async throws {
        serve(
            """
            <podcast:alternateEnclosure type="audio/opus" length="2000">
            <podcast:source uri="\(server.url("/H.dl"))" />
            </podcast:alternateEnclosure>
            """)
        server.route("/H.dl", .ok(torrent, type: "application/x-bittorrent"))

        let (code, lines) = await sync("--prefer", "audio/opus", "--retries", "0")

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(visible, ["Ep.mp3"], lines)
        XCTAssertEqual(file("Ep.mp3"), mp3)
        XCTAssertEqual(try index().episodes.first?.url, server.url("/ep.mp3").absoluteString)
        XCTAssertEqual(
            lines,
            "passed over <\(server.url("/H.dl"))> of Ep: it is a BitTorrent file, not the episode's media\n"
                + "archived Spec/Ep.mp3 (22 B)\nSpec: 1 archived, 0 already archived\n")
    }

    /// No type says so, only the first bytes: a torrent served as `application/octet-stream` for an enclosure that
    /// says it is MP3, and no other file of the episode. A failure of its own kind, said once: the episode cannot be
    /// archived (exit 1), and the next runs do not ask again, nor fail, while the feed offers it there.
    func test_anEnclosureAnsweringWithATorrentByItsBytes_isNotArchived_andSaidOnce() async throws {
        serve(enclosure: "/ep.bin", "")
        server.route("/ep.bin", .ok(torrent, type: "application/octet-stream"))

        let (first, _) = await sync("--retries", "0")
        let said = errors.text
        errors.clear()
        let (second, _) = await sync("--retries", "0")
        let asked = requested("/ep.bin")
        let (again, _) = await sync("--retries", "0", "--retry-gone")

        XCTAssertEqual(first, .episodesFailed)
        XCTAssertEqual(
            said,
            "podarchive: episode \"Ep\" <\(server.url("/ep.bin"))>: it is a BitTorrent file, not the episode's media; "
                + "not archived, and not asked for again while the feed offers it there (--retry-gone tries it "
                + "again)\n")
        XCTAssertEqual(visible, [])
        XCTAssertEqual(second, .success, errors.text)
        XCTAssertEqual(asked, 1, "not asked for again")
        XCTAssertEqual(again, .episodesFailed)
        XCTAssertEqual(requested("/ep.bin"), 2, "--retry-gone asks again")
    }

    /// An enclosure that is itself a playlist, by its type, its name or its first bytes: archived as a 58-byte
    /// `J.m3u8` "episode", exit 0.
    func test_anEnclosureThatIsAPlaylist_HLSOrDASH_isNotArchived() async throws {
        let cases: [(path: String, type: String, body: String, served: String, what: String)] = [
            (
                "/master.m3u8", "application/x-mpegURL", "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n",
                "application/vnd.apple.mpegurl", "an HLS playlist (streaming), not a file"
            ),
            (
                "/ep.mp3", "audio/mpeg", "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nseg1.ts\n", "text/plain",
                "an HLS playlist (streaming), not a file"
            ),
            (
                "/manifest", "audio/mpeg", "<?xml version=\"1.0\"?>\n<!-- made by a packager -->\n<MPD xmlns=\"urn\"/>",
                "application/octet-stream", "a DASH manifest (streaming), not a file"
            ),
            (
                "/stream.mpd", "application/dash+xml", "<MPD/>", "application/dash+xml",
                "a DASH manifest (streaming), not a file"
            ),
        ]
        for (path, type, body, served, what) in cases {
            try? FileManager.default.removeItem(at: root)
            serve(enclosure: path, type: type, "")
            server.route(path, .ok(body, type: served))
            errors.clear()

            let (code, lines) = await sync("--retries", "0")

            XCTAssertEqual(code, .episodesFailed, path + lines)
            XCTAssertTrue(errors.text.contains(": it is \(what); not archived"), errors.text)
            XCTAssertEqual(visible, [], path)
        }
    }

    /// An enclosure that is a playlist by its type gives way to an alternate that is a file of the episode, without
    /// `--prefer`, and `sync -n` says so as `sync` does.
    func test_anEnclosureThatIsAPlaylistByItsType_givesWayToAnAlternateThatIsAFile() async throws {
        serve(
            enclosure: "/master.m3u8", type: "application/vnd.apple.mpegurl",
            """
            <podcast:alternateEnclosure type="audio/mpeg">
            <podcast:source uri="\(server.url("/file-0.mp3"))" />
            </podcast:alternateEnclosure>
            """)

        let (planned, plan) = await sync("-n")
        let (code, lines) = await sync("--retries", "0")

        XCTAssertEqual([planned, code], [.success, .success], errors.text + lines)
        XCTAssertEqual(
            plan,
            "would fetch Ep <\(server.url("/file-0.mp3"))> as Ep.mp3\nSpec: 1 to fetch, 0 already archived (dry run)\n")
        XCTAssertEqual(visible, ["Ep.mp3"])
        XCTAssertEqual(file("Ep.mp3"), mp3)
        XCTAssertEqual(requested("/master.m3u8"), 0)
    }

    /// An enclosure that says it is MP3 but answers with a playlist: an alternate that is a file is archived instead.
    func test_anEnclosureAnsweringWithAPlaylist_givesWayToAnAlternateThatIsAFile() async throws {
        serve(
            """
            <podcast:alternateEnclosure type="audio/opus">
            <podcast:source uri="\(server.url("/e.opus"))" />
            </podcast:alternateEnclosure>
            """)
        server.route("/ep.mp3", .ok("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlow.m3u8\n", type: "audio/mpeg"))

        let (code, lines) = await sync("--retries", "0")

        XCTAssertEqual(code, .success, errors.text + lines)
        XCTAssertEqual(visible, ["Ep.opus"])
        XCTAssertEqual(file("Ep.opus"), opus)
        XCTAssertEqual(try index().episodes.first?.url, server.url("/e.opus").absoluteString)
    }

    // MARK: - --prefer by codec

    /// The README's "by codec too" example: `--prefer opus` chose nothing when the alternate named no `codecs`.
    func test_preferABareToken_matchesTheSubtypeOfAnAlternateWithoutCodecs() async throws {
        serve(
            """
            <podcast:alternateEnclosure type="audio/opus">
            <podcast:source uri="\(server.url("/e.opus"))" />
            </podcast:alternateEnclosure>
            """)

        let (code, lines) = await sync("--prefer", "opus,audio/mpeg")

        XCTAssertEqual(code, .success, errors.text + lines)
        XCTAssertEqual(visible, ["Ep.opus"])
        XCTAssertEqual(file("Ep.opus"), opus)
    }
}
