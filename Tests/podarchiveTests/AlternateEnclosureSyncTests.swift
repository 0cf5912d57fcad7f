// Alternate enclosures as the Podcasting 2.0 namespace defines them, through the command line against a loopback
// server, with the spec's own examples: a source that delivers something else (a torrent, an HLS or DASH
// playlist) is never archived as the episode, a `rel` alternate is other content and never replaces it, the URL
// recorded is the one that served the bytes (index and WARC), and `sync -n` chooses as `sync` does.
import ArchiverCore
import Foundation
import TestSupport
import XCTest

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
            "would fetch Ep <\(server.url("/e.opus"))> as Ep.opus\nSpec: 1 to fetch, 0 already archived (dry run)\n")
        XCTAssertEqual(file("Ep.opus"), opus)
        XCTAssertEqual(server.requests.filter { $0.path != "/feed.xml" }.map(\.path), ["/e.opus"])
    }
}
