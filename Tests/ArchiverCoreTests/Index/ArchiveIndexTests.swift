// The index file: written by hand for speed, read back by JSONDecoder exactly as it was; and the clashes `verify`
// names in one that was edited by hand.
import Foundation
import XCTest

@testable import ArchiverCore

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

        let decoded = try IndexFormat.decode(IndexFormat.encode(index))

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

        XCTAssertEqual(try IndexFormat.decode(IndexFormat.encode(index)).version, 3)
    }

    func test_encoded_theIndexOfAShowKeptApart_isTheNewestVersion_soAnOlderPodarchiveRefusesIt() throws {
        var index = ArchiveIndex(feed: "https://example.com/members", title: "Show")
        index.keptApart = true

        let decoded = try IndexFormat.decode(IndexFormat.encode(index))

        XCTAssertEqual(decoded.version, 4)
        XCTAssertTrue(decoded.keptApart)
        XCTAssertEqual(decoded, index)
        XCTAssertNotEqual(
            decoded, ArchiveIndex(feed: "https://example.com/members", title: "Show"),
            "kept apart or not is part of what an index says: a change to it alone is saved")
        XCTAssertEqual(ArchiveIndex.currentVersion, 5)
        XCTAssertEqual(try JSONDecoder().decode(ArchiveIndex.self, from: IndexFormat.encode(index)).keptApart, true)
    }

    func test_encoded_emptyIndexIsValidJSON() throws {
        let index = ArchiveIndex(feed: "f", title: nil)
        XCTAssertEqual(try IndexFormat.decode(IndexFormat.encode(index)), index)
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
            XCTAssertNotNil(IndexFormat.unsafeFile(in: index(unsafe)), unsafe)
        }
        for safe in ["x.mp3", "Season 2/007 x.mp3", "...mp3", "a/...", "x..mp3", "é/ü.mp3"] {
            XCTAssertNil(IndexFormat.unsafeFile(in: index(safe)), safe)
        }
    }

    func test_clashes_nameTwoEntriesThatClaimOneFileOrOneKey_andNoneForWhatSyncWrites() {
        func entry(_ key: String, guid: String?, _ file: String, companion: String? = nil) -> ArchiveIndex.Entry {
            var entry = ArchiveIndex.Entry(
                key: key, guid: guid, title: key.uppercased(), url: "https://e.x/\(file)", file: file, size: 1,
                published: nil, archived: "2025-01-01T00:00:00Z")
            entry.companions = companion.map {
                [CompanionFile(kind: "transcript", file: $0, url: nil, type: nil, language: nil, size: 1, sha256: "")]
            }
            return entry
        }
        func name(_ position: Int, _ key: String) -> ArchiveIndex.EntryName {
            ArchiveIndex.EntryName(position: position, name: key.uppercased())
        }
        let table: [(String, [ArchiveIndex.Entry], [ArchiveIndex.Clash])] = [
            ("distinct", [entry("a", guid: "a", "a.mp3", companion: "a.srt"), entry("b", guid: "b", "b.mp3")], []),
            (
                "a GUID two items share, kept apart by URL, and a kept version",
                [
                    entry("g", guid: "g", "one.mp3"), entry("https://e.x/two.mp3", guid: "g", "two.mp3"),
                    entry("g#v2", guid: nil, "one (v2).mp3"),
                ], []
            ),
            (
                "one file twice",
                [entry("a", guid: "a", "x.mp3"), entry("b", guid: "b", "x.mp3")],
                [.init(claim: .file("x.mp3"), first: name(1, "a"), second: name(2, "b"))]
            ),
            (
                "an episode's file as another's companion",
                [entry("a", guid: "a", "a.mp3", companion: "x.srt"), entry("b", guid: "b", "x.srt")],
                [.init(claim: .file("x.srt"), first: name(1, "a"), second: name(2, "b"))]
            ),
            (
                "one GUID twice",
                [entry("a", guid: "a", "a.mp3"), entry("a", guid: "a", "b.mp3")],
                [.init(claim: .key("a"), first: name(1, "a"), second: name(2, "a"))]
            ),
            (
                "one file three times",
                [entry("a", guid: "a", "x.mp3"), entry("b", guid: "b", "x.mp3"), entry("c", guid: "c", "x.mp3")],
                [
                    .init(claim: .file("x.mp3"), first: name(1, "a"), second: name(2, "b")),
                    .init(claim: .file("x.mp3"), first: name(1, "a"), second: name(3, "c")),
                ]
            ),
        ]
        for (label, episodes, clashes) in table {
            // As read from disk: `record` would merge entries of one key or one file.
            let index = ArchiveIndex(feed: "f", title: nil, episodes: episodes)
            XCTAssertEqual(index.clashes(), clashes, label)
        }
    }
}
