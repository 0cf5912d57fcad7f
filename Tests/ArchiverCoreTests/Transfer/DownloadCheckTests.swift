// Judging a finished download by its first bytes: an HTML page where media was expected, a torrent or a playlist
// where a file was.
import Foundation
import XCTest

@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class DownloadCheckTests: XCTestCase {
    func test_aBodyLooksLikeHTML_byItsFirstTag_pastABOMAndWhiteSpace_whateverBytesFollow() {
        for html in ["<!DOCTYPE html><p>", "\u{FEFF} \n<HTML>", "\u{00A0}\u{2003}<head>", "\t<title>x", "<body>"] {
            XCTAssertTrue(DownloadCheck.looksLikeHTML(Data(html.utf8)), html)
        }
        var binary = Data([0xFF, 0xFB, 0x90, 0x64])
        binary.append(Data("<html>".utf8))
        for body in [Data("ID3<html>".utf8), binary, Data([0xC3]), Data(), Data("   ".utf8), Data("<svg>".utf8)] {
            XCTAssertFalse(DownloadCheck.looksLikeHTML(body), String(decoding: body, as: UTF8.self))
        }
    }

    func test_aTorrentOrAPlaylist_isKnownByItsTypeOrItsFirstBytes_andMediaIsNot() {
        let known: [(String?, String, NotMedia)] = [
            ("application/x-bittorrent", "", .torrent),
            ("Application/X-BitTorrent; charset=binary", "x", .torrent),
            (nil, "d8:announce35:udp://tracker.example:80/announce4:infod", .torrent),
            ("application/octet-stream", "d4:infod6:lengthi1e4:name1:xee", .torrent),
            ("application/octet-stream", "d13:creation datei1e4:infode", .torrent),
            ("application/vnd.apple.mpegurl", "", .hls),
            ("application/x-mpegURL", "", .hls),
            ("audio/mpeg", "\u{FEFF}#EXTM3U\n#EXT-X-VERSION:3\n", .hls),
            ("audio/x-mpegurl", "#EXTM3U\n#EXTINF:10,Song\nhttp://h/a.mp3\n", .m3u),
            ("audio/mpegurl", "http://h/a.mp3\n", .m3u),
            ("application/dash+xml", "", .dash),
            (nil, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- x -->\n<MPD xmlns=\"urn:mpeg:dash\">", .dash),
            ("application/vnd.ms-sstr+xml", "", .smoothStreaming),
            (nil, "<?xml version=\"1.0\"?><SmoothStreamingMedia MajorVersion=\"2\">", .smoothStreaming),
        ]
        for (type, body, kind) in known {
            XCTAssertEqual(NotMedia(type: type, leadingBytes: Data(body.utf8)), kind, "\(type ?? "-") \(body)")
        }
        let media: [(String?, Data)] = [
            ("audio/mpeg", Data("ID3\u{3}".utf8)), (nil, Data([0xFF, 0xFB, 0x90, 0x64])),
            ("audio/mp4", Data([0, 0, 0, 0x20]) + Data("ftypM4A ".utf8)), ("audio/ogg", Data("OggS".utf8)),
            ("application/octet-stream", Data("data: not bencoded".utf8)), (nil, Data("d8:somethin".utf8)),
            ("text/vtt", Data("WEBVTT".utf8)), (nil, Data("<?xml version=\"1.0\"?><rss>".utf8)), (nil, Data()),
        ]
        for (type, body) in media {
            XCTAssertNil(NotMedia(type: type, leadingBytes: body), "\(type ?? "-") \(body)")
        }
    }

    /// Judged for media, artwork and anything without a type; a companion whose declared type is text (a
    /// transcript, chapters) is what was promised whatever it starts as. A declared playlist type is no exemption.
    func test_aTorrentOrAPlaylist_isNotKeptInPlaceOfMedia_butACompanionOfATextTypeIs() throws {
        func judged(_ body: String, served: String, declared: String?) throws -> EpisodeFailure? {
            let response = try XCTUnwrap(
                HTTPURLResponse(
                    url: URL(string: "https://e.x/f")!, statusCode: 200, httpVersion: "HTTP/1.1",
                    headerFields: ["Content-Type": served, "Content-Length": String(body.utf8.count)]))
            let result = DownloadResult(
                response: response, bytesWritten: Int64(body.utf8.count), fileSize: Int64(body.utf8.count),
                sha256: "", leadingBytes: Data(body.utf8))
            return DownloadCheck.failure(of: result, declaredType: declared)
        }
        let playlist = "#EXTM3U\n#EXT-X-VERSION:3\n"
        XCTAssertEqual(try judged(playlist, served: "text/plain", declared: "audio/mpeg"), .notMedia(.hls))
        XCTAssertEqual(try judged(playlist, served: "text/plain", declared: nil), .notMedia(.hls), "artwork")
        XCTAssertEqual(
            try judged("<MPD/>", served: "application/dash+xml", declared: "application/dash+xml"), .notMedia(.dash))
        XCTAssertNil(try judged(playlist, served: "text/plain", declared: "text/plain"), "a transcript")
        XCTAssertNil(try judged("d4:infod", served: "application/json", declared: "application/json+chapters"))
    }
}
