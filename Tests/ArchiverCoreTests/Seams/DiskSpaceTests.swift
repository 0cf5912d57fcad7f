import ArchiverCoreTesting
import Foundation
import XCTest

// Downloads in parallel on a nearly full disk: each claims the space it will need before it starts, so the
// episodes that fit are archived whole and the rest never start a write the disk cannot hold.
@testable import ArchiverCore

final class DiskSpaceTests: XCTestCase {
    private let root = URL(fileURLWithPath: "/archive")

    func test_parallelDownloadsOnANearlyFullDisk_archiveWhatFits_andNoWriteEverFails() async throws {
        let sizes = [250_000, 200_000, 150_000, 250_000, 200_000, 300_000, 250_000, 200_000]
        let items = sizes.indices.map { ("Episode \($0)", "https://example.com/\($0).mp3", "g\($0)") }
        var episodes: [String: SpyDownloader.Canned] = [:]
        for (index, size) in sizes.enumerated() {
            episodes["https://example.com/\(index).mp3"] = SpyDownloader.Canned(
                body: Data(repeating: UInt8(index), count: size), headers: ["Content-Type": "audio/mpeg"])
        }
        let world = ArchiveWorld(
            feedURL: "https://example.com/feed.xml", feed: FeedText.rss(items), episodes: episodes,
            now: Date(timeIntervalSince1970: 1_800_000_000), onUnexpected: failOnUnexpected)
        world.fileSystem.capacity = 620_000
        var options = SyncOptions(jobs: 4)
        options.budget = DownloadBudget(total: 4, perHost: 4)

        do {
            _ = try await world.archiver.sync(
                .remote(URL(string: "https://example.com/feed.xml")!), into: root, options: options)
            XCTFail("eight episodes of 1.8 MB cannot fit in 620 KB")
        } catch let error as ArchiveError {
            guard case .storage(_, let reason) = error else { return XCTFail("expected a full disk, got \(error)") }
            XCTAssertTrue(reason.contains("only"), reason)
        }

        let archived = world.fileSystem.visibleFiles
        XCTAssertGreaterThanOrEqual(archived.count, 2, "what fits is archived: \(archived)")
        for path in archived {
            let index = Int(path.split(separator: " ").last!.dropLast(4))!
            XCTAssertEqual(world.fileSystem.file(path)?.count, sizes[index], "\(path) is whole")
        }
        XCTAssertEqual(world.fileSystem.outOfSpaceWrites, 0, "no download started a write the disk could not hold")
    }
}
