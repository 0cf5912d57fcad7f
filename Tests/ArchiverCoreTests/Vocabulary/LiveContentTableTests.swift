// What a file's first bytes say it is, and the names that follow: a table of what feeds send.
import Foundation
import XCTest

@testable import ArchiverCore

final class LiveContentTableTests: XCTestCase {
    func test_sniff_namesRasterImagesAndMarkup_fromTheirBytes() {
        let cases: [(Data, LiveContent.Sniffed)] = [
            (Data([0xFF, 0xD8, 0xFF, 0xDB, 0, 1]), .image("jpg")),
            (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), .image("png")),
            (Data("GIF89a....".utf8), .image("gif")),
            (Data("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .image("webp")),
            (Data("\u{FEFF}  <?xml version=\"1.0\"?><svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), .markup("svg")),
            (Data("<!DOCTYPE html><title>x</title>".utf8), .markup("html")),
            (Data("\n<HTML><BODY>Log in</BODY></HTML>".utf8), .markup("html")),
            (Data("<?xml version=\"1.0\"?><tt xmlns=\"http://www.w3.org/ns/ttml\"/>".utf8), .markup("xml")),
            (Data("WEBVTT\n\n00:00.000 --> 00:01.000\n<v Anna>Hi".utf8), .other),
            (Data("1\n00:00:01,000 --> 00:00:02,000\nHi\n".utf8), .other),
            (Data("{\"version\": \"1.2.0\", \"chapters\": []}".utf8), .other),
            (Data(), .other),
        ]
        for (bytes, expected) in cases {
            XCTAssertEqual(LiveContent.sniff(bytes), expected, String(decoding: bytes, as: UTF8.self))
        }
    }

    func test_names_neverEndInALiveExtension() {
        let cases: [(declared: String, artwork: Bool, sniffed: LiveContent.Sniffed, kept: String)] = [
            ("Pilot.transcript.html.txt", false, .markup("html"), "Pilot.transcript.html.txt"),
            ("Pilot.en.vtt", false, .other, "Pilot.en.vtt"),
            ("Pilot.en.vtt", false, .markup("html"), "Pilot.en.html.txt"),
            ("Pilot.en.txt", false, .other, "Pilot.en.txt"),
            ("Pilot.jpg", true, .image("png"), "Pilot.png"),
            ("Pilot.jpg", true, .markup("svg"), "Pilot.svg.txt"),
            ("Pilot.svg.txt", true, .markup("svg"), "Pilot.svg.txt"),
            ("Season 1/Pilot.chapters.json", false, .other, "Season 1/Pilot.chapters.json"),
        ]
        for item in cases {
            let kept = LiveContent.name(for: item.declared, artwork: item.artwork, sniffed: item.sniffed)
            XCTAssertEqual(kept, item.kept, item.declared)
            XCTAssertFalse(LiveContent.isLive(kept), kept)
        }
        XCTAssertEqual(FileNamer.fileExtension(url: "https://e.x/a.svg", mimeType: nil), "svg.txt")
        XCTAssertEqual(FileNamer.fileExtension(url: "https://e.x/a.XHTML", mimeType: nil), "xhtml.txt")
        XCTAssertEqual(FileNamer.fileExtension(url: "https://e.x/a.mp3", mimeType: "text/html"), "mp3")
        XCTAssertEqual(Companion(kind: .transcript, url: "https://e.x/t", type: "text/html").fileExtension, "html.txt")
        XCTAssertEqual(Companion(kind: .artwork, url: "https://e.x/a.svg", type: nil).fileExtension, "jpg")
        XCTAssertEqual(Companion(kind: .artwork, url: "https://e.x/a", type: "image/svg+xml").fileExtension, "svg.txt")
    }
}
