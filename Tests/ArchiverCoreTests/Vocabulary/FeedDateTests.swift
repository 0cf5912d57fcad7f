import Foundation
import XCTest

// Dates in every form real feeds use; an unreadable date is nil, never "now" and never a crash.
@testable import ArchiverCore

final class FeedDateTests: XCTestCase {
    private func assertRFC822(
        _ text: String, _ expected: TimeInterval?, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(FeedDate.parseRFC822(text)?.timeIntervalSince1970, expected, text, file: file, line: line)
    }

    func test_parseRFC822_acceptsTheVariantsFeedsUse() {
        let base: TimeInterval = 1_736_514_000  // 2025-01-10 13:00:00 UTC
        assertRFC822("Mon, 10 Jan 2025 13:00:00 GMT", base)  // wrong weekday: ignored
        assertRFC822("Fri, 10 Jan 2025 13:00:00 UT", base)
        assertRFC822("Fri, 10 Jan 2025 13:00:00 UTC", base)
        assertRFC822("Fri, 10 Jan 2025 13:00:00 Z", base)
        assertRFC822("Fri, 10 Jan 2025 15:00:00 +0200", base)
        assertRFC822("Fri, 10 Jan 2025 15:00:00 +02:00", base)
        assertRFC822("Fri, 10 Jan 2025 13:00:00 -0000", base)
        assertRFC822("Fri, 10 Jan 2025 08:00:00 EST", base)
        assertRFC822("Fri, 10 Jan 2025 05:00:00 PST", base)
        assertRFC822("Fri, 10 Jan 2025 06:00:00 PDT", base)
        assertRFC822("Fri, 10 Jan 2025 14:00:00 CET", base)
        assertRFC822("Fri, 10 Jan 2025 15:00:00 CEST", base)
        assertRFC822("10 Jan 2025 13:00:00 GMT", base)  // no weekday
        assertRFC822("Fri, 10 Jan 2025 13:00 GMT", base)  // no seconds
        assertRFC822("Fri, 10 Jan 25 13:00:00 GMT", base)  // two-digit year
        assertRFC822("Fri 10 January 2025 13:00:00 GMT", base)  // full month, no comma
        assertRFC822("Fri, 10 Jan 2025 13:00:00", base)  // no zone: UTC
        assertRFC822("Fri, 10 Jan 2025 13:00:00.500 GMT", base + 0.5)
        assertRFC822("Fri, 10 Jan 2025 05:00:00 -0800 (PST)", base)
        assertRFC822("Sat, 1 Feb 2025 9:05:03 GMT", 1_738_400_703)  // one-digit day and hour
        assertRFC822("Wed, 02 Oct 02 08:00:00 EST", 1_033_563_600)  // 2002, not year 2
        assertRFC822("Thu, 01 Jan 98 00:00:00 GMT", 883_612_800)  // 1998
        assertRFC822("2025-01-10T13:00:00Z", base)  // RFC 3339 where RFC 822 belongs
    }

    /// Every form RFC 9110 §5.6.7 says a recipient reads, then the broken ones RSS feeds write. Two-digit years
    /// follow RFC 2822 §4.3 (and RFC 850's own readers): 00-49 are 2000-2049, 50-99 are 1950-1999.
    func test_parseRFC822_readsEveryHTTPDateForm_andTheBrokenOnesFeedsWrite() {
        let rfc9110Example: TimeInterval = 784_111_777  // Sun, 06 Nov 1994 08:49:37 GMT
        let base: TimeInterval = 1_736_514_000  // 2025-01-10 13:00:00 UTC
        let table: [(String, TimeInterval?, String)] = [
            // RFC 9110 §5.6.7: the three forms of an HTTP-date.
            ("Sun, 06 Nov 1994 08:49:37 GMT", rfc9110Example, "IMF-fixdate"),
            ("Sunday, 06-Nov-94 08:49:37 GMT", rfc9110Example, "RFC 850"),
            ("Sun Nov  6 08:49:37 1994", rfc9110Example, "asctime"),
            // RFC 850 as feeds vary it.
            ("Sunday, 06-Nov-1994 08:49:37 GMT", rfc9110Example, "RFC 850, four-digit year"),
            ("Sunday, 6-Nov-94 08:49:37 GMT", rfc9110Example, "RFC 850, one-digit day"),
            ("Sunday, 06-nov-94 08:49:37 gmt", rfc9110Example, "RFC 850, lower case"),
            ("Sunday, 06-Nov-94 03:49:37 EST", rfc9110Example, "RFC 850, named zone"),
            ("Sunday, 06-Nov-94 10:49:37 +0200", rfc9110Example, "RFC 850, numeric zone"),
            ("06-Nov-94 08:49:37 GMT", rfc9110Example, "RFC 850, no weekday"),
            ("Friday, 10-Jan-25 13:00:00 GMT", base, "RFC 850, 2025"),
            ("Thursday, 01-Jan-70 00:00:00 GMT", 0, "RFC 850, 1970"),
            ("Sun Nov 6 08:49:37 1994", rfc9110Example, "asctime, one space"),
            // Broken RSS dates.
            ("10 Jan 2025 13:00:00 GMT", base, "missing weekday"),
            ("Fri, 10 Jan 25 13:00:00 GMT", base, "two-digit year, 00-49"),
            ("Thu, 01 Jan 98 00:00:00 GMT", 883_612_800, "two-digit year, 50-99"),
            ("Sat, 01 Jan 00 00:00:00 GMT", 946_684_800, "two-digit year 00"),
            ("Fri, 31 Dec 49 00:00:00 GMT", 2_524_521_600, "two-digit year 49"),
            ("Sat, 01 Jan 50 00:00:00 GMT", -631_152_000, "two-digit year 50"),
            ("Fri, 10 Jan 2025 08:00:00 EST", base, "EST"),
            ("Fri, 10 Jan 2025 06:00:00 PDT", base, "PDT"),
            ("Fri, 10 Jan 2025 15:00:00 CEST", base, "CEST"),
            ("Fri, 10 Jan 2025 14:00:00 CET", base, "CET"),
            ("Fri, 10 Jan 2025 22:00:00 JST", base, "JST"),
            ("Fri, 10 Jan 2025 13:00 GMT", base, "no seconds"),
            ("Fri, 10 jan 2025 13:00:00 GMT", base, "lower-case month"),
            ("FRI, 10 JAN 2025 13:00:00 GMT", base, "upper case"),
            ("Fri,  10  Jan  2025  13:00:00  GMT", base, "extra spaces"),
            ("  Fri, 10 Jan 2025 13:00:00 GMT  ", base, "spaces around"),
            ("Fri, 10 Jan 2025 13:00:00", base, "no zone: UTC"),
            ("Fri 10 Jan 2025 13:00:00 GMT", base, "no comma"),
            ("Fri, 10 January 2025 13:00:00 GMT", base, "full month name"),
            ("Fri, 10 Jan 2025 13:00:00 +00:00", base, "offset with a colon"),
            ("Fri, 10 Jan 2025 1:00:00 PM GMT", base, "12-hour clock"),
            ("Fri, 10 Jan 2025 12:30:00 AM GMT", 1_736_469_000, "12-hour clock, half past midnight"),
            ("Fri, 10 Jan 2025 13:00:00 PM GMT", nil, "13 PM"),
        ]
        for (text, expected, form) in table {
            XCTAssertEqual(FeedDate.parseRFC822(text)?.timeIntervalSince1970, expected, "\(form): \(text)")
        }
    }

    func test_parseRFC822_agreesWithFoundationOnCanonicalDates() {
        // The canonical form takes a fast path of its own: check it against Foundation's formatter over many
        // instants, zones and spellings.
        var generator = SplitMix64(seed: 20_261_122)  // fixed: the same 500 cases on every run
        let formats = ["EEE, dd MMM yyyy HH:mm:ss Z", "d MMM yyyy HH:mm:ss Z", "EEE, dd MMM yyyy HH:mm Z"]
        for _ in 0..<500 {
            let instant = Double(Int.random(in: -2_000_000_000...4_000_000_000, using: &generator))
            let zone = TimeZone(secondsFromGMT: Int.random(in: -48...56, using: &generator) * 15 * 60)!
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = zone
            formatter.dateFormat = formats.randomElement(using: &generator)!
            var text = formatter.string(from: Date(timeIntervalSince1970: instant))
            if Bool.random(using: &generator) { text = text.lowercased() }
            let expected = formatter.date(from: formatter.string(from: Date(timeIntervalSince1970: instant)))
            XCTAssertEqual(FeedDate.parseRFC822(text), expected, text)
        }
        assertRFC822("Fri, 10 Jan 2025 13:00:00 gmt", 1_736_514_000)
        assertRFC822("Fri, 31 Feb 2025 13:00:00 GMT", nil)
    }

    func test_parseRFC822_unreadableDates_areNil() {
        for text in [
            "", "yesterday", "Fri, 32 Jan 2025 13:00:00 GMT", "Fri, 10 Foo 2025 13:00:00 GMT",
            "Fri, 10 Jan 2025 25:61:00 GMT", "30 Feb 2025", "13:00:00",
        ] {
            XCTAssertNil(FeedDate.parseRFC822(text), text)
        }
    }

    func test_parseRFC3339_withAndWithoutFractionsAndOffsets() {
        XCTAssertEqual(FeedDate.parseRFC3339("2025-01-10T13:00:00Z")?.timeIntervalSince1970, 1_736_514_000)
        XCTAssertEqual(FeedDate.parseRFC3339("2025-01-10t13:00:00z")?.timeIntervalSince1970, 1_736_514_000)
        XCTAssertEqual(
            FeedDate.parseRFC3339("2025-01-10T13:00:00.123456Z")!.timeIntervalSince1970, 1_736_514_000.123456,
            accuracy: 1e-5)
        XCTAssertEqual(FeedDate.parseRFC3339("2025-01-10T15:30:00+02:30")?.timeIntervalSince1970, 1_736_514_000)
        XCTAssertEqual(FeedDate.parseRFC3339("2025-01-10T08:00:00-0500")?.timeIntervalSince1970, 1_736_514_000)
        XCTAssertEqual(FeedDate.parseRFC3339("2025-01-10 13:00:00")?.timeIntervalSince1970, 1_736_514_000)
        XCTAssertEqual(FeedDate.parseRFC3339("2025-01-10")?.timeIntervalSince1970, 1_736_467_200)
        XCTAssertNil(FeedDate.parseRFC3339("2025-13-10T13:00:00Z"))
        XCTAssertNil(FeedDate.parseRFC3339("2025-01-10T13:00:00Zjunk"))
        XCTAssertNil(FeedDate.parseRFC3339("10 Jan 2025"))
    }

    func test_iso8601_formatsUTCToTheSecond() {
        XCTAssertEqual(FeedDate.iso8601(Date(timeIntervalSince1970: 1_736_514_000.9)), "2025-01-10T13:00:00Z")
        XCTAssertEqual(FeedDate.iso8601(Date(timeIntervalSince1970: -1)), "1969-12-31T23:59:59Z")
        XCTAssertEqual(FeedDate.iso8601(Date(timeIntervalSince1970: 951_782_400)), "2000-02-29T00:00:00Z")
    }

    func test_duration_readsTheFormsFeedsUse() {
        XCTAssertEqual(FeedDate.duration("1:02:03"), 3723)
        XCTAssertEqual(FeedDate.duration("62:03"), 3723)
        XCTAssertEqual(FeedDate.duration("3723"), 3723)
        XCTAssertEqual(FeedDate.duration("00:00:05.5"), 5.5)
        XCTAssertEqual(FeedDate.duration("90:00"), 5400, "the first field may pass 59")
        for bad in ["", ":", "1::2", "12:75", "1:2:3:4", "-5", "1h", "1.5:00", "1:", " 60"] {
            XCTAssertNil(FeedDate.duration(bad), bad)
        }
    }
}

/// A small seeded random number generator, so generated test cases are the same on every run.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
