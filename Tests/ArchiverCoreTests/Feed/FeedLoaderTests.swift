import ArchiverCoreTesting
import Foundation
import XCTest

// A local feed file that cannot be read is named with why, through the file seam (no system call of its own).
@testable import ArchiverCore

final class FeedLoaderTests: XCTestCase {
    private let logger = RequestLogger()

    private func reason(loading path: String, in fileSystem: FakeFileSystem) async -> String? {
        let loader = FeedLoader(
            fetcher: StubFetcher(logger: logger, answers: [:], onUnexpected: failOnUnexpected), files: fileSystem,
            timer: noDeadline)
        do {
            _ = try await loader.load(.local(path: path))
            return nil
        } catch FeedError.unreadableFile(let failing, let reason) {
            XCTAssertEqual(failing, path)
            return reason
        } catch {
            XCTFail("expected an unreadable file, got \(error)")
            return nil
        }
    }

    func test_localFeed_missingFolderOrUnreadable_saysWhich() async {
        let fileSystem = FakeFileSystem(files: ["/feeds/show/feed.xml": Data("<rss/>".utf8)])
        fileSystem.put("/feeds/secret.xml", Data("<rss/>".utf8))
        fileSystem.unreadable = ["/feeds/secret.xml"]

        let missing = await reason(loading: "/feeds/none.xml", in: fileSystem)
        let folder = await reason(loading: "/feeds/show", in: fileSystem)
        let unreadable = await reason(loading: "/feeds/secret.xml", in: fileSystem)

        XCTAssertEqual(missing, "no such file")
        XCTAssertEqual(folder, "it is a folder")
        XCTAssertEqual(unreadable, "permission denied")
    }
}
