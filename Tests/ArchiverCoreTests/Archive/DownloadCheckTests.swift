// Judging a finished download by its first bytes: an HTML page where media was expected.
import Foundation
import XCTest

@testable import ArchiverCore

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
}
