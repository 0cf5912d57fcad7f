import Foundation
import XCTest

// The MP4 tags byte by byte: the udta/meta/ilst layout, the chapters' chpl, a moov rewritten without its old udta,
// and chunk offsets moved only when they point past the moov.
@testable import ArchiverCore

final class MP4TagTests: XCTestCase {
    func test_userData_isUdtaHoldingMetaWithItsHandlerAndIlst_andChpl() {
        var tags = EpisodeTags(title: "T", date: "2025-01-06")
        tags.cover = EpisodeTags.Cover(mimeType: "image/png", bytes: [9])
        tags.chapters = [LibraryChapter(startMilliseconds: 1500, title: "C")]
        let title = MP4Tag.atom([0xA9, 0x6E, 0x61, 0x6D], MP4Tag.atom("data", [0, 0, 0, 1, 0, 0, 0, 0, 0x54]))
        let day = MP4Tag.atom(
            [0xA9, 0x64, 0x61, 0x79], MP4Tag.atom("data", [0, 0, 0, 1, 0, 0, 0, 0] + Array("2025-01-06".utf8)))
        let cover = MP4Tag.atom("covr", MP4Tag.atom("data", [0, 0, 0, 14, 0, 0, 0, 0, 9]))
        let handler = MP4Tag.atom(
            "hdlr", [UInt8](repeating: 0, count: 8) + Array("mdirappl".utf8) + [UInt8](repeating: 0, count: 9))
        let meta = MP4Tag.atom("meta", [0, 0, 0, 0] + handler + MP4Tag.atom("ilst", title + day + cover))
        // Version 1, flags, 4 reserved bytes, one chapter: 1.5 s in 100 ns units, its title's length, its title.
        let chpl = MP4Tag.atom("chpl", [1, 0, 0, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 0, 0xE4, 0xE1, 0xC0] + [1, 0x43])
        XCTAssertEqual(MP4Tag.userData(for: tags), MP4Tag.atom("udta", meta + chpl))
    }

    func test_rewritten_leavesOutTheOldUdta_andAddsTheNewLast() throws {
        let header = MP4Tag.atom("mvhd", [UInt8](repeating: 1, count: 100))
        let old = MP4Tag.atom("moov", header + MP4Tag.atom("udta", [7, 7]) + MP4Tag.atom("trak", [5]))
        let new = try XCTUnwrap(MP4Tag.rewritten(old, userData: MP4Tag.atom("udta", [8])))
        XCTAssertEqual(new, MP4Tag.atom("moov", header + MP4Tag.atom("trak", [5]) + MP4Tag.atom("udta", [8])))
        XCTAssertNil(
            MP4Tag.rewritten(MP4Tag.atom("moov", [0, 0, 0, 99] + Array("trak".utf8)), userData: []), "past the end")
    }

    func test_shiftOffsets_movesOnlyOffsetsPastTheMoov_andRefusesAnOverflow() {
        let stco = MP4Tag.atom("stco", [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 50, 0, 0, 1, 0])
        let co64 = MP4Tag.atom("co64", [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 0])
        let stbl = MP4Tag.atom("stbl", stco + co64)
        var moov = MP4Tag.atom("moov", MP4Tag.atom("trak", MP4Tag.atom("mdia", MP4Tag.atom("minf", stbl))))
        XCTAssertTrue(MP4Tag.shiftOffsets(in: &moov, range: 8..<moov.count, after: 100, by: 16))
        let moved = MP4Tag.atom(
            "moov",
            MP4Tag.atom(
                "trak",
                MP4Tag.atom(
                    "mdia",
                    MP4Tag.atom(
                        "minf",
                        MP4Tag.atom(
                            "stbl",
                            MP4Tag.atom("stco", [0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 50, 0, 0, 1, 16])
                                + MP4Tag.atom("co64", [0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 16]))))))
        XCTAssertEqual(moov, moved, "50 is before the moov's end: kept; 256 moved to 272")
        var full = MP4Tag.atom("stco", [0, 0, 0, 0, 0, 0, 0, 1, 0xFF, 0xFF, 0xFF, 0xF0])
        XCTAssertFalse(MP4Tag.shiftOffsets(in: &full, range: 0..<full.count, after: 0, by: 16))
    }

    func test_duration_isTheMvhdsDurationOverItsTimeScale() {
        let mvhd = MP4Tag.atom(
            "mvhd",
            [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x03, 0xE8, 0, 0, 0x4E, 0x20] + [UInt8](repeating: 0, count: 80))
        XCTAssertEqual(MP4Tag.duration(MP4Tag.atom("moov", mvhd)), 20_000)
    }
}
