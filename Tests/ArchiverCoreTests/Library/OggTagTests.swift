import Foundation
import XCTest

// Ogg pages byte by byte: the CRC, the comment packets, header packets laid out in pages (a packet longer than a
// page continued on the next), a later page renumbered with its CRC made again.
@testable import ArchiverCore

final class OggTagTests: XCTestCase {
    func test_crc32_isOggsPolynomial_startingAtZero_withoutAFinalXor() {
        XCTAssertEqual(OggPage.crc32(Array("123456789".utf8)), 0x89A1_897F)
        XCTAssertEqual(OggPage.crc32([UInt8]()), 0)
    }

    func test_commentPacket_opus_keepsTheVendor_andWritesEachComment() {
        var tags = EpisodeTags(title: "T", episode: 4)
        tags.chapters = [LibraryChapter(startMilliseconds: 3_723_456, title: "C")]
        let packet = OggTag.commentPacket(tags, codec: .opus, vendor: Array("enc".utf8))
        var expected = Array("OpusTags".utf8) + [3, 0, 0, 0] + Array("enc".utf8) + [4, 0, 0, 0]
        for comment in ["TITLE=T", "TRACKNUMBER=4", "CHAPTER001=01:02:03.456", "CHAPTER001NAME=C"] {
            expected += [UInt8(comment.utf8.count), 0, 0, 0] + Array(comment.utf8)
        }
        XCTAssertEqual(packet, expected)
        XCTAssertEqual(
            OggTag.commentPacket(EpisodeTags(), codec: .vorbis, vendor: []),
            [3] + Array("vorbis".utf8) + [0, 0, 0, 0, 0, 0, 0, 0, 1], "Vorbis's framing bit")
    }

    func test_paginate_continuesAPacketLongerThanAPage_andEndsThePageWithTheLastPacket() throws {
        let long = [UInt8](repeating: 7, count: 255 * 255 + 10)
        let pages = OggTag.paginate([long, [1, 2]], serial: 0xABCD, sequence: 1)
        XCTAssertEqual(pages.count, 2)
        let first = try XCTUnwrap(OggPage.parse(pages[0]))
        XCTAssertEqual(first.flags, 0)
        XCTAssertEqual(first.sequence, 1)
        XCTAssertEqual(first.serial, 0xABCD)
        XCTAssertEqual(first.lacing, [UInt8](repeating: 255, count: 255))
        let second = try XCTUnwrap(OggPage.parse(pages[1]))
        XCTAssertEqual(second.flags, 1, "continued")
        XCTAssertEqual(second.sequence, 2)
        XCTAssertEqual(second.lacing, [10, 2])
        XCTAssertEqual(second.body, [UInt8](repeating: 7, count: 10) + [1, 2])
        for page in pages {
            var zeroed = page
            zeroed.replaceSubrange(22..<26, with: [0, 0, 0, 0])
            XCTAssertEqual(
                page[22..<26].reversed().reduce(UInt32(0)) { $0 << 8 | UInt32($1) }, OggPage.crc32(zeroed), "its CRC")
        }
    }

    func test_renumber_movesTheSequenceOfItsStreamOnly_andMakesTheCRCAgain() throws {
        let page = OggPage.encode(
            OggPage.Fields(flags: 0, granule: 960, serial: 5, sequence: 3, lacing: [2], body: [9, 9]))
        var moved = page
        OggPage.renumber(&moved, at: 0, length: moved.count, serial: 5, delta: 2)
        XCTAssertEqual(
            moved,
            OggPage.encode(OggPage.Fields(flags: 0, granule: 960, serial: 5, sequence: 5, lacing: [2], body: [9, 9])))
        var other = page
        OggPage.renumber(&other, at: 0, length: other.count, serial: 6, delta: 2)
        XCTAssertEqual(other, page, "another stream's page is left as it is")
    }
}
