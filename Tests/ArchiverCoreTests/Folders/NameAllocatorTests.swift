// Naming stays linear: a dry run of 10,000 episodes of one title took 30 s when each claim counted from 1 again.
import Foundation
import XCTest

@testable import ArchiverCore

final class NameAllocatorTests: XCTestCase {
    func test_manyEpisodesOfOneTitle_getDistinctNames_withOneTryEach() {
        var names = NameAllocator(taken: ["Weekly.mp3"])
        let episode = Episode(title: "Weekly", guid: nil, url: "https://example.com/a.mp3")

        let claimed = (0..<3_000).map { _ in names.claim(for: episode, template: .standard, feedTitle: "Show") }

        XCTAssertEqual(Set(claimed).count, 3_000)
        XCTAssertEqual(claimed.first, "Weekly (2).mp3", "the name already in the folder is never handed out")
        XCTAssertEqual(claimed.last, "Weekly (3001).mp3")
        XCTAssertEqual(names.tries, 3_001, "one try each (and one for the name taken before): linear, not quadratic")
    }

    func test_releasedName_canBeClaimedAgain() {
        var names = NameAllocator(taken: ["A.mp3", "A (2).mp3"])
        let episode = Episode(title: "A", guid: nil, url: "https://example.com/a.mp3")

        names.release("A.mp3")

        XCTAssertEqual(names.claim(for: episode, template: .standard, feedTitle: "Show"), "A.mp3")
        XCTAssertEqual(names.claim(for: episode, template: .standard, feedTitle: "Show"), "A (3).mp3")
    }
}
