// A forgiving XML tokenizer for feeds, over raw UTF-8 bytes.
//
// libxml2 (behind Foundation's XMLParser) gives up on what real podcast feeds contain: whitespace before
// `<?xml`, undeclared entities such as `&nbsp;`, a stray closing tag. Browsers and feed readers recover from
// all three, so podarchive does too. This tokenizer never fails: it yields start tags, end tags, text and
// CDATA as byte ranges, skips comments, processing instructions and the DOCTYPE (so entities declared there
// are never expanded: an entity bomb costs nothing), and treats anything it cannot read as text.
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One piece of an XML document, as ranges into the tokenizer's bytes.
enum XMLToken: Equatable {
    /// `<name attributes>` or `<name attributes/>`.
    case startTag(name: Range<Int>, attributes: Range<Int>, selfClosing: Bool)
    /// `</name>`.
    case endTag(name: Range<Int>)
    /// Character data with entity references still encoded.
    case text(Range<Int>)
    /// The contents of a `<![CDATA[...]]>` section, literal.
    case cdata(Range<Int>)
}

/// Splits a byte buffer into `XMLToken`s. The buffer must outlive the tokenizer.
struct XMLTokenizer {
    let bytes: UnsafeBufferPointer<UInt8>
    private(set) var position = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// The next token, or nil at the end of the document.
    mutating func next() -> XMLToken? {
        let count = bytes.count
        while position < count {
            if bytes[position] != Ascii.lessThan {
                let start = position
                position = find(Ascii.lessThan, from: position) ?? count
                return .text(start..<position)
            }
            let afterLT = position + 1
            guard afterLT < count else {
                position = count
                return .text(afterLT - 1..<count)
            }
            switch bytes[afterLT] {
            case Ascii.slash:
                return endTag(nameStart: afterLT + 1)
            case Ascii.question:
                position = find(sequence: Ascii.piEnd, from: afterLT).map { $0 + 2 } ?? count
            case Ascii.bang:
                if let token = markupDeclaration(at: position) { return token }
            case let byte where Ascii.isNameStart(byte):
                return startTag(nameStart: afterLT)
            default:
                // A bare '<' that starts no markup: keep it as text, as an HTML reader would.
                position = afterLT
                return .text(afterLT - 1..<afterLT)
            }
        }
        return nil
    }

    // MARK: - Tags

    private mutating func startTag(nameStart: Int) -> XMLToken {
        let count = bytes.count
        var index = nameStart
        while index < count, !Ascii.endsName(bytes[index]) { index += 1 }
        let name = nameStart..<index
        let attributesStart = index
        // Find the closing '>' outside quoted attribute values.
        while index < count {
            let byte = bytes[index]
            if byte == Ascii.greaterThan { break }
            if byte == Ascii.doubleQuote || byte == Ascii.singleQuote {
                index = (find(byte, from: index + 1) ?? count - 1) + 1
            } else {
                index += 1
            }
        }
        guard index < count else {
            // Cut off inside a tag: the document ends here.
            position = count
            return .startTag(name: name, attributes: attributesStart..<count, selfClosing: false)
        }
        let selfClosing = index > attributesStart && bytes[index - 1] == Ascii.slash
        let attributesEnd = selfClosing ? index - 1 : index
        position = index + 1
        return .startTag(
            name: name, attributes: attributesStart..<max(attributesStart, attributesEnd), selfClosing: selfClosing)
    }

    private mutating func endTag(nameStart: Int) -> XMLToken {
        let count = bytes.count
        var index = nameStart
        while index < count, !Ascii.endsName(bytes[index]) { index += 1 }
        let name = nameStart..<index
        position = (find(Ascii.greaterThan, from: index) ?? count - 1) + 1
        return .endTag(name: name)
    }

    /// `<!--...-->`, `<![CDATA[...]]>` or `<!DOCTYPE ...>` (with an internal subset) at `start`.
    private mutating func markupDeclaration(at start: Int) -> XMLToken? {
        let count = bytes.count
        if hasPrefix(Ascii.commentStart, at: start) {
            position = find(sequence: Ascii.commentEnd, from: start + 4).map { $0 + 3 } ?? count
            return nil
        }
        if hasPrefix(Ascii.cdataStart, at: start) {
            let contentStart = start + Ascii.cdataStart.count
            let end = find(sequence: Ascii.cdataEnd, from: contentStart) ?? count
            position = min(count, end + 3)
            return .cdata(contentStart..<end)
        }
        // A declaration such as <!DOCTYPE rss [ <!ENTITY ...> ]>: skip it whole, brackets and quotes included.
        var index = start + 2
        var bracketDepth = 0
        while index < count {
            let byte = bytes[index]
            if byte == Ascii.doubleQuote || byte == Ascii.singleQuote {
                index = (find(byte, from: index + 1) ?? count - 1) + 1
                continue
            }
            if byte == Ascii.openBracket {
                bracketDepth += 1
            } else if byte == Ascii.closeBracket {
                bracketDepth = max(0, bracketDepth - 1)
            } else if byte == Ascii.greaterThan && bracketDepth == 0 {
                break
            }
            index += 1
        }
        position = min(count, index + 1)
        return nil
    }

    // MARK: - Searching

    private func find(_ byte: UInt8, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress else { return nil }
        guard let hit = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
    }

    private func find(sequence: [UInt8], from start: Int) -> Int? {
        var index = start
        while let hit = find(sequence[0], from: index) {
            if hasPrefix(sequence, at: hit) { return hit }
            index = hit + 1
        }
        return nil
    }

    private func hasPrefix(_ prefix: [UInt8], at index: Int) -> Bool {
        guard index + prefix.count <= bytes.count else { return false }
        for offset in 0..<prefix.count where bytes[index + offset] != prefix[offset] { return false }
        return true
    }
}
