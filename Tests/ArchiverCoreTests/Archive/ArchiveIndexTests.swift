// The index file: written by hand for speed, read back by JSONDecoder exactly as it was.
import ArchiverCore
import Foundation
import XCTest

final class ArchiveIndexTests: XCTestCase {
    func test_encoded_roundTripsEveryFieldIncludingAwkwardText() throws {
        var index = ArchiveIndex(
            feed: "https://example.com/feed?a=1&b=\"2\"", title: "Quotes \" and \\ back\nslash\u{1}")
        index.record(
            ArchiveIndex.Entry(
                key: "guid-1", guid: "guid-1", title: "Ünïcødé / \"quoted\"", url: "https://e.x/1.mp3", file: "One.mp3",
                size: 12_345_678_901, sha256: String(repeating: "ab", count: 32), published: "2025-01-10T13:00:00Z",
                archived: "2026-01-01T00:00:00Z"))
        index.record(
            ArchiveIndex.Entry(
                key: "https://e.x/2.mp3", title: nil, url: "https://e.x/2.mp3", file: "2.mp3", size: 0, published: nil,
                archived: "2026-01-01T00:00:00Z"))
        index.failures = [
            ArchiveIndex.Failure(
                episode: Episode(title: "Tab\there", guid: nil, url: "https://e.x/3.mp3", mimeType: "audio/mpeg"),
                reason: "server answered HTTP 503", failed: "2026-01-01T00:00:00Z")
        ]

        let decoded = try ArchiveIndex.decode(try index.encoded())

        XCTAssertEqual(decoded, index)
        XCTAssertEqual(decoded.version, 2, "an index holding no secret stays readable by the podarchive before")
        XCTAssertNotNil(decoded.entry(for: Episode(title: nil, guid: "guid-1", url: "https://elsewhere/x.mp3")))
    }

    func test_encoded_anIndexKeepingARedactedURL_isTheNewVersion_soAnOlderPodarchiveRefusesIt() throws {
        var index = ArchiveIndex(feed: "https://example.com/feed", title: nil)
        index.record(
            ArchiveIndex.Entry(
                key: "https://e.x/1.mp3", title: nil, url: URLSecrets.redacted("https://e.x/1.mp3?token=hunter2"),
                file: "1.mp3", size: 1, published: nil, archived: "2026-01-01T00:00:00Z"))

        XCTAssertEqual(try ArchiveIndex.decode(try index.encoded()).version, 3)
        XCTAssertEqual(ArchiveIndex.currentVersion, 3)
    }

    func test_encoded_emptyIndexIsValidJSON() throws {
        let index = ArchiveIndex(feed: "f", title: nil)
        XCTAssertEqual(try ArchiveIndex.decode(try index.encoded()), index)
    }

    func test_unsafeFile_namesAnEntryThatCouldLeaveTheFolder() {
        func index(_ file: String) -> ArchiveIndex {
            ArchiveIndex(
                feed: "f", title: nil,
                episodes: [
                    ArchiveIndex.Entry(
                        key: "k", title: "T", url: "https://e.x/1.mp3", file: file, size: 1, published: nil,
                        archived: "2025-01-01T00:00:00Z")
                ])
        }
        for unsafe in ["../x.mp3", "a/../../x.mp3", "/etc/passwd", "", "a//b.mp3", ".", "a/..", "a/", "x\0.mp3"] {
            XCTAssertNotNil(index(unsafe).unsafeFile(), unsafe)
        }
        for safe in ["x.mp3", "Season 2/007 x.mp3", "...mp3", "a/...", "x..mp3", "é/ü.mp3"] {
            XCTAssertNil(index(safe).unsafeFile(), safe)
        }
    }
}
