// Publication dates as real feeds write them: RFC 822 in all its variants (the HTTP-date forms of RFC 9110
// §5.6.7 among them), and RFC 3339.
//
// DateFormatter rejects much of what feeds contain (CEST, a missing weekday or seconds, no zone) and is slow;
// this hand-written reader accepts every variant podcast feeds are known to use and is exact about the rest.
// A date it cannot read is nil, never "now".
import Foundation

/// Reads and writes the date forms used in feeds.
public enum FeedDate {
    /// Parses an RFC 822 / RFC 2822 date such as `Mon, 10 Jan 2025 13:00:00 GMT`, falling back to RFC 3339.
    ///
    /// Reads the three forms of an HTTP-date (RFC 9110 §5.6.7: IMF-fixdate, RFC 850's
    /// `Sunday, 06-Nov-94 08:49:37 GMT`, asctime's `Sun Nov  6 08:49:37 1994`). Accepts a missing or wrong
    /// weekday, one-digit days and hours, missing seconds, names in any case, extra spaces, two-digit years
    /// (RFC 2822 §4.3: 00-49 are 2000-2049, 50-99 are 1950-1999), named zones (`UT`, `GMT`, US and common
    /// European and Asian zones), numeric offsets with or without a colon, a 12-hour time with AM or PM, and no
    /// zone at all (read as UTC).
    public static func parseRFC822(_ text: String) -> Date? {
        // Most feeds write the canonical form: read it straight from the bytes, without tokens or strings.
        if let date = canonicalRFC822(text) { return date }
        let scanner = DateTokens(text)
        return scanner.rfc822() ?? parseRFC3339(text)
    }

    /// `[Www, ]D[D] Mmm YYYY HH:MM[:SS] ZONE` with ZONE `+HHMM`, `-HHMM`, `GMT`, `UT`, `UTC` or `Z`; nil for
    /// anything else, which the general reader then takes.
    static func canonicalRFC822(_ text: String) -> Date? {
        var reader = ByteReader(Array(text.utf8))
        let bytes = reader.bytes
        if !reader.atEnd, DateTokens.isLetter(reader.peek), reader.peek < 0x80 {
            guard bytes.count > 4, bytes[3] == UInt8(ascii: ","), bytes[4] == UInt8(ascii: " ") else { return nil }
            reader.index = 5
        }
        guard let day = reader.digits(from: 1, to: 2), reader.take(UInt8(ascii: " ")), reader.index + 3 < bytes.count
        else { return nil }
        let name = (bytes[reader.index] & 0xDF, bytes[reader.index + 1] & 0xDF, bytes[reader.index + 2] & 0xDF)
        guard let month = canonicalMonths.firstIndex(where: { $0 == name }) else { return nil }
        reader.index += 3
        guard reader.take(UInt8(ascii: " ")), let year = reader.digits(exactly: 4), reader.take(UInt8(ascii: " ")),
            let hour = reader.digits(exactly: 2), reader.take(UInt8(ascii: ":")), let minute = reader.digits(exactly: 2)
        else { return nil }
        var second = 0
        if reader.take(UInt8(ascii: ":")) {
            guard let value = reader.digits(exactly: 2) else { return nil }
            second = value
        }
        guard reader.take(UInt8(ascii: " ")) else { return nil }
        var offset = 0
        if let sign = reader.sign() {
            guard let zone = reader.digits(exactly: 4), reader.atEnd else { return nil }
            offset = (zone / 100 * 3600 + zone % 100 * 60) * sign
        } else {
            let rest = String(decoding: bytes[reader.index...], as: UTF8.self)
            guard rest == "GMT" || rest == "UT" || rest == "UTC" || rest == "Z" else { return nil }
        }
        return CivilDate.makeDate(
            year: year, month: month + 1, day: day, hour: hour, minute: minute, second: Double(second), offset: offset)
    }

    private static let canonicalMonths: [(UInt8, UInt8, UInt8)] = [
        "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
    ].map { name in
        let bytes = Array(name.utf8)
        return (bytes[0], bytes[1], bytes[2])
    }

    /// Parses an RFC 3339 / ISO 8601 timestamp such as `2025-01-10T13:00:00.5+02:00`; a date alone is midnight UTC.
    public static func parseRFC3339(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        var reader = ByteReader(bytes)
        reader.skipSpaces()
        guard let year = reader.digits(exactly: 4), reader.take(UInt8(ascii: "-")),
            let month = reader.digits(exactly: 2), reader.take(UInt8(ascii: "-")),
            let day = reader.digits(exactly: 2)
        else { return nil }
        var hour = 0
        var minute = 0
        var second = 0.0
        var offset = 0
        if reader.take(UInt8(ascii: "T")) || reader.take(UInt8(ascii: "t")) || reader.take(UInt8(ascii: " ")) {
            guard let h = reader.digits(exactly: 2), reader.take(UInt8(ascii: ":")), let m = reader.digits(exactly: 2)
            else { return nil }
            hour = h
            minute = m
            if reader.take(UInt8(ascii: ":")) {
                guard let s = reader.digits(exactly: 2) else { return nil }
                second = Double(s)
                if reader.take(UInt8(ascii: ".")) || reader.take(UInt8(ascii: ",")) {
                    second += reader.fraction()
                }
            }
            reader.skipSpaces()
            if reader.take(UInt8(ascii: "Z")) || reader.take(UInt8(ascii: "z")) {
                offset = 0
            } else if let sign = reader.sign() {
                guard let zone = reader.numericOffset() else { return nil }
                offset = sign * zone
            }
        }
        reader.skipSpaces()
        guard reader.atEnd else { return nil }
        return CivilDate.makeDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
    }

    /// Reads an `itunes:duration`: `H:MM:SS`, `MM:SS` or seconds, with optional fractions of a second.
    /// Returns nil for anything else, a negative value, or minutes or seconds past 59 after the first field.
    public static func duration(_ text: String) -> TimeInterval? {
        var total: TimeInterval = 0
        var field: TimeInterval = 0
        var fields = 1
        var digits = 0
        var fraction: TimeInterval = 0  // the place value of the next digit after a ".", 0 before one
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"):
                let digit = TimeInterval(byte - UInt8(ascii: "0"))
                if fraction > 0 {
                    field += digit * fraction
                    fraction /= 10
                } else {
                    field = field * 10 + digit
                    digits += 1
                }
            case UInt8(ascii: ":"):
                guard digits > 0, fraction == 0, fields < 3, fields == 1 || field < 60 else { return nil }
                total = total * 60 + field
                field = 0
                digits = 0
                fields += 1
            case UInt8(ascii: "."):
                guard digits > 0, fraction == 0 else { return nil }
                fraction = 0.1
            default:
                return nil
            }
        }
        guard digits > 0, fields == 1 || field < 60 else { return nil }
        return total * 60 + field
    }

    /// Formats a date as `YYYY-MM-DDTHH:MM:SSZ` in UTC (seconds truncated), digits written straight into bytes.
    public static func iso8601(_ date: Date) -> String {
        let total = Int(date.timeIntervalSince1970.rounded(.down))
        var days = total / 86_400
        var seconds = total % 86_400
        if seconds < 0 {
            seconds += 86_400
            days -= 1
        }
        let (year, month, day) = CivilDate.civil(fromDays: days)
        guard (0...9999).contains(year) else {
            return String(
                format: "%04d-%02d-%02dT%02d:%02d:%02dZ", year, month, day, seconds / 3600, seconds / 60 % 60,
                seconds % 60)
        }
        var bytes = [UInt8](repeating: 0, count: 20)
        func put(_ value: Int, at offset: Int, digits: Int) {
            var value = value
            for position in stride(from: offset + digits - 1, through: offset, by: -1) {
                bytes[position] = UInt8(0x30 + value % 10)
                value /= 10
            }
        }
        put(year, at: 0, digits: 4)
        put(month, at: 5, digits: 2)
        put(day, at: 8, digits: 2)
        put(seconds / 3600, at: 11, digits: 2)
        put(seconds / 60 % 60, at: 14, digits: 2)
        put(seconds % 60, at: 17, digits: 2)
        for (offset, separator) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":"), (19, "Z")]
            as [(Int, Unicode.Scalar)]
        {
            bytes[offset] = UInt8(separator.value)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Formats a date as `YYYY-MM-DD` in UTC.
    public static func day(_ date: Date) -> String {
        String(iso8601(date).prefix(10))
    }
}
