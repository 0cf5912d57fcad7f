import ArchiverCoreTesting
import Foundation
import XCTest

// Chapters documents as a feed may send them: sorted and kept, or clamped with a reason, or refused with one; a
// hostile one (deep, huge, negative or absurd times, 10,000 chapters, titles of 1 MB) never crashes.
@testable import ArchiverCore

final class LibraryChaptersTests: XCTestCase {
    private func chapters(_ json: String, duration: UInt32? = nil) -> LibraryChapters {
        LibraryChapters.read(
            atPath: "/c.json", files: FakeFileSystem(files: ["/c.json": Data(json.utf8)]), duration: duration)
    }

    func test_read_sortsByStart_andKeepsTitles() {
        let read = chapters(
            #"{"version":"1.2.0","chapters":[{"startTime":65.25,"title":"B"},{"startTime":0,"title":"A","img":"x"}]}"#)
        XCTAssertEqual(
            read.chapters, [.init(startMilliseconds: 0, title: "A"), .init(startMilliseconds: 65250, title: "B")])
        XCTAssertEqual(read.notes, [])
    }

    func test_read_leavesOutNegativeAbsurdAndMissingTimes_andThosePastTheEnd_sayingSo() {
        let read = chapters(
            #"{"chapters":[{"startTime":-3,"title":"neg"},{"startTime":1e400,"title":"inf"},{"title":"none"},"#
                + #"{"startTime":"5","title":"text"},{"startTime":2,"title":"ok"},{"startTime":50,"title":"late"}]}"#,
            duration: 10_000)
        XCTAssertEqual(read.chapters, [.init(startMilliseconds: 2000, title: "ok")])
        XCTAssertEqual(
            read.notes,
            ["4 chapters without a usable start time left out", "1 chapters past the audio's end left out"])
    }

    func test_read_tenThousandChapters_keepsTheFirst255_andAMegabyteTitleIsRefused() {
        // In reverse order: the earliest 255 are kept, whatever order the document gives them in.
        let many = (0..<10_000).reversed().map { #"{"startTime":\#($0),"title":"c\#($0)"}"# }.joined(separator: ",")
        let read = chapters(#"{"chapters":["# + many + "]}")
        XCTAssertEqual(read.chapters.count, 255)
        XCTAssertEqual(read.chapters.last, .init(startMilliseconds: 254_000, title: "c254"))
        XCTAssertEqual(read.notes, ["10000 chapters: only 255 kept"])

        let title = String(repeating: "x", count: 1 << 20)
        let huge = chapters(#"{"chapters":[{"startTime":1,"title":""# + title + #""}]}"#)
        XCTAssertEqual(huge.chapters, [])
        XCTAssertEqual(huge.notes.count, 1)
        XCTAssertTrue(huge.notes[0].hasPrefix("the chapters were refused: "), huge.notes[0])
    }

    func test_read_aLongTitle_isCutAtACharacter() {
        let read = chapters(#"{"chapters":[{"startTime":1,"title":""# + String(repeating: "é", count: 300) + #""}]}"#)
        XCTAssertEqual(read.chapters.first?.title.utf8.count, LibraryChapters.titleLimit)
        XCTAssertEqual(read.notes, ["1 chapter titles cut to 256 bytes"])
    }

    func test_read_deepOrBrokenDocuments_areRefusedInOnePhrase() {
        let deep = chapters(String(repeating: "[", count: 100_000))
        XCTAssertEqual(deep.chapters, [])
        XCTAssertTrue(deep.notes.first?.hasPrefix("the chapters were refused: ") == true, "\(deep.notes)")
        XCTAssertEqual(chapters("not json").chapters, [])
        XCTAssertEqual(chapters(#"{"chapters":{"startTime":1}}"#), LibraryChapters())
        XCTAssertEqual(
            LibraryChapters.read(atPath: "/missing", files: FakeFileSystem(), duration: nil).notes,
            ["the chapters could not be read"])
    }
}
