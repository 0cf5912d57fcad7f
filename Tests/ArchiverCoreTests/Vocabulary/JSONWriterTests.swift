import Foundation
import XCTest

// The hand-written JSON: what it writes must read back, byte for byte, as the strings it was given.
@testable import ArchiverCore

final class JSONWriterTests: XCTestCase {
    func test_strings_readBackExactly_withAndWithoutCharactersThatNeedEscaping() throws {
        let values = [
            "plain ASCII", "Ünïcödé ☕ 🎙️ 日本語", "quote \" and backslash \\", "new\nline\ttab\rreturn",
            "control \u{01}\u{1F} and DEL \u{7F}", "", "</script>", "\u{2028}\u{2029}",
        ]
        var writer = JSONWriter()
        writer.raw("[")
        for (position, value) in values.enumerated() {
            if position > 0 { writer.raw(",") }
            writer.string(value)
        }
        writer.raw(",")
        writer.string(nil)
        writer.raw("]")

        let decoded = try JSONSerialization.jsonObject(with: Data(writer.bytes)) as? [Any]
        XCTAssertEqual(decoded?.dropLast().compactMap { $0 as? String }, values)
        XCTAssertTrue(decoded?.last is NSNull)
        XCTAssertTrue(writer.text.contains("\\u0001\\u001f"), writer.text)
    }
}
