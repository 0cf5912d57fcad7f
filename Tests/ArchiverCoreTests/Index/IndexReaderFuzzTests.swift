// The index readers fed deep nesting and truncation, from a fixed seed: whatever the bytes, reading returns an
// index or throws, and never recurses past the depth limit (150,000 levels overflowed the stack).
import Foundation
import XCTest

@testable import ArchiverCore

final class IndexReaderFuzzTests: XCTestCase {
    /// An index as sync writes it: entries with companions, and a failure.
    private let index: ArchiveIndex = {
        var index = ArchiveIndex(feed: "https://example.com/feed.xml", title: "Fuzz Show")
        for number in 1...3 {
            var entry = ArchiveIndex.Entry(
                key: "g\(number)", guid: "g\(number)", title: "Episode \(number)",
                url: "https://example.com/\(number).mp3", file: "Episode \(number).mp3", size: Int64(number * 100),
                sha256: String(repeating: "b", count: 64), published: "2025-01-0\(number)T00:00:00Z",
                archived: "2025-02-01T00:00:00Z")
            entry.companions = [
                CompanionFile(
                    kind: "transcript", file: "Episode \(number).en.srt", url: "https://example.com/\(number).srt",
                    type: "application/srt", language: "en", size: 10, sha256: String(repeating: "c", count: 64))
            ]
            index.record(entry)
        }
        index.failures = [
            ArchiveIndex.Failure(
                episode: Episode(title: "Four", guid: "g4", url: "https://example.com/4.mp3"), reason: "HTTP 500",
                failed: "2025-02-01T00:00:00Z")
        ]
        return index
    }()

    /// Where an object starts in the encoded index, and how deep that object is (the index itself is level 1).
    private func objectStarts(in text: [UInt8]) -> [(offset: Int, depth: Int)] {
        var starts: [(Int, Int)] = []
        var depth = 0
        var inString = false
        var escaped = false
        for (offset, byte) in text.enumerated() {
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"):
                depth += 1
                starts.append((offset, depth))
            case UInt8(ascii: "["): depth += 1
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth -= 1
            default: break
            }
        }
        return starts
    }

    private func nesting(_ levels: Int, closed: Bool) -> [UInt8] {
        let opening = [UInt8](repeating: UInt8(ascii: "["), count: levels)
        return closed ? opening + [UInt8](repeating: UInt8(ascii: "]"), count: levels) : opening
    }

    func test_deepNestingUnderUnknownKeys_isReadWithinTheLimit_andRefusedPastIt_neverRecursingFurther() throws {
        var generator = SplitMix64(seed: 25)
        let text = [UInt8](IndexFormat.encode(index))
        let starts = objectStarts(in: text)
        XCTAssertEqual(starts.map(\.depth).max(), 5, "the index, an entry, a companion (and the arrays between)")
        let depths = [1, 2, 30, 58, 59, 60, 61, 62, 63, 64, 65, 100, 513, 5_000, 150_000]
        for round in 0..<120 {
            let (offset, depth) = starts.randomElement(using: &generator)!
            let levels = round < depths.count ? depths[round] : Int.random(in: 1...20_000, using: &generator)
            var damaged = Array(text[...offset])
            damaged += Array("\"unknown\": ".utf8) + nesting(levels, closed: true) + Array(", ".utf8)
            damaged += text[(offset + 1)...]
            let data = Data(damaged)
            let context = "\(levels) levels under the object at \(offset) (level \(depth))"

            if depth + levels <= IndexFormat.maximumDepth {
                XCTAssertEqual(try IndexFormat.decode(data), index, context)
                XCTAssertNotNil(
                    IndexReader.read(data, maximumDepth: IndexFormat.maximumDepth),
                    "the fast reader takes it: \(context)")
            } else {
                XCTAssertTrue(
                    IndexReader.read(data, maximumDepth: IndexFormat.maximumDepth) == nil,
                    "the fast reader gives up: \(context)")
                XCTAssertThrowsError(try IndexFormat.decode(data), context) { error in
                    XCTAssertTrue(error is IndexFormat.LimitExceeded, "\(context): \(error)")
                }
            }
        }
    }

    func test_truncatedAndRandomlyNestedIndexes_readOrThrow_neverCrash() throws {
        var generator = SplitMix64(seed: 2025)
        let text = [UInt8](IndexFormat.encode(index))
        for round in 0..<160 {
            var damaged = text
            if round % 2 == 0 {
                // Brackets anywhere, closed or not: as damage would leave them.
                let at = Int.random(in: 0...damaged.count, using: &generator)
                let levels = [3, 70, 2_000, 20_000].randomElement(using: &generator)!
                damaged.insert(contentsOf: nesting(levels, closed: Bool.random(using: &generator)), at: at)
            }
            let cut = Int.random(in: 0...damaged.count, using: &generator)
            let data = Data(damaged.prefix(cut))

            // Whatever it reads must be what JSONDecoder reads; the rest is refused.
            if let read = try? IndexFormat.decode(data) {
                XCTAssertEqual(read, try JSONDecoder().decode(ArchiveIndex.self, from: data), "round \(round)")
            }
            _ = IndexJournal.entries(in: data)
        }
        // Cut anywhere but after its last brace, the index as written is refused.
        for cut in stride(from: 0, to: text.count - 1, by: 7) + [text.count - 2] {
            XCTAssertThrowsError(try IndexFormat.decode(Data(text.prefix(cut))), "cut at \(cut)")
        }
    }

    func test_anIndexLargerThanAnyIndex_isRefusedUnread() {
        let tooLarge = Data(count: Int(IndexFormat.maximumBytes) + 1)

        XCTAssertThrowsError(try IndexFormat.decode(tooLarge)) { error in
            XCTAssertEqual(
                (error as? IndexFormat.LimitExceeded)?.reason,
                "536870913 bytes, larger than any index (512 MB at most)")
        }
    }
}
