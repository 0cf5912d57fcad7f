// The taint's two halves, in memory: a private show's URLs lose every value (its own feed's keep the name rule),
// and registered secret values are masked in every encoding a document can hold them in.
import XCTest

@testable import ArchiverCore

final class TaintRuleTests: XCTestCase {
    private let privateShow = Taint(isPrivate: true, feeds: ["https://members.example/feed.xml?auth=REDACTED&fmt=mp3"])

    func test_underAPrivateTaint_everyValueIsRedacted_butTheShowsOwnFeedKeepsTheNameRule() async {
        let shown = await privateShow.run {
            (
                URLSecrets.redacted("https://cdn.example/get.php?id=3&k=abc#t=10"),
                URLSecrets.redacted("https://cdn.example/e.mp3;v=2?3b9f0c"),
                URLSecrets.redacted("https://members.example/feed.xml?auth=T0pS3cret&fmt=mp3")
            )
        }
        XCTAssertEqual(shown.0, "https://cdn.example/get.php?id=REDACTED&k=REDACTED#t=REDACTED")
        XCTAssertEqual(shown.1, "https://cdn.example/e.mp3;v=REDACTED?REDACTED")
        XCTAssertEqual(shown.2, "https://members.example/feed.xml?auth=REDACTED&fmt=mp3")
        // Outside the show's work, the name rule alone.
        XCTAssertEqual(
            URLSecrets.redacted("https://cdn.example/get.php?id=3&k=abc"), "https://cdn.example/get.php?id=3&k=abc")
    }

    func test_underAPrivateTaint_aDocumentsRelativeParametersAllLoseTheirValues() async {
        let document = Data(#"{"url":"https:\/\/cdn.example\/e.mp3?x=Val1\u0026y=Val2","img":"/c.png?v=Val3"}"#.utf8)
        let kept = await privateShow.run { TextSecrets.redactingURLs(in: document) }
        let text = String(decoding: kept, as: UTF8.self)
        for value in ["Val1", "Val2", "Val3"] { XCTAssertFalse(text.contains(value), text) }
        XCTAssertEqual(TextSecrets.redactingURLs(in: document), document, "a public document keeps them")
    }

    func test_aPHPDocumentsEscapedSlash_isPartOfTheValue_notItsEnd() {
        let document = Data(#"{"url":"https:\/\/cdn.example\/e.mp3?authtoken=Head1\/Tail2+c="}"#.utf8)
        let text = String(decoding: TextSecrets.redactingURLs(in: document), as: UTF8.self)
        XCTAssertFalse(text.contains("Tail2"), text)
        XCTAssertTrue(text.contains("authtoken=REDACTED\""), text)
    }

    func test_aRegisteredSecret_isMaskedInEveryEncoding_andShortOnesAreNotSearchedFor() {
        let secret = "Zq9/Reg+ist&er=d"
        SecretValues.register([secret, "ab"])
        let forms = SecretValues.encodings(of: secret)
        for form in [
            secret, "Zq9%2FReg%2Bist%26er%3Dd", "Zq9%2fReg%2bist%26er%3dd", "Zq9/Reg+ist&amp;er=d",
            #"Zq9\/Reg+ist\u0026er=d"#,
        ] {
            XCTAssertTrue(forms.contains(form), "\(form) in \(forms)")
        }
        for form in forms {
            XCTAssertEqual(SecretValues.masking("before \(form) after"), "before REDACTED after", form)
        }
        XCTAssertEqual(SecretValues.masking("a tab and a crab"), "a tab and a crab", "two letters mask nothing")
    }

    func test_headerParts_leaveTheSchemeOut() {
        XCTAssertEqual(
            SecretValues.parts(ofHeader: "Bearer abc.def"), ["Bearer abc.def", "abc.def"])
        XCTAssertEqual(
            SecretValues.parts(ofHeader: "session=S1; theme=dark"),
            ["session=S1; theme=dark", "session=S1", "S1", "theme=dark", "dark"])
        XCTAssertEqual(
            SecretValues.parts(ofHeader: "Bearer HdrTok6Jk/Tail+X="),
            ["Bearer HdrTok6Jk/Tail+X=", "HdrTok6Jk/Tail+X="],
            "a base64 token keeps its trailing =")
    }
}
