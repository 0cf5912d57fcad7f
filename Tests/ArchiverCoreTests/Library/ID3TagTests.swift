import ArchiverCoreTesting
import Foundation
import XCTest

// The ID3v2.4 tag byte by byte: its header, syncsafe sizes, each frame's layout, chapters and their table of
// contents, and where an MP3's own tags end (several, with a footer, unsynchronised, lying about their size).
@testable import ArchiverCore

final class ID3TagTests: XCTestCase {
    func test_syncsafe_keepsSevenBitsPerByte() {
        XCTAssertEqual(ID3Tag.syncsafe(0), [0, 0, 0, 0])
        XCTAssertEqual(ID3Tag.syncsafe(127), [0, 0, 0, 127])
        XCTAssertEqual(ID3Tag.syncsafe(128), [0, 0, 1, 0])
        XCTAssertEqual(ID3Tag.syncsafe(0x0FFF_FFFF), [127, 127, 127, 127])
        XCTAssertEqual(ID3Tag.syncsafe(300_000), [0, 18, 39, 96])
    }

    func test_bytes_aTitleOnly_isAHeaderAndOneUTF8TextFrame() {
        let bytes = ID3Tag.bytes(for: EpisodeTags(title: "Ünï"))
        let body: [UInt8] = [3] + Array("Ünï".utf8)
        let frame: [UInt8] = Array("TIT2".utf8) + [0, 0, 0, UInt8(body.count), 0, 0] + body
        XCTAssertEqual(bytes, Array("ID3".utf8) + [4, 0, 0, 0, 0, 0, UInt8(frame.count)] + frame)
    }

    func test_bytes_everyField_inOrder_withCommentAndPicture() throws {
        var tags = EpisodeTags(
            title: "T", show: "S", author: "A", date: "2024-05-01", episode: 7, season: 2, description: "D")
        tags.cover = EpisodeTags.Cover(mimeType: "image/png", bytes: [1, 2, 3])
        let frames = try Self.frames(ID3Tag.bytes(for: tags))
        XCTAssertEqual(frames.map(\.id), ["TIT2", "TALB", "TPE1", "TPE2", "TDRC", "TRCK", "TPOS", "COMM", "APIC"])
        XCTAssertEqual(frames[2].body, [3] + Array("A".utf8), "the author as artist")
        XCTAssertEqual(frames[3].body, [3] + Array("S".utf8), "the show as album artist")
        XCTAssertEqual(frames[5].body, [3] + Array("7".utf8))
        XCTAssertEqual(frames[7].body, [3] + Array("und".utf8) + [0, UInt8(ascii: "D")])
        XCTAssertEqual(frames[8].body, [3] + Array("image/png".utf8) + [0, 3, 0, 1, 2, 3])
    }

    func test_bytes_aLongDescription_isCutToItsLimit_atACharacter() throws {
        let frames = try Self.frames(ID3Tag.bytes(for: EpisodeTags(description: String(repeating: "é", count: 5000))))
        let text = String(decoding: frames[0].body.dropFirst(5), as: UTF8.self)
        XCTAssertEqual(text.utf8.count, ID3Tag.descriptionLimit)
        XCTAssertFalse(text.contains("\u{FFFD}"), "never half a character")
    }

    func test_chapters_areCHAPFramesUnderAnOrderedTopLevelCTOC_eachEndingWhereTheNextStarts() throws {
        var tags = EpisodeTags()
        tags.chapters = [LibraryChapter(startMilliseconds: 0, title: "A"), .init(startMilliseconds: 5500, title: "B")]
        tags.durationMilliseconds = 9000
        let frames = try Self.frames(ID3Tag.bytes(for: tags))
        XCTAssertEqual(frames.map(\.id), ["CTOC", "CHAP", "CHAP"])
        XCTAssertEqual(
            frames[0].body, Array("toc".utf8) + [0, 3, 2] + Array("ch0".utf8) + [0] + Array("ch1".utf8) + [0])
        let second = frames[2].body
        XCTAssertEqual(Array(second[0..<4]), Array("ch1".utf8) + [0])
        XCTAssertEqual(Array(second[4..<8]), [0, 0, 0x15, 0x7C], "starts at 5,500 ms")
        XCTAssertEqual(Array(second[8..<12]), [0, 0, 0x23, 0x28], "the last ends at the audio's end, 9,000 ms")
        XCTAssertEqual(Array(second[12..<20]), [UInt8](repeating: 0xFF, count: 8), "no byte offsets")
        let sub = try Self.frames(
            Array("ID3".utf8) + [4, 0, 0] + ID3Tag.syncsafe(UInt32(second.count - 20)) + second[20...])
        XCTAssertEqual(sub.map(\.id), ["TIT2"])
        XCTAssertEqual(sub[0].body, [3, UInt8(ascii: "B")])
    }

    func test_leadingTagsLength_skipsEveryTagAtTheStart_withFootersAndPadding() {
        let audio: [UInt8] = [0xFF, 0xFB, 0x90, 0x64]
        let first = Array("ID3".utf8) + [3, 0, 0x80, 0, 0, 0, 20] + [UInt8](repeating: 0, count: 20)  // unsynchronised
        let second =
            Array("ID3".utf8) + [4, 0, 0x10, 0, 0, 1, 0] + [UInt8](repeating: 0, count: 128)
            + Array("3DI".utf8) + [4, 0, 0x10, 0, 0, 1, 0]
        XCTAssertEqual(ID3Tag.leadingTagsLength(audio), 0)
        XCTAssertEqual(ID3Tag.leadingTagsLength(first + audio), 30)
        XCTAssertEqual(ID3Tag.leadingTagsLength(first + second + audio), 30 + 148)
        XCTAssertEqual(ID3Tag.leadingTagsLength(Array("ID3".utf8) + [4, 0, 0, 0x80, 0, 0, 0]), 0, "not syncsafe")
    }

    func test_mpegDuration_fromAXingFrameCount_orTheBitrate() {
        // MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, stereo.
        let header: [UInt8] = [0xFF, 0xFB, 0x90, 0x04]
        XCTAssertEqual(MPEGDuration.milliseconds(head: header, audioBytes: 160_000), 10_000)
        var xing = header + [UInt8](repeating: 0, count: 32) + Array("Xing".utf8) + [0, 0, 0, 1] + [0, 0, 1, 0x7E]
        xing += [UInt8](repeating: 0, count: 8)
        XCTAssertEqual(MPEGDuration.milliseconds(head: xing, audioBytes: 1), 9978, "382 frames of 1152 samples")
        XCTAssertNil(MPEGDuration.milliseconds(head: [0x49, 0x44, 0x33, 4], audioBytes: 100))
        // Files joined end to end: the first one's header counts its own bytes only; the bitrate tells the rest.
        var joined = header + [UInt8](repeating: 0, count: 32) + Array("Xing".utf8) + [0, 0, 0, 3] + [0, 0, 1, 0x7E]
        joined += [0, 2, 0x71, 0x00] + [UInt8](repeating: 0, count: 4)
        XCTAssertEqual(MPEGDuration.milliseconds(head: joined, audioBytes: 160_000 * 20), 200_000)
        XCTAssertEqual(MPEGDuration.milliseconds(head: joined, audioBytes: 160_000), 9978, "its own bytes: its count")
    }

    /// The frames of a tag: ID and body, read by their syncsafe sizes.
    static func frames(_ tag: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws
        -> [(id: String, body: [UInt8])]
    {
        XCTAssertEqual(Array(tag[0..<5]), Array("ID3".utf8) + [4, 0], file: file, line: line)
        let size = tag[6..<10].reduce(0) { $0 << 7 | Int($1) }
        XCTAssertEqual(size, tag.count - 10, "the header's size is the frames'", file: file, line: line)
        var frames: [(String, [UInt8])] = []
        var offset = 10
        while offset < tag.count {
            let id = String(decoding: tag[offset..<(offset + 4)], as: UTF8.self)
            let length = tag[(offset + 4)..<(offset + 8)].reduce(0) { $0 << 7 | Int($1) }
            XCTAssertEqual(Array(tag[(offset + 8)..<(offset + 10)]), [0, 0], file: file, line: line)
            frames.append((id, Array(tag[(offset + 10)..<(offset + 10 + length)])))
            offset += 10 + length
        }
        return frames
    }
}
