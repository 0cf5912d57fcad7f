import Foundation
import TestSupport
import XCTest

// Reading each supported format, and recovering what a reader can see in broken feeds.
@testable import ArchiverCore

final class FeedParserTests: XCTestCase {
    private func parse(_ fixture: String, url: String = "https://example.com/podcast/feed.xml") throws -> Feed {
        try FeedParser.parse(Fixtures.data("feeds/\(fixture)"), url: URL(string: url)!)
    }

    private func date(_ seconds: TimeInterval) -> Date { Date(timeIntervalSince1970: seconds) }

    // MARK: - Formats

    func test_parse_seedJSONArray_readsTitleURLAndRFC822Date() throws {
        let feed = try parse("seed.json")

        XCTAssertEqual(feed.format, .jsonArray)
        XCTAssertNil(feed.title)
        XCTAssertEqual(
            feed.episodes,
            [
                Episode(
                    title: "The very first episode ever!", guid: nil, url: "https://example.com/episodes/1.mp3",
                    published: date(1_736_514_000))
            ])
    }

    func test_parse_rss_readsEpisodesInDocumentOrderAndSkipsLiveItemsAndItemsWithoutEnclosure() throws {
        let feed = try parse("rss.xml")

        XCTAssertEqual(feed.format, .rss)
        XCTAssertEqual(feed.title, "Fixture & Friends")
        XCTAssertEqual(feed.episodes.count, 2)
        XCTAssertEqual(
            feed.episodes[0],
            Episode(
                title: "Episode 2: <Tags> & \"Quotes\"", guid: "ep-2",
                url: "https://cdn.example.com/audio/ep2.mp3?token=abc",
                mimeType: "audio/mpeg", length: 2048, published: date(1_739_152_800), episodeNumber: 2, seasonNumber: 1)
        )
        XCTAssertEqual(
            feed.episodes[1],
            Episode(
                title: "Episode 1 (itunes title only)", guid: nil, url: "https://example.com/podcast/media/ep1.m4a",
                mimeType: "audio/x-m4a", length: nil, published: date(1_736_514_000)))
    }

    func test_parse_atom_readsEnclosureLinksResolvedAgainstXMLBase() throws {
        let feed = try parse("atom.xml")

        XCTAssertEqual(feed.format, .atom)
        XCTAssertEqual(feed.title, "Atom Fixture")
        XCTAssertEqual(
            feed.episodes.map(\.url),
            ["https://atom.example.org/shows/audio/second.ogg", "https://media.example.org/first.mp3"])
        XCTAssertEqual(feed.episodes.map(\.guid), ["urn:uuid:entry-2", "urn:uuid:entry-1"])
        XCTAssertEqual(feed.episodes[0].length, 777)
        XCTAssertEqual(feed.episodes[0].published?.timeIntervalSince1970 ?? 0, 1_740_823_200.25, accuracy: 0.001)
        XCTAssertEqual(feed.episodes[1].published, date(1_738_396_800), "falls back to <updated>")
    }

    func test_parse_jsonFeed_readsFirstAttachmentAndNumericIDs() throws {
        let feed = try parse("jsonfeed.json", url: "https://json.example.net/feed.json")

        XCTAssertEqual(feed.format, .jsonFeed)
        XCTAssertEqual(feed.title, "JSON Feed Fixture")
        XCTAssertEqual(
            feed.episodes,
            [
                Episode(
                    title: "Second", guid: "jf-2", url: "https://json.example.net/2.mp3", mimeType: "audio/mpeg",
                    length: 12345, published: date(1_743_588_000)),
                Episode(
                    title: "First", guid: "1", url: "https://json.example.net/files/1.m4a",
                    published: date(1_743_465_600)),
            ])
    }

    func test_parse_latin1Declared_decodesCharacters() throws {
        let feed = try parse("latin1.xml")

        XCTAssertEqual(feed.title, "Café Müller")
        XCTAssertEqual(feed.episodes.map(\.title), ["Ärger über ß"])
    }

    func test_parse_windows1252Declared_mapsTheCharactersLatin1Lacks() throws {
        var bytes = Array("<?xml version=\"1.0\" encoding=\"windows-1252\"?><rss><channel><title>".utf8)
        bytes += [0x93, 0x43, 0x61, 0x66, 0xE9, 0x94, 0x20, 0x80, 0x35]  // “Café” €5
        bytes += Array("</title></channel></rss>".utf8)

        let feed = try FeedParser.parse(Data(bytes), url: nil)

        XCTAssertEqual(feed.title, "\u{201C}Café\u{201D} €5")
    }

    func test_relativeEnclosureURLs_resolveLikeABrowser() throws {
        let cases: [(String, String, String)] = [
            ("https://example.com/podcast/feed.xml", "ep1.mp3", "https://example.com/podcast/ep1.mp3"),
            ("https://example.com/podcast/feed.xml", "media/ep1.mp3", "https://example.com/podcast/media/ep1.mp3"),
            ("https://example.com/podcast/feed.xml", "/root.mp3", "https://example.com/root.mp3"),
            ("https://example.com/podcast/", "ep1.mp3", "https://example.com/podcast/ep1.mp3"),
            ("https://example.com", "ep1.mp3", "https://example.com/ep1.mp3"),
            ("http://127.0.0.1:8080/a/b/feed", "x.mp3?t=1", "http://127.0.0.1:8080/a/b/x.mp3?t=1"),
            ("https://example.com/a/b/feed.xml", "../up.mp3", "https://example.com/a/up.mp3"),
            ("https://example.com/a/b/feed.xml", "./here.mp3", "https://example.com/a/b/here.mp3"),
            ("https://example.com/a/feed.xml?x=1", "ep.mp3", "https://example.com/a/ep.mp3"),
            ("https://example.com/a/feed.xml", "//cdn.example.net/e.mp3", "https://cdn.example.net/e.mp3"),
            ("https://example.com/a/feed.xml", "with space.mp3", "https://example.com/a/with%20space.mp3"),
        ]
        for (base, raw, expected) in cases {
            let rss = "<rss><channel><item><enclosure url=\"\(raw)\"/></item></channel></rss>"
            let feed = try FeedParser.parse(Data(rss.utf8), url: URL(string: base))
            XCTAssertEqual(feed.episodes.first?.url, expected, "\(raw) against \(base)")
        }
    }

    func test_xmlBase_appliesWithinItsElementOnly_andNests() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom" xml:base="https://one.example/a/">
            <entry xml:base="sub/"><id>1</id><link rel="enclosure" href="1.mp3"/></entry>
            <entry xml:base="https://two.example/b/c"><id>2</id><link rel="enclosure" href="2.mp3"/></entry>
            <entry><id>3</id><link rel="enclosure" href="/3.mp3"/></entry>
            <entry><id>4</id><link rel="enclosure" href="4.mp3"/></entry>
            </feed>
            """
        let feed = try FeedParser.parse(Data(atom.utf8), url: URL(string: "https://feed.example/x/feed.xml"))

        XCTAssertEqual(
            feed.episodes.map(\.url),
            [
                "https://one.example/a/sub/1.mp3", "https://two.example/b/2.mp3", "https://one.example/3.mp3",
                "https://one.example/a/4.mp3",
            ])
    }

    // MARK: - Broken but readable

    func test_parse_newlineBeforeXMLDeclaration_recovers() throws {
        let feed = try parse("broken-leading-newline.xml")

        XCTAssertEqual(feed.title, "Leading newline")
        XCTAssertEqual(feed.episodes.map(\.title), ["Only episode"])
    }

    func test_parse_undefinedEntities_decodesHTMLEntitiesAndKeepsUnknownOnesLiterally() throws {
        let feed = try parse("broken-undefined-entity.xml")

        XCTAssertEqual(feed.title, "Café\u{A0}Talk © &unknownentity; & more")
        XCTAssertEqual(feed.episodes.map(\.title), ["Naïve \u{201C}quotes\u{201D} &bogus; end"])
        XCTAssertEqual(feed.episodes.map(\.url), ["https://example.com/a.mp3?x=1&y=2"])
    }

    func test_parse_strayClosingTags_keepsEveryItem() throws {
        let feed = try parse("broken-stray-close.xml")

        XCTAssertEqual(feed.episodes.map(\.guid), ["s-1", "s-2"])
        XCTAssertEqual(feed.episodes.map(\.url), ["https://example.com/1.mp3", "https://example.com/2.mp3"])
    }

    func test_parse_cutOffAfterSomeItems_keepsTheCompleteOnes() throws {
        let feed = try parse("truncated-after-items.xml")

        XCTAssertEqual(feed.episodes.map(\.title), ["Complete"])
    }

    func test_parse_entityBomb_isNeverExpanded() throws {
        let feed = try parse("entity-bomb.xml")

        // Left as written: a billion laughs never becomes a billion of anything.
        XCTAssertEqual(feed.title, "&lol9;")
        XCTAssertEqual(feed.episodes.map(\.title), ["Bomb &lol9; inside"])
    }

    // MARK: - Not feeds

    func test_parse_documentsThatAreNotFeeds_throwNotAFeedNamingTheURL() {
        let cases: [(String, String)] = [
            ("not-a-feed.html", "the document is <html>, not RSS or Atom"),
            ("garbage.bin", "the document is neither XML nor JSON"),
            ("truncated.xml", "the document is cut off before its first complete episode"),
        ]
        for (fixture, reason) in cases {
            XCTAssertThrowsError(try parse(fixture, url: "https://example.com/\(fixture)"), fixture) { error in
                XCTAssertEqual(
                    error as? FeedError, .notAFeed(url: "https://example.com/\(fixture)", reason: reason), fixture)
            }
        }
    }

    func test_parse_emptyAndNonFeedJSON_throwNotAFeed() {
        let url = URL(string: "https://example.com/x")!
        let inputs: [(String, String)] = [
            ("", "the document is empty"),
            ("  \n ", "the document is empty"),
            ("{\"error\": \"rate limited\"}", "its JSON object is not a JSON Feed (no \"version\" or \"items\")"),
            ("[1, 2, 3]", "its JSON array has no entries with a \"url\""),
            ("{not json", "it is not valid JSON (at byte 2)"),
        ]
        for (text, reason) in inputs {
            XCTAssertThrowsError(try FeedParser.parse(Data(text.utf8), url: url), text) { error in
                XCTAssertEqual(error as? FeedError, .notAFeed(url: "https://example.com/x", reason: reason), text)
            }
        }
    }

    func test_parse_podcastSeasonAndEpisode_numberAnEpisode_whenTheITunesTagsDoNot() throws {
        let rss = """
            <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"
                 xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>S</title>
            <item><title>A</title><enclosure url="https://e.com/a.mp3" type="audio/mpeg"/>
              <podcast:season name="Cold">3</podcast:season><podcast:episode>12</podcast:episode></item>
            <item><title>B</title><enclosure url="https://e.com/b.mp3" type="audio/mpeg"/>
              <itunes:season>1</itunes:season><podcast:season>3</podcast:season><podcast:episode>x</podcast:episode></item>
            </channel></rss>
            """
        let episodes = try FeedParser.parse(Data(rss.utf8), url: nil).episodes

        XCTAssertEqual(episodes.map(\.seasonNumber), [3, 1], "itunes:season wins over podcast:season")
        XCTAssertEqual(episodes.map(\.episodeNumber), [12, nil], "a number that is not a whole one is none")
    }

    func test_parse_validFeedWithNoEpisodes_isAFeedWithNothingToArchive() throws {
        let rss = "<rss version=\"2.0\"><channel><title>Empty</title></channel></rss>"
        let feed = try FeedParser.parse(Data(rss.utf8), url: nil)

        XCTAssertEqual(feed.title, "Empty")
        XCTAssertEqual(feed.episodes, [])
    }

    func test_parse_documentWithNoChannelAndNoItems_isNotAFeed() {
        // Neither says anything about a show: archiving either would only make an empty folder named after a host.
        let cases = [
            ("<rss version=\"2.0\"></rss>", "the document has no channel and no items"),
            ("<?xml version=\"1.0\"?><rss version=\"2.0\"/>", "the document has no channel and no items"),
            ("[]", "its JSON array is empty"),
        ]
        for (document, reason) in cases {
            XCTAssertThrowsError(try FeedParser.parse(Data(document.utf8), url: nil), document) { error in
                XCTAssertEqual(error as? FeedError, .notAFeed(url: "(input)", reason: reason), document)
            }
        }
    }

    func test_parse_utf8ByteOrderMarkAndLeadingSpace_XMLAndJSON() throws {
        let xml =
            Data([0xEF, 0xBB, 0xBF])
            + Data(
                "\n  <rss><channel><title>Bom</title><item><enclosure url=\"https://e.x/1.mp3\"/></item></channel></rss>"
                    .utf8)
        let json = Data([0xEF, 0xBB, 0xBF]) + Data(" [{\"url\": \"https://e.x/2.mp3\"}]".utf8)

        XCTAssertEqual(try FeedParser.parse(xml, url: nil).title, "Bom")
        XCTAssertEqual(try FeedParser.parse(json, url: nil).episodes.map(\.url), ["https://e.x/2.mp3"])
        XCTAssertThrowsError(try FeedParser.parse(Data([0xEF, 0xBB, 0xBF, 0x20]), url: nil))
    }

    func test_parse_utf16WithByteOrderMark_isRead() throws {
        let rss =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss><channel><title>Sixteen</title><item><title>É</title><enclosure url=\"https://e.x/1.mp3\"/></item></channel></rss>"
        let data = rss.data(using: .utf16)!  // Foundation writes a BOM

        let feed = try FeedParser.parse(data, url: nil)

        XCTAssertEqual(feed.title, "Sixteen")
        XCTAssertEqual(feed.episodes.map(\.title), ["É"])
    }

    // MARK: - Metadata (for --metadata sidecars)

    func test_parse_rssMetadata_notesOnlyWhenAsked_linksDurationsAndArtworkAlways() throws {
        let data = Fixtures.data("feeds/metadata.xml")
        let url = URL(string: "https://notes.example.org/feed.xml")!

        let plain = try FeedParser.parse(data, url: url)
        let full = try FeedParser.parse(data, url: url, descriptions: true)

        XCTAssertEqual(plain.imageURL, "https://notes.example.org/artwork/cover.jpg", "itunes:image before image/url")
        XCTAssertEqual(plain.episodes.map(\.description), [nil, nil, nil], "show notes cost time; only on request")
        XCTAssertEqual(
            full.episodes.map(\.description),
            ["<p>Show notes with <b>HTML</b> &amp; more.</p>", "Plain summary.", "Encoded only."])
        XCTAssertEqual(full.episodes.map(\.link), ["https://notes.example.org/episodes/1", nil, nil])
        XCTAssertEqual(full.episodes.map(\.duration), [3723, 754, nil], "12:75 is no duration")
        XCTAssertEqual(full.episodes.map(\.imageURL), ["https://notes.example.org/ep1.jpg", nil, nil])
        var withoutNotes = full
        for index in withoutNotes.episodes.indices { withoutNotes.episodes[index].description = nil }
        withoutNotes.description = nil  // the show's own description: also a note
        XCTAssertEqual(withoutNotes, plain, "asking for notes changes nothing else")
    }

    func test_parse_atomAndJSONFeedMetadata() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><title>A</title><logo>/logo.png</logo><icon>/icon.png</icon>
            <entry><id>a1</id><title>One</title><summary>Atom summary</summary>
            <link href="https://a.example/1"/><link rel="enclosure" href="/1.mp3"/></entry></feed>
            """
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "J", "icon": "art.png", "items": [
             {"id": "j1", "url": "https://j.example/1", "image": "1.png", "content_html": "<p>hi</p>",
              "attachments": [{"url": "1.mp3", "duration_in_seconds": 61.5}]}]}
            """
        let base = URL(string: "https://a.example/feed")!

        let atomFeed = try FeedParser.parse(Data(atom.utf8), url: base, descriptions: true)
        let jsonFeed = try FeedParser.parse(Data(json.utf8), url: base, descriptions: true)

        XCTAssertEqual(atomFeed.imageURL, "https://a.example/logo.png")
        XCTAssertEqual(atomFeed.episodes.first?.description, "Atom summary")
        XCTAssertEqual(atomFeed.episodes.first?.link, "https://a.example/1")
        XCTAssertEqual(atomFeed.episodes.first?.url, "https://a.example/1.mp3")
        XCTAssertEqual(jsonFeed.imageURL, "https://a.example/art.png")
        XCTAssertEqual(jsonFeed.episodes.first?.description, "<p>hi</p>")
        XCTAssertEqual(jsonFeed.episodes.first?.link, "https://j.example/1")
        XCTAssertEqual(jsonFeed.episodes.first?.imageURL, "https://a.example/1.png")
        XCTAssertEqual(jsonFeed.episodes.first?.duration, 61.5)
        XCTAssertNil(try FeedParser.parse(Data(json.utf8), url: base).episodes.first?.description)
    }

    func test_theShowsAuthor_isTheChannelsItunesAuthor_orAJSONFeedsFirstAuthor_neverAnItemsAuthor() throws {
        let rss = """
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <item><itunes:author>Guest</itunes:author><enclosure url="https://a.example/1.mp3"/></item>
            <itunes:author> Jane Doe </itunes:author><itunes:author>Second</itunes:author></channel></rss>
            """
        let itemOnly = """
            <rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>T</title>
            <item><itunes:author>Guest</itunes:author><enclosure url="https://a.example/1.mp3"/></item></channel></rss>
            """
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "title": "T", "authors": [{"url": "x"}, {"name": "Jo"}],
             "items": []}
            """

        XCTAssertEqual(try FeedParser.parse(Data(rss.utf8), url: nil).author, "Jane Doe")
        XCTAssertNil(try FeedParser.parse(Data(itemOnly.utf8), url: nil).author)
        XCTAssertEqual(try FeedParser.parse(Data(json.utf8), url: nil).author, "Jo")
    }
}
