// The hand-written index reader: it must read what podarchive writes exactly as JSONDecoder does, and leave
// everything else (hand edits it cannot be sure of, damage) to JSONDecoder's verdict.
import Foundation
import XCTest

@testable import ArchiverCore

final class IndexReaderTests: XCTestCase {
    private func viaDecoder(_ data: Data) throws -> ArchiveIndex {
        try JSONDecoder().decode(ArchiveIndex.self, from: data)
    }

    private func assertSameAsJSONDecoder(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let data = Data(text.utf8)
        let fast = try XCTUnwrap(
            IndexReader.read(data, maximumDepth: IndexFormat.maximumDepth), "the reader gave up on \(text)", file: file,
            line: line)
        let reference = try viaDecoder(data)
        XCTAssertEqual(fast, reference, file: file, line: line)
        XCTAssertEqual(fast.version, reference.version, file: file, line: line)
    }

    func test_theWriterWritesEveryKeyOfTheFormat() throws {
        // The keys are declared once (the CodingKeys of each record); the reader's switch must handle each, and
        // this checks the writer leaves none out of a record that has every value.
        var entry = ArchiveIndex.Entry(
            key: "k", guid: "g", title: "Pilot", url: "https://e.com/1.mp3", file: "Pilot.mp3", size: 3, sha256: "ab",
            published: "2027-01-01T00:00:00Z", archived: "2027-01-02T00:00:00Z")
        entry.replacedBy = "Pilot (2).mp3"
        entry.removedUpstream = "2027-02-01T00:00:00Z"
        entry.lastSeen = "2027-01-20T00:00:00Z"
        entry.contentType = "audio/mpeg"
        entry.away = AwayRecord(
            state: .offloaded, since: "2027-03-01T00:00:00Z", into: "/mnt/cold/Show", files: ["Pilot.mp3"],
            pending: .restore)
        entry.companions = [
            CompanionFile(
                kind: "transcript", file: "Pilot.vtt", url: "https://e.com/1.vtt", type: "text/vtt", language: "en",
                size: 1, sha256: "cd", contentType: "text/vtt; charset=utf-8")
        ]
        entry.publisher = PublisherRecord(
            alternates: [AlternateEnclosure(type: "audio/opus", sources: ["https://e.com/1.opus"])],
            chosen: "audio/opus",
            source: "https://e.com/1.opus", integrity: "sha256-AAAA", mismatch: "sha256-BBBB")
        var failure = ArchiveIndex.Failure(
            episode: Episode(title: "Two", guid: "g2", url: "https://e.com/2.mp3"), reason: "HTTP 404",
            failed: "2027-01-02T00:00:00Z")
        failure.type = "audio/mpeg"
        failure.published = "2027-01-01T00:00:00Z"
        failure.status = 404
        failure.missingSince = "2027-01-02T00:00:00Z"
        failure.missingRuns = 2
        failure.gone = "2027-01-09T00:00:00Z"
        failure.publisher = PublisherRecord(integrity: "sha256-AAAA", mismatch: "sha256-BBBB", mismatches: 1)
        failure.shortBody = 200_000
        failure.notMedia = "hls"
        var index = ArchiveIndex(feed: "https://e.com/feed", title: "Show", episodes: [entry], failures: [failure])
        index.keptApart = true
        index.author = "Ada"
        let data = IndexFormat.encode(index)

        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: data) as? [String: Any])
        let episode = try XCTUnwrap((object["episodes"] as? [[String: Any]])?.first)
        let companion = try XCTUnwrap((episode["companions"] as? [[String: Any]])?.first)
        let failed = try XCTUnwrap((object["failures"] as? [[String: Any]])?.first)
        XCTAssertEqual(Set(object.keys), Set(ArchiveIndex.CodingKeys.allCases.map(\.stringValue)))
        XCTAssertEqual(Set(episode.keys), Set(ArchiveIndex.Entry.CodingKeys.allCases.map(\.stringValue)))
        XCTAssertEqual(Set(companion.keys), Set(CompanionFile.CodingKeys.allCases.map(\.stringValue)))
        XCTAssertEqual(Set(failed.keys), Set(ArchiveIndex.Failure.CodingKeys.allCases.map(\.stringValue)))
        XCTAssertEqual(try IndexFormat.decode(data).episodes, [entry], "and it reads back as written")
        XCTAssertEqual(try IndexFormat.decode(data).failures, [failure])
        XCTAssertEqual(try IndexFormat.decode(data).author, "Ada")
        XCTAssertTrue(try IndexFormat.decode(data).keptApart)
    }

    func test_generatedIndexes_readBackExactlyAsWrittenAndAsJSONDecoderReadsThem() throws {
        var generator = SplitMix64(seed: 7)
        let pieces = [
            "plain", "Ünïcødé", "🎙️ emoji", "quote \"", "back\\slash", "new\nline", "tab\t", "ctrl \u{1}\u{1F}", "/",
            "日本語", "", " ", "\u{2028}", "</script>",
        ]
        func text() -> String {
            (0..<Int.random(in: 0...4, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }
                .joined()
        }
        func maybe() -> String? { Bool.random(using: &generator) ? text() : nil }
        for _ in 0..<50 {
            var index = ArchiveIndex(feed: text(), title: maybe())
            for number in 0..<Int.random(in: 0...30, using: &generator) {
                // As sync records them: the key is the GUID, else the URL.
                let guid = maybe().map { "g\(number)" + $0 }
                let url = "u\(number)" + text()
                index.record(
                    ArchiveIndex.Entry(
                        key: guid ?? url, guid: guid, title: maybe(), url: url, file: "f\(number)" + text(),
                        size: Int64.random(in: 0...Int64.max, using: &generator), sha256: maybe(), published: maybe(),
                        archived: text()))
            }
            index.failures = (0..<Int.random(in: 0...3, using: &generator)).map { number in
                ArchiveIndex.Failure(
                    episode: Episode(
                        title: maybe(), guid: maybe(), url: "x\(number)" + text(), mimeType: maybe(),
                        published: Bool.random(using: &generator) ? Date(timeIntervalSince1970: 1e9) : nil),
                    reason: text(), failed: text())
            }
            let data = IndexFormat.encode(index)

            let fast = try XCTUnwrap(
                IndexReader.read(data, maximumDepth: IndexFormat.maximumDepth), String(decoding: data, as: UTF8.self))
            XCTAssertEqual(fast, index)
            XCTAssertEqual(fast, try viaDecoder(data))
        }
    }

    func test_validJSONInOtherShapes_isReadAsJSONDecoderReadsIt() throws {
        // Whitespace, key order, escapes, unknown keys of every kind, a version 1 index (no failures, no sha256).
        try assertSameAsJSONDecoder(
            """

              { "episodes" : [ { "size" : 3 , "archived" : "a" , "file" : "F\\u00fc\\ud83c\\udf99\\/x" ,
                 "url" : "u" , "key" : "g" , "extra" : { "nested" : [ 1 , 2.5e3 , true , false , null , "s" ] } } ] ,
                "future" : [ ] , "feed" : "f" , "version" : 1 , "title" : null }\t

            """)
        try assertSameAsJSONDecoder(#"{"version":2,"feed":"f","title":"T","episodes":[],"failures":null}"#)
        try assertSameAsJSONDecoder(
            #"{"version":2,"feed":"f","episodes":[],"failures":[{"key":"k","url":"u","reason":"r","failed":"d","n":-1}]}"#
        )
    }

    func test_whatJSONDecoderRefuses_isLeftToIt() {
        let refused = [
            #"{"version":2,"feed":"f"}"#,  // no episodes
            #"{"version":2,"feed":"f","episodes":[{"key":"k","url":"u","file":"f","archived":"a"}]}"#,  // no size
            #"{"version":"2","feed":"f","episodes":[]}"#,  // a string for a number
            #"{"version":2,"feed":"f","episodes":[]} x"#,  // trailing garbage
            #"{"version":2,"feed":"f","episodes":[],}"#,  // trailing comma
            "{\"version\":2,\"feed\":\"a\u{1}b\",\"episodes\":[]}",  // raw control character
            #"{"version":2,"feed":"\ud800","episodes":[]}"#,  // lone surrogate
            #"{"version":2,"feed":"f","episodes":[{"key":"k","url":"u","file":"f","size":1.5,"archived":"a"}]}"#,
            "",
            // A key twice: readers disagree on which wins (found by the fuzzer), so JSONDecoder decides.
            #"{"version":2,"feed":"f","title":"A","title":null,"episodes":[]}"#,
        ]
        for text in refused {
            XCTAssertNil(IndexReader.read(Data(text.utf8), maximumDepth: IndexFormat.maximumDepth), text)
        }
        XCTAssertNil(
            IndexReader.read(Data([0x7B, 0x22, 0xFF, 0x22, 0x3A, 0x31, 0x7D]), maximumDepth: IndexFormat.maximumDepth),
            "invalid UTF-8")
        // The cases JSONDecoder also refuses make decode throw, as before.
        XCTAssertThrowsError(try IndexFormat.decode(Data(refused[0].utf8)))
        XCTAssertThrowsError(try IndexFormat.decode(Data(refused[3].utf8)))
    }
}
