import Foundation
import XCTest

// The name rule for public feeds: compound spellings of secret names are secret, ordinary words are not, and
// a feed document keeps none of their values however its encoder wrote the `&` and `/` (XML's `&amp;`, Go's
// `\u0026`, PHP's `\/`).
@testable import ArchiverCore

final class SecretNameTests: XCTestCase {
    /// Names the issue found leaking, and their kin: each is secret.
    static let compoundNames = [
        "authtoken", "accesstoken", "APITOKEN", "api_token", "apitoken", "token1", "Token2", "hdnts", "hdnea",
        "hmac", "signature", "sig", "sig2", "AuthToken", "access-token", "accesskey", "authkey", "apisig",
        "clientsecret", "x-api-token", "oauth_verifier", "userpassword", "sessid",
    ]

    /// Ordinary words that share letters with secret ones: none is secret.
    static let ordinaryNames = [
        "author", "design", "assignment", "keyword", "monkey", "passage", "page", "authority", "signup", "episode",
        "access", "api", "format", "id", "codec", "expires", "acl",
    ]

    func test_compoundSpellings_areSecret_ordinaryWordsAreNot() {
        for name in Self.compoundNames {
            XCTAssertTrue(URLSecrets.isSecretName(Substring(name)), name)
            XCTAssertEqual(
                URLSecrets.redacted("https://h/e.mp3?id=3&\(name)=V4lue"), "https://h/e.mp3?id=3&\(name)=REDACTED", name
            )
        }
        for name in Self.ordinaryNames {
            XCTAssertFalse(URLSecrets.isSecretName(Substring(name)), name)
            XCTAssertFalse(URLSecrets.hasSecret("https://h/e.mp3?\(name)=v"), name)
        }
        XCTAssertTrue(URLSecrets.isSecretName("auth%74oken"), "a percent-encoded name is read decoded")
    }

    func test_akamaiToken_isRedactedWhole() {
        let url = "https://cdn.example/e.mp3?hdnts=exp=1700000000~acl=/*~hmac=0a1b2c3d&id=9"
        XCTAssertEqual(URLSecrets.redacted(url), "https://cdn.example/e.mp3?hdnts=REDACTED&id=9")
    }

    func test_jsonEscapedAmpersand_separatesParameters() {
        XCTAssertEqual(
            URLSecrets.redacted(#"https://h/e.mp3?id=1\u0026authtoken=T0k\u0026page=2"#),
            #"https://h/e.mp3?id=1\u0026authtoken=REDACTED\u0026page=2"#)
        XCTAssertEqual(
            URLSecrets.redacted(#"https://h/e.mp3?id=1\U0026token=T"#), #"https://h/e.mp3?id=1\U0026token=REDACTED"#)
    }

    /// A history document under every spelling, as XML, Go's JSON and PHP's JSON write it: no value is kept.
    func test_historyDocuments_keepNoSecretValue_underEverySpelling() {
        for (index, name) in Self.compoundNames.enumerated() {
            let value = "S3cr3t\(index)v"
            let documents = [
                // XML: the value in an enclosure and in a description's link, `&amp;` escaped.
                """
                <item><enclosure url="https://h/e.mp3?id=1&amp;\(name)=\(value)"/>\
                <description>listen at https://h/e.mp3?id=1&amp;\(name)=\(value) now</description></item>
                """,
                // Go's encoding/json writes `&` as \\u0026.
                #"{"items":[{"url":"https://h/e.mp3?id=1\u0026\#(name)=\#(value)","content_text":"at https://h/e.mp3?x=1\u0026\#(name)=\#(value)"}]}"#,
                // PHP's json_encode escapes `/`.
                #"{"items":[{"url":"https:\/\/h\/e.mp3?id=1&\#(name)=\#(value)","content_text":"plain &\#(name)=\#(value)"}]}"#,
            ]
            for document in documents {
                let kept = String(decoding: TextSecrets.redactingURLs(in: Data(document.utf8)), as: UTF8.self)
                XCTAssertFalse(kept.contains(value), "\(name) kept in \(kept)")
                XCTAssertTrue(kept.contains("\(name)=REDACTED"), kept)
            }
        }
    }

    func test_documentsWithOrdinaryNames_areKeptByteForByte() {
        for name in Self.ordinaryNames {
            for document in [
                #"<enclosure url="https://h/e.mp3?id=1&amp;\#(name)=v"/>"#,
                #"{"url":"https://h/e.mp3?id=1\u0026\#(name)=v"}"#,
                #"{"url":"https:\/\/h\/e.mp3?\#(name)=v"}"#,
            ] {
                let data = Data(document.utf8)
                XCTAssertEqual(TextSecrets.redactingURLs(in: data), data, document)
            }
        }
    }
}
