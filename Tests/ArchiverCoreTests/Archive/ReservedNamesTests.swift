// The names the site writes (`ArchiveLayout`) are never an episode's, a companion's or a show folder's: the rules
// that name files add a suffix. The whole thing end to end: podarchiveTests' SiteNamesTests.
import Foundation
import XCTest

@testable import ArchiverCore

final class ReservedNamesTests: XCTestCase {
    func test_reservedNames_areComparedWithoutCase_andOnlyWhereTheSiteWritesThem() {
        for name in ["index.html", "INDEX.HTML", "feed.xml", "Feed.Xml", "cover.jpg", "Cover.JPEG", "cover.webp"] {
            XCTAssertTrue(ArchiveLayout.isReservedInShow(name), name)
        }
        XCTAssertTrue(ArchiveLayout.isReservedInShow("feed.xml/Pilot.mp3"), "a folder of the site's file's name")
        for name in ["feeds.opml", "cover.mp3", "feed (2).xml", "Season 1/feed.xml", "index.htm", "cover.svg"] {
            XCTAssertFalse(ArchiveLayout.isReservedInShow(name), name)
        }
        for name in ["index.html", "FEEDS.OPML", "Index.Html"] { XCTAssertTrue(ArchiveLayout.isReservedAtRoot(name)) }
        for name in ["feed.xml", "index.html (2)", "cover.jpg"] { XCTAssertFalse(ArchiveLayout.isReservedAtRoot(name)) }
    }

    func test_allocator_givesTheSitesNamesASuffix_asForAnyOtherClash() {
        var names = NameAllocator(taken: [])
        XCTAssertEqual(names.claim(NewFileName(prefix: "", stem: "feed", ext: "xml")), "feed (2).xml")
        XCTAssertEqual(names.claim(NewFileName(prefix: "", stem: "Index", ext: "HTML")), "Index (2).HTML")
        XCTAssertEqual(names.claim(NewFileName(prefix: "", stem: "cover", ext: "jpeg")), "cover (2).jpeg")
        XCTAssertEqual(names.claim(NewFileName(prefix: "Season 1/", stem: "feed", ext: "xml")), "Season 1/feed.xml")
        XCTAssertFalse(names.claim(exactly: "FEED.XML"))
        XCTAssertTrue(names.claim(siteFile: "cover.jpg"), "the show's artwork is the one file that takes it")
        XCTAssertEqual(NewFileName.allowed("cover.jpg"), "cover (2).jpg", "an episode cover.mp3's artwork")
        XCTAssertEqual(NewFileName.allowed("Pilot.en.vtt"), "Pilot.en.vtt")
    }

    func test_template_folderNamedLikeASiteFile_takesASuffix() throws {
        let template = try NameTemplate("{title}/{title}")
        let episode = Episode(title: "feed.xml", guid: nil, url: "https://example.com/a.mp3")

        let path = template.path(for: episode, feedTitle: "Show")

        XCTAssertEqual(path.folders, ["feed.xml (2)"])
    }
}
