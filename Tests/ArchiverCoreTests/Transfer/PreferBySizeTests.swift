import Foundation
import XCTest

// `--prefer` by height, bitrate and length (`video/mp4;height<=480`, `smallest`, `largest`), table by table: which
// file each list of preferences chooses among five renditions of one video, that a file without the attribute a
// preference needs never beats one that has it, that hostile values in a feed never win, and what a bad preference
// is told.
@testable import ArchiverCore

final class PreferBySizeTests: XCTestCase {
    /// An MP3 enclosure (length 5000, no height) and video/mp4 at 1080, 720, 480, 360 and 240 lines, each
    /// `height * 100` bytes and `height * 1000` bits a second, in that order.
    private let episode: Episode = {
        var episode = Episode(
            title: "E", guid: "g", url: "https://h.example/e.mp3", mimeType: "audio/mpeg", length: 5000)
        episode.alternates = [1080, 720, 480, 360, 240].map { height in
            AlternateEnclosure(
                type: "video/mp4", length: Int64(height * 100), bitrate: Double(height * 1000), height: height,
                sources: ["https://h.example/\(height).mp4"])
        }
        return episode
    }()

    /// The height of the file chosen, 0 for the enclosure.
    private func chosen(_ preferences: [String], for episode: Episode? = nil) -> Int {
        PreferredFile.choice(preferences, for: episode ?? self.episode).map { $0.height ?? -1 } ?? 0
    }

    func test_eachPreference_choosesTheFileATableSays() {
        let table: [(preferences: [String], height: Int, why: String)] = [
            (["video/mp4;height<=480"], 480, "the highest not above the bound"),
            (["height<=480"], 480, "no type: any file"),
            (["video/mp4;height<480"], 360, "strictly below"),
            (["video/mp4;height>=720"], 720, "the lowest not below the bound"),
            (["video/mp4;height>720"], 1080, "strictly above"),
            (["video/mp4;height=360"], 360, "exactly"),
            (["video/mp4;height=300"], 0, "none matches: the enclosure"),
            (["video/mp4;height<=100"], 0, "none matches: the enclosure"),
            (["smallest"], 0, "by length: the enclosure's 5000 bytes"),
            (["largest"], 1080, "by length"),
            (["video/mp4;smallest"], 240, "the smallest video"),
            (["video/mp4;height>=360;smallest"], 360, "bounds and an order"),
            (["bitrate<=500k"], 480, "by bitrate, with a suffix"),
            (["length<=40000;largest"], 360, "by length, bounded"),
            (["video/mp4;height=2160", "video/mp4;height<=480"], 480, "the first that matches anything"),
            (["video/mp4;height=2160", "smallest"], 0, "then the smallest of all: the enclosure"),
            (["audio/mpeg", "video/mp4;height<=480"], 0, "the type preference first, as written"),
            (["video/mp4;height<=480", "audio/mpeg"], 480, "the height preference first, as written"),
            (["audio/opus;height<=480"], 0, "the type must hold too"),
        ]
        for row in table {
            XCTAssertEqual(chosen(row.preferences), row.height, "\(row.preferences): \(row.why)")
        }
    }

    func test_aFileWithoutTheAttribute_neverBeatsOneWithIt() {
        // The enclosure gives no height: `height<=480` passes over it although it comes first.
        XCTAssertEqual(chosen(["height<=4320"]), 1080)
        // No length anywhere but on the enclosure: `smallest` is the enclosure; without it, nothing matches.
        var bare = episode
        bare.alternates = bare.alternates.map {
            var alternate = $0
            alternate.length = nil
            return alternate
        }
        XCTAssertEqual(chosen(["largest"], for: bare), 0, "the only file with a length")
        bare.length = nil
        XCTAssertEqual(chosen(["largest", "video/mp4;height<=480"], for: bare), 480, "largest matches nothing")
        // What the `default` alternate says of the enclosure is the enclosure's.
        var described = episode
        described.alternates.append(
            AlternateEnclosure(type: "audio/mpeg", height: 480, isDefault: true, sources: [episode.url]))
        XCTAssertEqual(chosen(["height<=480"], for: described), 0, "the enclosure, first among equals")
    }

    func test_hostileValuesInAFeed_neverMatchAndNeverWin() {
        var hostile = episode
        hostile.alternates = [
            AlternateEnclosure(type: "video/mp4", length: -5, height: -1, sources: ["https://h.example/neg.mp4"]),
            AlternateEnclosure(type: "video/mp4", length: 0, height: 0, sources: ["https://h.example/zero.mp4"]),
            AlternateEnclosure(
                type: "video/mp4", length: .max, bitrate: .infinity, height: .max,
                sources: ["https://h.example/huge.mp4"]),
            AlternateEnclosure(
                type: "video/mp4", length: 1 << 45, bitrate: 1e300, height: 40_000,
                sources: ["https://h.example/big.mp4"]),
            AlternateEnclosure(
                type: "video/mp4", length: 9000, bitrate: .nan, height: 360, sources: ["https://h.example/360.mp4"]),
        ]
        hostile.length = nil
        for preferences in [["height<=480"], ["smallest"], ["largest"], ["height>=1"], ["bitrate>=1"], ["length>=1"]] {
            let choice = PreferredFile.choice(preferences, for: hostile)
            let expected = preferences == ["bitrate>=1"] ? nil : "https://h.example/360.mp4"
            XCTAssertEqual(choice?.sources.first, expected, "\(preferences)")
        }
    }

    func test_aFeedsHeight_isKeptOnlyWhenPositive() throws {
        let xml = """
            <rss xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>T</title><item><guid>g</guid>
            <enclosure url="https://h.example/e.mp3" type="audio/mpeg" length="10"/>
            <podcast:alternateEnclosure type="video/mp4" height="-480" length="-3" bitrate="x"/>
            <podcast:alternateEnclosure type="video/mp4" height="99999999999999999999999" length="abc"/>
            <podcast:alternateEnclosure type="video/mp4" height="480" length="4800" bitrate="480000.5"/>
            </item></channel></rss>
            """
        let feed = try FeedParser.parse(Data(xml.utf8), url: URL(string: "https://h.example/feed.xml"))
        let alternates = try XCTUnwrap(feed.episodes.first).alternates
        XCTAssertEqual(alternates.map(\.height), [nil, nil, 480])
        XCTAssertEqual(alternates.map(\.length), [nil, nil, 4800])
        XCTAssertEqual(alternates.map(\.bitrate), [nil, nil, 480000.5])
    }

    func test_theWhy_namesThePreferenceThatChose_orNone() {
        let matched = PreferredFile.decide(["audio/opus", "video/mp4;height<=480"], for: episode).why
        XCTAssertEqual(matched?.preference, "video/mp4;height<=480")
        XCTAssertEqual(matched?.height, 480)
        XCTAssertEqual(matched?.isEnclosure, false)
        let unmet = PreferredFile.decide(["video/mp4;height=2160"], for: episode).why
        XCTAssertNil(unmet?.preference)
        XCTAssertEqual(unmet?.preferences, "video/mp4;height=2160")
        XCTAssertEqual(unmet?.isEnclosure, true)
        XCTAssertEqual(unmet?.length, 5000)
        XCTAssertNil(PreferredFile.decide([], for: episode).why, "no --prefer: nothing to say")
    }

    func test_preferences_areCheckedAndWrittenBackAsTyped() {
        let good: [(String, String)] = [
            ("Video/MP4; Height<=480", "video/mp4;height<=480"),
            ("smallest", "smallest"),
            ("opus,LARGEST", "opus,largest"),
            ("bitrate<=64K;length>=1g", "bitrate<=64k;length>=1g"),
            ("height>=720;height<=1080;audio/mpeg", "height>=720;height<=1080;audio/mpeg"),
        ]
        for (text, written) in good { XCTAssertEqual(try ShowSettings.checkPrefer(text), written, text) }
        let bad: [(String, String)] = [
            ("video/mp4;height<=abc", "height<=abc needs a whole number above 0 and at most 32768"),
            ("height<=-480", "height<=-480 needs a whole number above 0 and at most 32768"),
            ("height<=0", "height<=0 needs a whole number above 0 and at most 32768"),
            ("height<=99999999999999999999999", "height<=99999999999999999999999 needs a whole number above 0"),
            ("height<=480k", "height<=480k needs a whole number above 0 and at most 32768"),
            ("length<=999999999g", "length<=999999999g needs a whole number above 0 and at most 17592186044416"),
            ("width<=480", "width<=480 bounds none of height, bitrate or length"),
            ("height<=<480", "height<=<480 needs a whole number"),
            ("smallest;largest", "smallest;largest says smallest or largest twice"),
            ("audio/mpeg;video/mp4", "video/mp4 is not a media type, a codec, smallest, largest or a bound"),
            ("video/mp4;", "an empty part is not a media type"),
            ("opus,,mp3", "needs preferences separated by commas"),
        ]
        for (text, says) in bad {
            XCTAssertThrowsError(try ShowSettings.checkPrefer(text), text) { error in
                XCTAssertTrue(
                    (error as? SettingProblem)?.reason.hasPrefix(says) == true, "\(text): \(error)")
            }
        }
    }
}
