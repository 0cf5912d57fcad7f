// An episode is recognised by its enclosure URL without what changes for the same file. Most URLs are keyed
// byte by byte, without Foundation's URL parser (each index load keys every entry): that reading must give the
// parser's key for every URL it takes, and leave the others to the parser.
import XCTest

@testable import ArchiverCore

final class EpisodeIdentityTests: XCTestCase {
    func test_aTrackingQueryOnAMediaFile_isNoNewEpisode_aScriptsQueryIs() {
        XCTAssertEqual(
            EpisodeIdentity.urlKey("https://CDN.Example.com/show/ep1.MP3?ts=1&sig=abc#t=30"),
            "https://cdn.example.com/show/ep1.MP3")
        XCTAssertEqual(
            EpisodeIdentity.urlKey("https://cdn.example.com/ep1.mp3?ts=1"),
            EpisodeIdentity.urlKey("HTTPS://cdn.example.com/ep1.mp3?ts=2"))
        XCTAssertNotEqual(
            EpisodeIdentity.urlKey("https://example.com/get.php?id=3"),
            EpisodeIdentity.urlKey("https://example.com/get.php?id=4"))
    }

    func test_theByteReading_givesTheParsersKey_forEveryURLItTakes() {
        let plain = [
            "https://cdn.example.com/show/ep1.mp3", "HTTP://Example.COM:8080/a/b/Ep.M4A?x=1&y=2",
            "https://example.com/get.php?id=3#frag", "https://example.com/download.ASPX?id=3",
            "https://example.com/dir/?x=1", "https://example.com?x=1", "https://example.com",
            "https://example.com/a.b.c/file?x", "https://example.com/feed.xml#top", "http://127.0.0.1:8765/ep/7.mp3",
            "https://example.com/a;b=1/c.mp3?q", "https://example.com/ep.mp3?", "https://example.com//double//x.ogg",
            "https://example.com/no-extension?token=1", "svn+ssh://host.example/x.mp3?a",
            "https://example.com/ep.mp3?url=https://other.example/x.mp3", "https://example.com/it's(1).mp3?a=b",
        ]
        for url in plain {
            XCTAssertNotNil(EpisodeIdentity.plainKey(url), url)
            XCTAssertEqual(EpisodeIdentity.plainKey(url), EpisodeIdentity.parsedKey(url), url)
        }
    }

    func test_escapesLoginsLiteralsAndOddPorts_areLeftToTheParser() {
        let odd = [
            "https://example.com/%E2%9C%93.mp3?x", "https://user:pw@example.com/ep.mp3", "https://[::1]:80/ep.mp3",
            "https://example.com:/ep.mp3", "https://example.com:8o/ep.mp3", "https:///ep.mp3", "ep.mp3?x",
            "https://example.com/a b.mp3", "https://exämple.com/ep.mp3", "https://example.com/ep.mp3?a=\"b\"",
            "1http://example.com/x", "https:/example.com/x",
        ]
        for url in odd { XCTAssertNil(EpisodeIdentity.plainKey(url), url) }
        XCTAssertEqual(
            EpisodeIdentity.urlKey("https://example.com/%E2%9C%93.mp3?x=1"),
            EpisodeIdentity.parsedKey("https://example.com/%E2%9C%93.mp3?x=1"))
    }
}
