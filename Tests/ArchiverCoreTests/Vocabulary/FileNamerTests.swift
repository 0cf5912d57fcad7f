import XCTest

// Names that are safe on every platform, whatever the feed's titles say.
@testable import ArchiverCore

final class FileNamerTests: XCTestCase {
    func test_sanitize_pathSeparatorsAndDotNames_cannotEscapeTheFolder() {
        XCTAssertEqual(FileNamer.sanitize("../../../../etc/passwd"), "etc-passwd")
        XCTAssertEqual(FileNamer.sanitize("--rf"), "rf")
        XCTAssertEqual(FileNamer.sanitize(".."), "")
        XCTAssertEqual(FileNamer.sanitize("."), "")
        XCTAssertEqual(FileNamer.sanitize(".hidden"), "hidden")
        XCTAssertEqual(FileNamer.sanitize("a\\b"), "a-b")
    }

    func test_sanitize_charactersWindowsAndMacOSRefuse_areReplaced() {
        XCTAssertEqual(FileNamer.sanitize("a/b\\c:d*e?f\"g<h>i|j"), "a-b-c-def'ghi-j")
        XCTAssertEqual(FileNamer.sanitize("Episode 3: The Return"), "Episode 3 - The Return")
        XCTAssertEqual(FileNamer.sanitize("What? Why."), "What Why")
        XCTAssertEqual(FileNamer.sanitize("CON"), "CON_")
        XCTAssertEqual(FileNamer.sanitize("lpt1"), "lpt1_")
        XCTAssertEqual(FileNamer.sanitize("Console"), "Console")
    }

    func test_sanitize_deviceNameBeforeAnExtension_isMarkedOnce_whereWindowsLooks() {
        // Windows reserves "nul.txt" and "aux.tar.gz" as it does "nul": the part before the first dot counts.
        XCTAssertEqual(FileNamer.sanitize("nul.txt"), "nul_.txt")
        XCTAssertEqual(FileNamer.sanitize("aux.tar.gz"), "aux_.tar.gz")
        XCTAssertEqual(FileNamer.sanitize("con .mp3"), "con_ .mp3")
        for name in ["nul.txt", "aux.tar.gz", "con .mp3", "CON"] {
            let once = FileNamer.sanitize(name)
            XCTAssertEqual(FileNamer.sanitize(once), once, "sanitizing again adds nothing: \(name)")
            let file = FileNamer.fileName(stem: once, extension: "mp3")
            XCTAssertEqual(FileNamer.sanitize(file), file, "\(file) is no device name on Windows")
        }
    }

    func test_sanitize_controlCharactersAndWhitespace_areRemovedOrCollapsed() {
        XCTAssertEqual(FileNamer.sanitize("Bell\u{7}Nul\u{0}\u{FFFD}Tab\tLine\nFeed"), "BellNulTab Line Feed")
        XCTAssertEqual(FileNamer.sanitize("  lots   of \u{A0} space  "), "lots of space")
        XCTAssertEqual(FileNamer.sanitize("bidi\u{202E}override\u{200B}"), "bidioverride")
    }

    func test_sanitize_unicode_isNormalizedToNFC() {
        let decomposed = "Cafe\u{301}"
        XCTAssertEqual(FileNamer.sanitize(decomposed).unicodeScalars.map(\.value), "Café".unicodeScalars.map(\.value))
    }

    func test_fileName_overlongTitles_fitIn255BytesKeepingExtensionAndCounter() {
        let stem = String(repeating: "ä", count: 300)  // 600 bytes of UTF-8

        let first = FileNamer.fileName(stem: stem, extension: "mp3")
        let second = FileNamer.fileName(stem: stem, extension: "mp3", counter: 2)

        XCTAssertLessThanOrEqual(first.utf8.count, 255)
        XCTAssertTrue(first.hasSuffix("ä.mp3"))
        XCTAssertLessThanOrEqual(second.utf8.count, 255)
        XCTAssertTrue(second.hasSuffix("ä (2).mp3"))
        XCTAssertNotEqual(first, second)
    }

    func test_fileExtension_comesFromURLPathElseMIMEType() {
        XCTAssertEqual(FileNamer.fileExtension(url: "https://x.org/a/b.MP3?x=1.wav", mimeType: "audio/ogg"), "mp3")
        XCTAssertEqual(FileNamer.fileExtension(url: "https://x.org/media?id=3", mimeType: "audio/mpeg"), "mp3")
        XCTAssertEqual(FileNamer.fileExtension(url: "https://x.org/get.php?id=3", mimeType: "audio/x-m4a"), "m4a")
        XCTAssertEqual(FileNamer.fileExtension(url: "https://x.org/get.php?id=3", mimeType: nil), "php")
        XCTAssertEqual(FileNamer.fileExtension(url: "https://x.org/file.a/b..c/../x", mimeType: nil), nil)
        XCTAssertNil(FileNamer.fileExtension(url: "https://x.org/noext", mimeType: "application/x-unknown"))
    }
}
