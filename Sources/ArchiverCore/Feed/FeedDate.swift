// Publication dates as real feeds write them: RFC 822 in all its variants, and RFC 3339.
//
// DateFormatter rejects much of what feeds contain (CEST, a missing weekday or seconds, no zone) and is slow;
// this hand-written reader accepts every variant podcast feeds are known to use and is exact about the rest.
// A date it cannot read is nil, never "now".
import Foundation

/// Reads and writes the date forms used in feeds.
public enum FeedDate {
    /// Parses an RFC 822 / RFC 2822 date such as `Mon, 10 Jan 2025 13:00:00 GMT`, falling back to RFC 3339.
    ///
    /// Accepts a missing or wrong weekday, one-digit days and hours, missing seconds, two-digit years
    /// (00-49 are 2000-2049), named zones (`UT`, `GMT`, US and common European and Asian zones), numeric
    /// offsets with or without a colon, and no zone at all (read as UTC).
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
        return makeDate(
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
        return makeDate(year: year, month: month, day: day, hour: hour, minute: minute, second: second, offset: offset)
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
        let (year, month, day) = civil(fromDays: days)
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

    // MARK: - Calendar arithmetic (proleptic Gregorian, UTC)

    static func makeDate(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double, offset: Int) -> Date?
    {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...24).contains(hour), (0...59).contains(minute), second >= 0, second < 61,
            abs(offset) <= 18 * 3600
        else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 - offset) + second
        return Date(timeIntervalSince1970: seconds)
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

// MARK: - RFC 822

/// The words and numbers of an RFC 822 date, read loosely.
private struct DateTokens {
    enum Token: Equatable {
        case word(String)
        case number(String)
        case time([Int], fraction: Double)
        case offset(Int)
    }

    var tokens: [Token] = []

    init(_ text: String) {
        var reader = ByteReader(Array(text.utf8))
        while !reader.atEnd {
            let byte = reader.peek
            if Self.isLetter(byte) {
                tokens.append(.word(reader.letters().uppercased()))
            } else if Self.isDigit(byte) {
                let digits = reader.digitString()
                if reader.peekIs(UInt8(ascii: ":")) {
                    var parts = [Int(digits) ?? -1]
                    while reader.take(UInt8(ascii: ":")) { parts.append(Int(reader.digitString()) ?? -1) }
                    let fraction = reader.take(UInt8(ascii: ".")) ? reader.fraction() : 0
                    tokens.append(.time(parts, fraction: fraction))
                } else {
                    tokens.append(.number(digits))
                }
            } else if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                let sign = reader.sign() ?? 1
                if let value = reader.numericOffset() {
                    tokens.append(.offset(sign * value))
                }
            } else if byte == UInt8(ascii: "(") {
                // A comment such as "(PST)": the numeric zone before it already says it all.
                while !reader.atEnd, reader.peek != UInt8(ascii: ")") { reader.advance() }
                reader.advance()
            } else {
                reader.advance()
            }
        }
    }

    func rfc822() -> Date? {
        var monthIndex: Int?
        var numbers: [String] = []
        var time: [Int] = [0, 0, 0]
        var fraction = 0.0
        var offset: Int?
        for token in tokens {
            switch token {
            case .word(let word):
                if monthIndex == nil, let month = Self.month(word) {
                    monthIndex = month
                } else if let zone = Self.zones[word] {
                    offset = (offset ?? 0) + zone
                } else if word == "T" {
                    return nil  // An ISO 8601 timestamp: leave it to the RFC 3339 reader.
                }
            case .number(let digits):
                numbers.append(digits)
            case .time(let parts, let fractionPart):
                guard parts.count >= 2, parts.count <= 3, !parts.contains(-1) else { return nil }
                time = parts + (parts.count == 2 ? [0] : [])
                fraction = fractionPart
            case .offset(let value):
                offset = (offset ?? 0) + value
            }
        }
        guard let month = monthIndex, numbers.count >= 2 else { return nil }
        // Day then year ("10 Jan 2025"), or year first as some feeds write ("2025 Jan 10").
        var dayText = numbers[0]
        var yearText = numbers[1]
        if dayText.count == 4 {
            swap(&dayText, &yearText)
        }
        guard dayText.count <= 2, let day = Int(dayText), var year = Int(yearText) else { return nil }
        switch yearText.count {
        case 2: year += year < 50 ? 2000 : 1900
        case 3: year += 1900
        case 4: break
        default: return nil
        }
        return FeedDate.makeDate(
            year: year, month: month, day: day, hour: time[0], minute: time[1],
            second: Double(time[2]) + fraction, offset: offset ?? 0)
    }

    private static func month(_ word: String) -> Int? {
        let names = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]
        guard word.count >= 3 else { return nil }
        let prefix = String(word.prefix(3))
        // Some German and French feeds write their own month names; the common ones are mapped too.
        let extra = ["MAI": 5, "OKT": 10, "DEZ": 12, "MRZ": 3, "MÄR": 3]
        if let index = names.firstIndex(of: prefix) { return index + 1 }
        return word.count <= 4 ? extra[prefix] : nil
    }

    /// Named zones, in seconds east of UTC. RFC 822's own and those real feeds use.
    static let zones: [String: Int] = [
        "UT": 0, "UTC": 0, "GMT": 0, "Z": 0, "WET": 0,
        "EST": -5 * 3600, "EDT": -4 * 3600, "CST": -6 * 3600, "CDT": -5 * 3600,
        "MST": -7 * 3600, "MDT": -6 * 3600, "PST": -8 * 3600, "PDT": -7 * 3600,
        "AKST": -9 * 3600, "AKDT": -8 * 3600, "HST": -10 * 3600, "AST": -4 * 3600, "ADT": -3 * 3600,
        "NST": -12_600, "NDT": -9000,
        "BST": 3600, "IST": 19_800, "CET": 3600, "CEST": 7200, "MET": 3600, "MEST": 7200, "WEST": 3600,
        "EET": 7200, "EEST": 10_800, "MSK": 10_800, "JST": 9 * 3600, "KST": 9 * 3600, "HKT": 8 * 3600,
        "SGT": 8 * 3600, "AWST": 8 * 3600, "ACST": 34_200, "ACDT": 37_800, "AEST": 10 * 3600,
        "AEDT": 11 * 3600, "NZST": 12 * 3600, "NZDT": 13 * 3600,
    ]

    static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte >= 0x80
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

// MARK: - Byte reading

private struct ByteReader {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index >= bytes.count }
    var peek: UInt8 { bytes[index] }

    func peekIs(_ byte: UInt8) -> Bool { !atEnd && bytes[index] == byte }

    mutating func advance() { index += 1 }

    mutating func take(_ byte: UInt8) -> Bool {
        guard peekIs(byte) else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() {
        while !atEnd, Ascii.isSpace(bytes[index]) { index += 1 }
    }

    mutating func digits(exactly count: Int) -> Int? {
        guard index + count <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<count {
            let byte = bytes[index + offset]
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        index += count
        return value
    }

    /// `minimum` to `maximum` digits (as many as there are, up to `maximum`).
    mutating func digits(from minimum: Int, to maximum: Int) -> Int? {
        var value = 0
        var count = 0
        while count < maximum, !atEnd, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value = value * 10 + Int(bytes[index] - 0x30)
            count += 1
            index += 1
        }
        return count >= minimum ? value : nil
    }

    mutating func digitString() -> String {
        let start = index
        while !atEnd, bytes[index] >= 0x30, bytes[index] <= 0x39 { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func letters() -> String {
        let start = index
        while !atEnd, DateTokens.isLetter(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func fraction() -> Double {
        var value = 0.0
        var scale = 0.1
        while !atEnd, bytes[index] >= 0x30, bytes[index] <= 0x39 {
            value += Double(bytes[index] - 0x30) * scale
            scale /= 10
            index += 1
        }
        return value
    }

    mutating func sign() -> Int? {
        if take(UInt8(ascii: "+")) { return 1 }
        if take(UInt8(ascii: "-")) { return -1 }
        return nil
    }

    /// `HH`, `HHMM` or `HH:MM`, as seconds.
    mutating func numericOffset() -> Int? {
        guard let hours = digits(exactly: 2) else { return nil }
        var minutes = 0
        if take(UInt8(ascii: ":")) {
            guard let value = digits(exactly: 2) else { return nil }
            minutes = value
        } else if let value = digits(exactly: 2) {
            minutes = value
        }
        guard hours <= 18, minutes < 60 else { return nil }
        return hours * 3600 + minutes * 60
    }
}
