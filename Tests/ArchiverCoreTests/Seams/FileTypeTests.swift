import Foundation
import TestSupport
import XCTest

// FileManager's `typeAndSize`: the one lstat(2) that the link and size checks use instead of `attributesOfItem`
// (which, on Linux, reads /etc/passwd and /etc/group on every call).
@testable import ArchiverCore

final class FileTypeTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("file-type")
    }

    override func tearDown() {
        folder?.remove()
    }

    func test_typeAndSize_saysWhatAttributesOfItemSays_withoutFollowingALink() throws {
        let file = folder.url.appendingPathComponent("file")
        try Data(repeating: 7, count: 1234).write(to: file)
        let link = folder.url.appendingPathComponent("link")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: file)
        let manager = FileManager.default

        let found = [file, link, folder.url].map { manager.typeAndSize(atPath: $0.path) }

        XCTAssertEqual(found[0]?.type, .typeRegular)
        XCTAssertEqual(found[0]?.size, 1234)
        XCTAssertEqual(found[1]?.type, .typeSymbolicLink, "a link is seen, not followed")
        XCTAssertEqual(found[2]?.type, .typeDirectory)
        for url in [file, link, folder.url] {
            XCTAssertEqual(
                manager.typeAndSize(atPath: url.path)?.type,
                try manager.attributesOfItem(atPath: url.path)[.type] as? FileAttributeType, url.path)
        }
        XCTAssertNil(manager.typeAndSize(atPath: folder.url.appendingPathComponent("missing").path))
    }
}
