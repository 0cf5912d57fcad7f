import XCTest

@testable import ArchiverCore

// `{number}`: which number each episode gets, and that a number once given never changes.
final class EpisodeNumberingTests: XCTestCase {
    private func episode(_ guid: String, _ day: Int?) -> Episode {
        Episode(
            title: guid, guid: guid, url: "https://example.com/\(guid).mp3",
            published: day.map { Date(timeIntervalSince1970: 1_704_067_200 + Double($0) * 86_400) })
    }

    private func entry(_ guid: String, _ day: Int?) -> ArchiveIndex.Entry {
        ArchiveIndex.Entry(archiving: episode(guid, day), file: "\(guid).mp3", size: 1, sha256: "", at: .distantPast)
    }

    func test_aBackCatalogue_isNumberedByPublicationDate_oldestFirst_undatedLast_inTheFeedsOrderFromTheBottom() {
        // Newest first, as feeds list them; "u1" and "u2" undated, "u2" lower in the feed.
        let feed = [episode("c", 3), episode("u1", nil), episode("a", 1), episode("b", 2), episode("u2", nil)]
        var numbers = EpisodeNumbers()
        XCTAssertTrue(numbers.give(numbers.unnumbered(feed, index: ArchiveIndex(feed: "", title: nil))))
        XCTAssertEqual(["a", "b", "c", "u2", "u1"].map { numbers.number(of: $0) }, [1, 2, 3, 4, 5])
    }

    func test_numbersGiven_neverChange_whenEpisodesGoAndNewOnesCome_andArchivedOnesAreNumberedToo() {
        var index = ArchiveIndex(feed: "", title: nil)
        index.record(entry("old", 0))  // archived, no longer in the feed
        var numbers = EpisodeNumbers()
        _ = numbers.give(numbers.unnumbered([episode("b", 2), episode("a", 1)], index: index))
        XCTAssertEqual(["old", "a", "b"].map { numbers.number(of: $0) }, [1, 2, 3])

        // The publisher deletes "a", publishes "c", and backdates "early" before everything.
        let later = [episode("c", 3), episode("b", 2), episode("early", -5)]
        XCTAssertFalse(numbers.unnumbered(later, index: index).contains("b"))
        XCTAssertTrue(numbers.give(numbers.unnumbered(later, index: index)))
        XCTAssertEqual(["old", "a", "b", "early", "c"].map { numbers.number(of: $0) }, [1, 2, 3, 4, 5])
        XCTAssertFalse(numbers.give(numbers.unnumbered(later, index: index)), "nothing new: nothing given")
    }

    func test_theTemplatesNumberField_isTheEpisodesNumber_padded_andEmptyWithoutOne() throws {
        var template = try NameTemplate("{number:03} {title}")
        var numbers = EpisodeNumbers()
        _ = numbers.give(["a"])
        template.numbers = numbers
        XCTAssertTrue(template.usesNumbers)
        XCTAssertFalse(try NameTemplate("{episode} {title}").usesNumbers)
        XCTAssertEqual(template.path(for: episode("a", 1), feedTitle: "").stem, "001 a")
        XCTAssertEqual(template.path(for: episode("z", 1), feedTitle: "").stem, "z")
    }
}
