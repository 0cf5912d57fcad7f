// The pieces of an RFC 822 date as feeds write them (loosely: names in any case, missing commas, two-digit
// years, odd zones), read from the bytes without Foundation's formatters. The other two forms of an HTTP-date
// (RFC 9110 §5.6.7) are read by the same rules: RFC 850's "Sunday, 06-Nov-94 08:49:37 GMT" and asctime's
// "Sun Nov  6 08:49:37 1994".
import Foundation

/// The words and numbers of an RFC 822 date, read loosely.
struct DateTokens {
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
            } else if byte == UInt8(ascii: "-"), reader.index > 0, Self.isLetter(reader.bytes[reader.index - 1]),
                case .word(let word) = tokens.last, Self.month(word) != nil
            {
                // RFC 850's "06-Nov-94": the dash after the month is a separator, not a zone's sign.
                reader.advance()
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
        var afternoon: Bool?
        for token in tokens {
            switch token {
            case .word(let word):
                if monthIndex == nil, let month = Self.month(word) {
                    monthIndex = month
                } else if word == "AM" || word == "PM" {
                    afternoon = word == "PM"  // "1:00:00 PM": no RFC's, but read as written rather than as 01:00.
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
        if let afternoon {
            guard (1...12).contains(time[0]) else { return nil }
            time[0] = time[0] % 12 + (afternoon ? 12 : 0)
        }
        // Day then year ("10 Jan 2025"), or year first as some feeds write ("2025 Jan 10").
        var dayText = numbers[0]
        var yearText = numbers[1]
        if dayText.count == 4 {
            swap(&dayText, &yearText)
        }
        guard dayText.count <= 2, let day = Int(dayText), var year = Int(yearText) else { return nil }
        // Two-digit years (RFC 850's "06-Nov-94", and RSS dates written that way) as RFC 2822 §4.3 reads them:
        // 00-49 are 2000-2049, 50-99 are 1950-1999. Three digits are years since 1900, as RFC 2822 says too.
        switch yearText.count {
        case 2: year += year < 50 ? 2000 : 1900
        case 3: year += 1900
        case 4: break
        default: return nil
        }
        return CivilDate.makeDate(
            year: year, month: month, day: day, hour: time[0], minute: time[1],
            second: Double(time[2]) + fraction, offset: offset ?? 0)
    }

    static func month(_ word: String) -> Int? {
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

struct ByteReader {
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
