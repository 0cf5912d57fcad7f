import XCTest

@testable import ArchiverCore

// `--folder-name`: what a new show's folder is called, field by field; what a template may not be.
final class FolderTemplateTests: XCTestCase {
    private let source = FeedSource.remote(URL(string: "https://feeds.example.com/show.xml")!)

    private func feed(title: String?, author: String?) -> Feed {
        var feed = Feed(title: title, episodes: [], format: .rss)
        feed.author = author
        return feed
    }

    private func name(
        _ template: String, title: String? = "The Show", author: String? = "Jane Doe", ascii: Bool = false
    )
        throws -> String
    {
        try FolderTemplate(template).name(for: feed(title: title, author: author), source: source, ascii: ascii)
    }

    func test_fields_areFilledIn_andAFieldWithoutAValueTakesTheTextBesideItAlong() throws {
        XCTAssertEqual(try name("{title}"), "The Show")
        XCTAssertEqual(try name("{author} - {title}"), "Jane Doe - The Show")
        XCTAssertEqual(try name("{author} - {title}", author: nil), "The Show")
        XCTAssertEqual(try name("{title} [{host}]"), "The Show [feeds.example.com]")
    }

    func test_valuesAreMadeOneSafeName_andFoldedToASCIIWhenAsked() throws {
        XCTAssertEqual(try name("{author} {title}", title: "../../etc", author: "a/b"), "a-b ..-..-etc")
        XCTAssertEqual(try name("{title}", title: "Café Crème", ascii: true), "Cafe Creme")
        XCTAssertEqual(try name("{author}", author: nil), "The Show", "nothing left: the title")
        XCTAssertEqual(try name("{author}", title: nil, author: nil), "feeds.example.com-show")
    }

    func test_aTemplateWithASlash_anUnknownField_noField_orAnUnmatchedBrace_isRefusedWithTheReason() {
        for (template, problem) in [
            ("Shows/{title}", "a show's folder is one name: it cannot hold '/'"),
            ("{artist}", "it has an unknown field {artist}; the fields are {title} {author} {host}"),
            ("Podcasts", "it has no field, so every show would get the same folder"),
            ("{title", "it has a '{' without '}'"),
            ("{title}}", "it has a '}' without '{'"),
        ] {
            XCTAssertThrowsError(try FolderTemplate(template), template) { error in
                XCTAssertEqual(
                    error.localizedDescription, "folder template '\(template)' cannot be used: \(problem)", template)
            }
        }
    }
}
