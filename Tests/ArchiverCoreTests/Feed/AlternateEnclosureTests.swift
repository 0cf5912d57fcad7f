// Podcasting 2.0 alternate enclosures as the RSS reader sees them: every attribute, sources in order (relative
// ones resolved, other schemes kept as written for the archiver to skip), the publisher's hashes, and nothing
// attributed to an alternate the reader did not keep.
import ArchiverCore
import Foundation
import TestSupport
import XCTest

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
}
