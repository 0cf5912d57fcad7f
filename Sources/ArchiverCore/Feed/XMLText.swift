// Entity decoding and attribute splitting for the XML tokenizer's byte ranges.
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// An attribute as ranges into the document: its qualified name and its raw (still encoded) value.
struct XMLAttributeRange {
    var name: Range<Int>
    var value: Range<Int>
}

enum XMLText {
    /// Appends the text in `range` to `output` with character and entity references decoded.
    ///
    /// The five XML entities, numeric references and the HTML 4 named entities are decoded; any other
    /// reference (including ones a DTD declares) stays as literal text.
    static func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, into output: inout [UInt8]) {
        guard let base = bytes.baseAddress else { return }
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            guard let hit = memchr(base + index, Int32(Ascii.ampersand), end - index) else {
                output.append(contentsOf: UnsafeBufferPointer(start: base + index, count: end - index))
                return
            }
            let amp = base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
            output.append(contentsOf: UnsafeBufferPointer(start: base + index, count: amp - index))
            index = amp + 1
            // Entity names are short; a ';' more than 32 bytes on means this '&' is a literal.
            var semicolon = index
            let limit = min(end, index + 32)
            while semicolon < limit, bytes[semicolon] != Ascii.semicolon { semicolon += 1 }
            if semicolon < limit, let scalar = resolve(bytes, index..<semicolon) {
                appendUTF8(scalar, to: &output)
                index = semicolon + 1
            } else {
                output.append(Ascii.ampersand)
            }
        }
    }

    /// `bytes` as a String without leading and trailing white space. ASCII white space is cut on the bytes;
    /// only when a non-ASCII character sits at either edge (U+00A0, U+2003...) does Foundation trim the rest.
    static func trimmedString<Bytes: RandomAccessCollection>(_ bytes: Bytes) -> String
    where Bytes.Element == UInt8, Bytes.Index == Int {
        var start = bytes.startIndex
        var end = bytes.endIndex
        while start < end, Ascii.isSpace(bytes[start]) { start += 1 }
        while end > start, Ascii.isSpace(bytes[end - 1]) { end -= 1 }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        if start < end, bytes[start] >= 0x80 || bytes[end - 1] >= 0x80 {
            return text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return text
    }

    /// `text` without leading and trailing white space; returned as it is when there is none (the usual case).
    static func trimmedString(_ text: String) -> String {
        guard let first = text.utf8.first, let last = text.utf8.last else { return text }
        if first > 0x20, first < 0x80, last > 0x20, last < 0x80 { return text }
        return trimmedString(Array(text.utf8))
    }

    /// Decodes the attribute value in `range` and trims it.
    static func trimmedValue(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        decode(bytes, range, into: &output)
        return trimmedString(output)
    }

    /// Splits the attribute section of a start tag into name/value pairs. Unquoted values are accepted.
    static func attributes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> [XMLAttributeRange] {
        var result: [XMLAttributeRange] = []
        var index = range.lowerBound
        let end = range.upperBound
        while index < end {
            while index < end, Ascii.isSpace(bytes[index]) || bytes[index] == Ascii.slash { index += 1 }
            let nameStart = index
            while index < end, !Ascii.isSpace(bytes[index]), bytes[index] != Ascii.equals { index += 1 }
            let name = nameStart..<index
            while index < end, Ascii.isSpace(bytes[index]) { index += 1 }
            guard index < end, bytes[index] == Ascii.equals else {
                if !name.isEmpty { result.append(XMLAttributeRange(name: name, value: index..<index)) }
                continue
            }
            index += 1
            while index < end, Ascii.isSpace(bytes[index]) { index += 1 }
            guard index < end else {
                result.append(XMLAttributeRange(name: name, value: end..<end))
                break
            }
            let quote = bytes[index]
            if quote == Ascii.doubleQuote || quote == Ascii.singleQuote {
                let valueStart = index + 1
                var valueEnd = valueStart
                while valueEnd < end, bytes[valueEnd] != quote { valueEnd += 1 }
                result.append(XMLAttributeRange(name: name, value: valueStart..<valueEnd))
                index = valueEnd + 1
            } else {
                let valueStart = index
                while index < end, !Ascii.isSpace(bytes[index]) { index += 1 }
                result.append(XMLAttributeRange(name: name, value: valueStart..<index))
            }
        }
        return result
    }

    static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ literal: StaticString) -> Bool {
        guard range.count == literal.utf8CodeUnitCount else { return false }
        let pointer = literal.utf8Start
        for offset in 0..<range.count where bytes[range.lowerBound + offset] != pointer[offset] { return false }
        return true
    }

    static func equal(_ bytes: UnsafeBufferPointer<UInt8>, _ lhs: Range<Int>, _ rhs: Range<Int>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        return memcmp(bytes.baseAddress! + lhs.lowerBound, bytes.baseAddress! + rhs.lowerBound, lhs.count) == 0
    }

    // MARK: - References

    private static func resolve(_ bytes: UnsafeBufferPointer<UInt8>, _ name: Range<Int>) -> Unicode.Scalar? {
        guard !name.isEmpty else { return nil }
        if bytes[name.lowerBound] == Ascii.hash {
            return numericReference(bytes, name.lowerBound + 1..<name.upperBound)
        }
        if equals(bytes, name, "amp") { return "&" }
        if equals(bytes, name, "lt") { return "<" }
        if equals(bytes, name, "gt") { return ">" }
        if equals(bytes, name, "quot") { return "\"" }
        if equals(bytes, name, "apos") { return "'" }
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self)
        return HTMLEntities.codePoints[key].flatMap(Unicode.Scalar.init)
    }

    private static func numericReference(_ bytes: UnsafeBufferPointer<UInt8>, _ digits: Range<Int>) -> Unicode.Scalar? {
        guard !digits.isEmpty else { return nil }
        var index = digits.lowerBound
        var radix: UInt32 = 10
        if bytes[index] == UInt8(ascii: "x") || bytes[index] == UInt8(ascii: "X") {
            radix = 16
            index += 1
        }
        guard index < digits.upperBound else { return nil }
        var value: UInt32 = 0
        while index < digits.upperBound {
            guard let digit = hexValue(bytes[index]), digit < radix else { return nil }
            value = value &* radix &+ digit
            if value > 0x10FFFF { return Unicode.Scalar(0xFFFD) }
            index += 1
        }
        // NUL and surrogates are not characters: replace them rather than drop the text around them.
        return value == 0 ? Unicode.Scalar(0xFFFD) : (Unicode.Scalar(value) ?? Unicode.Scalar(0xFFFD))
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    private static func appendUTF8(_ scalar: Unicode.Scalar, to output: inout [UInt8]) {
        UTF8.encode(scalar) { output.append($0) }
    }
}
