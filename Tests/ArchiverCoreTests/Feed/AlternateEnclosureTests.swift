import Foundation
import TestSupport
import XCTest

// Podcasting 2.0 alternate enclosures as the RSS reader sees them: every attribute, sources in order (relative
// ones resolved, other schemes kept as written for the archiver to skip), the publisher's hashes, and nothing
// attributed to an alternate the reader did not keep.
@testable import ArchiverCore

final class AlternateEnclosureTests: XCTestCase {
    private func feed() throws -> Feed {
        try FeedParser.parse(Fixtures.data("feeds/alternates.xml"), url: URL(string: "https://example.com/feed.xml"))
    }

    func testEachAlternateWithItsSourcesAndHashes() throws {
        let episodes = try feed().episodes
        XCTAssertEqual(
            episodes[0].alternates,
            [
                AlternateEnclosure(
                    type: "audio/mpeg", length: 1000, bitrate: 128_000, title: "Standard", isDefault: true,
                    sources: ["https://example.com/e1.mp3"],
                    integrity: "sha384-xZarXJoJ8eQgyyH9kelWwlJlYlxppM0P8C2PQQYQvX/igrsCjw0I3zn8NbQcD3N5"),
                AlternateEnclosure(
                    type: "audio/opus", length: 600, bitrate: 32000.5, language: "en-GB", title: "Small",
                    codecs: "opus", sources: ["ipfs://QmExample", "https://example.com/opus/e1.opus"],
                    integrity: "sha256-ungrounded", pgpSignature: "-----BEGIN PGP SIGNATURE-----"),
            ], "the alternate without a type is left out, and its source and hash go nowhere")
        XCTAssertEqual(episodes[1].alternates, [], "a source outside an alternate enclosure is no alternate")
        XCTAssertEqual(episodes[0].url, "https://example.com/e1.mp3", "the enclosure stays the episode's file")
    }

    func testAHostileItemKeepsABoundedNumber() throws {
        let alternates = String(
            repeating: "<podcast:alternateEnclosure type=\"audio/opus\">"
                + String(repeating: "<podcast:source uri=\"https://x.example/a\"/>", count: 40)
                + "</podcast:alternateEnclosure>", count: 40)
        let xml = """
            <rss xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><item><title>t</title>
            <enclosure url="https://x.example/e.mp3"/>\(alternates)</item></channel></rss>
            """
        let episode = try XCTUnwrap(try FeedParser.parse(Data(xml.utf8), url: nil).episodes.first)
        XCTAssertEqual(episode.alternates.count, 16)
        XCTAssertEqual(Set(episode.alternates.map(\.sources.count)), [16])
    }

    func testARelAndSourcesThatDeliverSomethingElse_asTheSpecsExamplesGiveThem() throws {
        let xml = """
            <rss xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><item><title>t</title>
            <enclosure url="https://example.com/file-0.mp3" type="audio/mpeg"/>
            <podcast:alternateEnclosure type="video/mp4" height="1080">
            <podcast:source uri="https://example.com/file-1080.mp4" />
            <podcast:source uri="https://example.com/file-1080.torrent" contentType="application/x-bittorrent" />
            <podcast:source uri="https://example.com/master.m3u8" />
            <podcast:source uri="https://example.com/v.mp4" contentType="video/mp4; codecs=avc1" />
            </podcast:alternateEnclosure>
            <podcast:alternateEnclosure type="audio/mp4" rel="Behind the Scenes">
            <podcast:source uri="https://example.com/file.mp4" />
            </podcast:alternateEnclosure>
            <podcast:alternateEnclosure type="application/x-mpegURL" rel="default">
            <podcast:source uri="https://example.com/master.m3u8" />
            </podcast:alternateEnclosure>
            </item></channel></rss>
            """
        let alternates = try XCTUnwrap(try FeedParser.parse(Data(xml.utf8), url: nil).episodes.first).alternates

        XCTAssertEqual(
            alternates.map(\.sources),
            [
                ["https://example.com/file-1080.mp4", "https://example.com/v.mp4"], ["https://example.com/file.mp4"],
                ["https://example.com/master.m3u8"],
            ])
        XCTAssertEqual(
            alternates[0].indirectSources,
            ["https://example.com/file-1080.torrent", "https://example.com/master.m3u8"])
        XCTAssertEqual(alternates.map(\.rel), [nil, "Behind the Scenes", nil])
        XCTAssertEqual(alternates.map(\.isTheEpisode), [true, false, false], "other content; a playlist")
        XCTAssertNil(PreferredFile.choice(["audio/mp4", "application/x-mpegurl"], for: episode(alternates)))
        XCTAssertEqual(PreferredFile.choice(["video/mp4"], for: episode(alternates))?.height, 1080)
    }

    private func episode(_ alternates: [AlternateEnclosure]) -> Episode {
        var episode = Episode(title: "t", guid: "g", url: "https://example.com/file-0.mp3", published: nil)
        episode.mimeType = "audio/mpeg"
        episode.alternates = alternates
        return episode
    }
}
