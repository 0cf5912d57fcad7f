import XCTest

@testable import ArchiverCore

/// The streaming reader's limits apply while it reads: deep nesting, huge arrays and long strings are refused
/// in one line naming the limit, invalid UTF-8 and malformed numbers as invalid, and the events do not depend
/// on where the chunks break.
final class BoundedJSONTests: XCTestCase {
    private let small = JSONLimits(bytes: 1 << 20, entries: 1_000, depth: 8, stringBytes: 64)

    private func events(_ text: some Collection<UInt8>, limits: JSONLimits? = nil, chunk: Int = 7) throws
        -> [JSONEvent]
    {
        var reader = BoundedJSON(limits: limits ?? small)
        var seen: [JSONEvent] = []
        let bytes = Array(text)
        var start = 0
        while start < bytes.count {
            try reader.read(bytes[start..<min(start + chunk, bytes.count)]) { seen.append($0) }
            start += chunk
        }
        try reader.finish { seen.append($0) }
        return seen
    }

    private func refusal(_ text: some Collection<UInt8>, limits: JSONLimits? = nil) -> String? {
        do {
            _ = try events(text, limits: limits, chunk: 4096)
            return nil
        } catch {
            return "\(error)"
        }
    }

    func test_aDocument_isReadAsEvents_whereverTheChunksBreak() throws {
        let text = #" {"a": [1, -2.5e3, true, false, null], "s\u00e9\ud83d\ude00": "x\"\n\/y", "o": {}} "#
        let expected: [JSONEvent] = [
            .beginObject, .key("a"), .beginArray, .number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null,
            .endArray, .key("sé😀"), .string("x\"\n/y"), .key("o"), .beginObject, .endObject, .endObject,
        ]
        for chunk in [1, 2, 3, 5, 64] {
            XCTAssertEqual(try events(Array(text.utf8), chunk: chunk), expected, "chunks of \(chunk)")
        }
        XCTAssertEqual(try events(Array("42".utf8)), [.number("42")])
        XCTAssertEqual(try events([0xEF, 0xBB, 0xBF] + Array("[]".utf8), chunk: 1), [.beginArray, .endArray])
        XCTAssertEqual(try events(Array("\"é\"".utf8)), [.string("é")])
    }

    func test_aMillionOpeningBrackets_areRefusedAtTheDepthLimit_withoutRecursion() {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 1_000_000)
        XCTAssertEqual(refusal(deep), "it nests deeper than 8 levels")
        XCTAssertEqual(refusal(Array((String(repeating: "[", count: 8) + String(repeating: "]", count: 8)).utf8)), nil)
    }

    func test_aHugeArray_isRefusedAtTheEntriesLimit() {
        let huge = "[" + Array(repeating: "0", count: 100_000).joined(separator: ",") + "]"
        XCTAssertEqual(refusal(Array(huge.utf8)), "it holds more than 1000 entries")
        let fits = "[" + Array(repeating: "0", count: 999).joined(separator: ",") + "]"
        XCTAssertNil(refusal(Array(fits.utf8)))
    }

    func test_aFeedOfMoreItemsThanTheLimit_isRefusedAsItIsRead_asAJSONArrayOrAJSONFeed() {
        let limits = JSONLimits(bytes: .max, entries: 1_000_000, depth: 8, stringBytes: 64, items: 100)
        let item = #"{"url":"https://example.com/e.mp3","title":"T"}"#
        func array(_ count: Int) -> [UInt8] {
            Array(("[" + Array(repeating: item, count: count).joined(separator: ",") + "]").utf8)
        }
        func jsonFeed(_ count: Int) -> [UInt8] {
            Array(
                (#"{"version":"https://jsonfeed.org/version/1.1","items":["#
                    + Array(repeating: item, count: count).joined(separator: ",") + "]}").utf8)
        }
        XCTAssertEqual(refusal(array(101), limits: limits), "it holds more than 100 items")
        XCTAssertEqual(refusal(jsonFeed(101), limits: limits), "it holds more than 100 items")
        XCTAssertNil(refusal(array(100), limits: limits))
        XCTAssertNil(refusal(jsonFeed(100), limits: limits))
        XCTAssertEqual(JSONLimits.feed.items, 100_000, "as many as an XML feed may hold")
    }

    func test_aDocumentPastItsSize_isRefusedAtTheByteLimit() {
        let limits = JSONLimits(bytes: 100, entries: 1_000, depth: 8, stringBytes: 64)
        XCTAssertEqual(
            refusal(Array(("[" + String(repeating: " ", count: 200) + "]").utf8), limits: limits),
            "it is larger than 100 bytes")
    }

    func test_aLongStringOrNumber_isRefusedAtTheStringLimit() {
        let long = "[\"" + String(repeating: "a", count: 10_000) + "\"]"
        XCTAssertEqual(refusal(Array(long.utf8)), "it has a string or number longer than 64 bytes")
        XCTAssertEqual(
            refusal(Array(("[" + String(repeating: "1", count: 65) + "]").utf8)),
            "it has a string or number longer than 64 bytes")
        XCTAssertNil(refusal(Array(("[\"" + String(repeating: "a", count: 64) + "\"]").utf8)))
    }

    func test_invalidUTF8_isRefused() {
        for bad: [UInt8] in [
            [0xFF], [0xC0, 0x80], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xC3], [0xF4, 0x90, 0x80, 0x80],
        ] {
            XCTAssertEqual(
                refusal([UInt8(ascii: "\"")] + bad + [UInt8(ascii: "\"")])?.hasPrefix("it is not valid UTF-8"), true,
                "\(bad)")
        }
    }

    func test_numbers_areCheckedAgainstJSONsGrammar() {
        for good in ["0", "-0", "12", "1.5", "1e9", "1E+9", "-3.25e-2"] {
            XCTAssertEqual(try events(Array(good.utf8)), [.number(good)], good)
        }
        for bad in ["01", "1.", ".5", "1e", "--1", "+1", "1.2.3", "0x10"] {
            XCTAssertNotNil(refusal(Array("[\(bad)]".utf8)), bad)
        }
    }

    func test_malformedAndTruncatedDocuments_areRefused() {
        for bad in [#"{"a" 1}"#, "[1,]", "[1 2]", #"{"a":1,}"#, "[}", "tru", "", "[1]]", "\"a\nb\"", #"{1:2}"#] {
            XCTAssertNotNil(refusal(Array(bad.utf8)), bad)
        }
        XCTAssertEqual(refusal(Array("[1, 2".utf8)), "it is not a whole JSON document (truncated?)")
    }
}

/// A JSON feed past its limits is refused before it is decoded, in one line naming the limit.
final class BoundedJSONFeedTests: XCTestCase {
    func test_aJSONFeedNestedAMillionDeep_isRefusedAtItsDepthLimit_notDecoded() {
        var data = Data(#"{"version":"https://jsonfeed.org/version/1.1","items":[],"x":"#.utf8)
        data.append(Data(repeating: UInt8(ascii: "["), count: 1_000_000))
        XCTAssertThrowsError(try FeedParser.parse(data, url: URL(string: "https://example.com/f.json"))) {
            XCTAssertEqual(
                $0 as? FeedError, .notAFeed(url: "https://example.com/f.json", reason: "it nests deeper than 64 levels")
            )
        }
    }

    func test_aJSONArrayFeedPastItsEntries_isRefused_oneWithinThemIsRead() {
        let limits = JSONLimits(bytes: .max, entries: 100, depth: 64, stringBytes: 1 << 20)
        let entry = #"{"url":"https://example.com/a.mp3","title":"A"}"#
        let many = Data(("[" + Array(repeating: entry, count: 50).joined(separator: ",") + "]").utf8)
        let few = Data(("[" + Array(repeating: entry, count: 10).joined(separator: ",") + "]").utf8)
        guard case .failure(let failure) = JSONFeedReader.read(many, documentURL: nil, limits: limits) else {
            return XCTFail("read past its limits")
        }
        XCTAssertEqual(failure.reason, "it holds more than 100 entries")
        guard case .success(let feed) = JSONFeedReader.read(few, documentURL: nil, limits: limits) else {
            return XCTFail("not read within its limits")
        }
        XCTAssertEqual(feed.episodes.count, 10)
    }
}
