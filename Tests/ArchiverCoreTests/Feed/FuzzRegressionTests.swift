import Foundation
import TestSupport
import XCTest

// Every input in Fixtures/fuzz/regressions (crashes the fuzzer found, and hand-made probes of the tokenizer's
// edges) must read as a feed or fail as "not a feed": never crash, never any other error.
@testable import ArchiverCore

final class FuzzRegressionTests: XCTestCase {
    private let folder = Fixtures.url("fuzz/regressions")

    private func parse(_ name: String) throws -> Feed {
        try FeedParser.parse(
            Fixtures.data("fuzz/regressions/\(name)"), url: URL(string: "https://example.com/feed.xml"))
    }

    func test_everyRegressionInput_parsesOrFailsAsNotAFeed() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "README.md" }
            .sorted()
        XCTAssertGreaterThanOrEqual(names.count, 14)
        for name in names {
            for descriptions in [false, true] {
                do {
                    _ = try FeedParser.parse(
                        Fixtures.data("fuzz/regressions/\(name)"), url: URL(string: "https://example.com/feed.xml"),
                        descriptions: descriptions)
                } catch let error as FeedError {
                    guard case .notAFeed = error else { return XCTFail("\(name): \(error)") }
                }
            }
        }
    }

    func test_everyRegressionInput_asAnIndex_readsOrIsRefused_neverCrashes() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "README.md" }
        for name in names {
            guard let index = try? IndexFormat.decode(Fixtures.data("fuzz/regressions/\(name)")) else { continue }
            if name == "index-climbing.json" {
                XCTAssertNotNil(IndexFormat.unsafeFile(in: index), "an entry outside the folder is named as the damage")
            }
        }
        XCTAssertThrowsError(try IndexFormat.decode(Fixtures.data("fuzz/regressions/index-deep-nesting.json")))
    }

    func test_everyRegressionInput_asAJournal_readsItsIntactRecordsOnly() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "README.md" }
        for name in names where name != "journal-two-records.journal" {
            XCTAssertEqual(IndexJournal.entries(in: Fixtures.data("fuzz/regressions/\(name)")).entries, [], name)
        }
        let journal = IndexJournal.entries(in: Fixtures.data("fuzz/regressions/journal-two-records.journal"))
        XCTAssertEqual(journal.entries.map(\.file), ["Episode 1.mp3", "Episode 2.mp3"])
        XCTAssertEqual(journal.entries.first?.companions?.first?.language, "en")
        XCTAssertEqual(journal.damaged, [])
    }

    func test_deepNesting_isRefusedAtTheDepthLimit_withoutRecursion() {
        // 100,000 open elements: refused at the 257th, as it is read (see `XMLLimits`).
        XCTAssertThrowsError(try parse("deep-nesting.xml")) {
            XCTAssertEqual(
                $0 as? FeedError,
                .notAFeed(url: "https://example.com/feed.xml", reason: "it nests deeper than 256 levels"))
        }
    }

    func test_manyUnmatchedClosingTagsUnderDeepNesting_areRefusedAtTheDepthLimit() {
        // 30,000 open elements and 30,000 closing tags that match none.
        XCTAssertThrowsError(try parse("unmatched-closing-tags.xml")) {
            XCTAssertEqual(
                $0 as? FeedError,
                .notAFeed(url: "https://example.com/feed.xml", reason: "it nests deeper than 256 levels"))
        }
    }

    func test_unmatchedClosingTagsUnderDeepNesting_costLinearWork() {
        // N closing tags that match none, under as many open elements as the depth limit lets stand: matching each
        // against the whole stack would cost N x depth.
        func work(_ count: Int) -> Int {
            let document =
                "<rss><channel><item><title>t</title><enclosure url=\"https://e.x/s.mp3\"/></item>"
                + String(repeating: "<a>", count: XMLLimits.feed.depth - 2)
                + String(repeating: "</b>", count: count) + "</channel></rss>"
            let (result, work) = XMLFeedReader.countingWork(Array(document.utf8))
            guard case .feed(let feed) = result else {
                XCTFail("\(count): not read as a feed")
                return 0
            }
            XCTAssertEqual(feed.episodes.count, 1)
            return work
        }

        let single = work(2_000)
        let double = work(4_000)

        XCTAssertGreaterThan(single, 2_000, "every tag counted")
        XCTAssertLessThanOrEqual(Double(double), 2.2 * Double(single), "twice the tags, about twice the work")
    }

    func test_fiftyThousandAttributes_stillFindTheURL() throws {
        XCTAssertEqual(try parse("many-attributes.xml").episodes.map(\.url), ["https://e.x/m.mp3"])
    }

    func test_invalidCharacterReferences_becomeReplacementCharacters() throws {
        let title = try XCTUnwrap(try parse("bad-charrefs.xml").title)
        XCTAssertEqual(
            title.unicodeScalars.filter { $0 == "\u{FFFD}" }.count, 5, "out of range, surrogate, NUL, two overflows")
    }

    func test_oddJSON_keepsWhatIsUsable() throws {
        let array = try parse("odd-json-array.json")
        XCTAssertEqual(array.episodes.map(\.url), ["https://e.x/1.mp3"])
        XCTAssertNil(array.episodes[0].published)
        XCTAssertEqual(try parse("odd-jsonfeed.json").episodes.map(\.url), ["https://example.com/a"])
    }
}
