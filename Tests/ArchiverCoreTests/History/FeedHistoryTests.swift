import ArchiverCoreTesting
import Foundation
import XCTest

// The feed's own history: each revision of what the feed says kept gzip-compressed, the newest in full; build
// dates and item order are no revision; show notes of a deleted episode can be found again.
@testable import ArchiverCore

final class FeedHistoryTests: XCTestCase {
    private let feedURL = "https://example.com/feed.xml"
    private let history = "/archive/Show/.podarchive/history/"

    private func rss(_ items: [(title: String, notes: String)], built: String = "Mon, 01 Jan 2024 00:00:00 GMT")
        -> Data
    {
        var text = "<rss version=\"2.0\"><channel><title>Show</title><lastBuildDate>\(built)</lastBuildDate>"
        for item in items {
            text +=
                "<item><title>\(item.title)</title><guid>\(item.title)</guid>"
                + "<description>\(item.notes)</description>"
                + "<enclosure url=\"https://example.com/\(item.title).mp3\" type=\"audio/mpeg\"/></item>"
        }
        return Data((text + "</channel></rss>").utf8)
    }

    /// Syncs `feeds` one after another, `apart` seconds apart (a day unless told), into one archive; returns the
    /// history's files.
    private func syncEach(_ feeds: [Data], apart: TimeInterval = 86_400, fileSystem: FakeFileSystem = FakeFileSystem())
        async throws -> (FakeFileSystem, [String])
    {
        let clock = TestClock(Date(timeIntervalSince1970: 1_800_000_000))
        for feed in feeds {
            let world = ArchiveWorld(
                feedURL: feedURL, feed: feed,
                episodes: ["One", "Two", "Three"].reduce(into: [:]) {
                    $0["https://example.com/\($1).mp3"] = SpyDownloader.Canned(body: Data("audio \($1)".utf8))
                }, clock: { clock.now }, fileSystem: fileSystem, onUnexpected: failOnUnexpected)
            _ = try await world.archiver.sync(.remote(URL(string: feedURL)!), into: URL(fileURLWithPath: "/archive"))
            clock.advance(apart)
        }
        return (
            fileSystem, fileSystem.allFiles.filter { $0.hasPrefix(history) }.map { String($0.dropFirst(history.count)) }
        )
    }

    func test_firstSync_keepsTheDocument_compressed_andAsCurrent() async throws {
        let feed = rss([("One", "first notes")])

        let (fileSystem, files) = try await syncEach([feed])

        XCTAssertEqual(files, ["2027-01-15T08-00-00Z.xml.gz", "current.xml"])
        XCTAssertEqual(fileSystem.file(history + "current.xml"), feed)
        XCTAssertEqual(try Gzip.decompress(XCTUnwrap(fileSystem.file(history + "2027-01-15T08-00-00Z.xml.gz"))), feed)
    }

    func test_onlyBuildDateOrOrderChanged_isNoNewRevision_aChangedShowNoteIs() async throws {
        let first = rss([("One", "notes"), ("Two", "notes")])
        let reordered = rss([("Two", "notes"), ("One", "notes")], built: "Tue, 02 Jan 2024 00:00:00 GMT")
        let renoted = rss([("Two", "better notes"), ("One", "notes")])

        let (_, files) = try await syncEach([first, reordered, renoted])

        XCTAssertEqual(files, ["2027-01-15T08-00-00Z.xml.gz", "2027-01-17T08-00-00Z.xml.gz", "current.xml"])
    }

    func test_showNotesOfADeletedEpisode_canBeFoundAgain() async throws {
        let (fileSystem, files) = try await syncEach([
            rss([("One", "the notes of One"), ("Two", "notes")]), rss([("Two", "notes")]),
        ])

        let oldest = try Gzip.decompress(XCTUnwrap(fileSystem.file(history + XCTUnwrap(files.first))))
        XCTAssertTrue(String(decoding: oldest, as: UTF8.self).contains("the notes of One"))
        XCTAssertFalse(
            String(decoding: try XCTUnwrap(fileSystem.file(history + "current.xml")), as: UTF8.self).contains("One"))
    }

    func test_revisionsWithinOneSecond_areEachKept_inTimeOrder_andCurrentIsTheNewest() async throws {
        let feeds = (1...3).map { rss([("One", "notes, take \($0)")]) }

        let (fileSystem, files) = try await syncEach(feeds, apart: 0.25)

        XCTAssertEqual(
            files,
            [
                "2027-01-15T08-00-00Z.xml.gz", "2027-01-15T08-00-00Z_002.xml.gz", "2027-01-15T08-00-00Z_003.xml.gz",
                "current.xml",
            ], "sorted as text, they are in the order they were fetched")
        for (name, feed) in zip(files, feeds) {
            XCTAssertEqual(try Gzip.decompress(XCTUnwrap(fileSystem.file(history + name))), feed, name)
        }
        XCTAssertEqual(fileSystem.file(history + "current.xml"), feeds[2])
    }

    func test_aRevisionOfAnotherFormatInTheSameSecond_sortsAfter_andReplacesCurrent() async throws {
        let json =
            Data(
                #"{"version":"https://jsonfeed.org/version/1.1","title":"Show","items":[{"id":"One","title":"One","#
                    .utf8)
            + Data(#""attachments":[{"url":"https://example.com/One.mp3","mime_type":"audio/mpeg"}]}]}"#.utf8)
        let feeds = [rss([("One", "notes")]), json]

        let (fileSystem, files) = try await syncEach(feeds, apart: 0.5)

        XCTAssertEqual(files, ["2027-01-15T08-00-00Z.xml.gz", "2027-01-15T08-00-00Z_002.json.gz", "current.json"])
        XCTAssertNil(
            fileSystem.file(history + "current.xml"), "a current document of the old format is no longer current")
        XCTAssertEqual(fileSystem.file(history + "current.json"), json)
    }

    func test_anExistingRevision_isNeverOverwritten_whateverNumberItHas() async throws {
        // The first is named as earlier versions name every revision; another was left numbered (a copy, a crash).
        let first = rss([("One", "notes")])
        let (fileSystem, _) = try await syncEach([first])
        let numbered = Data("a numbered revision".utf8)
        fileSystem.put(history + "2027-01-15T08-00-00Z_004.xml.gz", numbered)
        let second = rss([("One", "better notes")])

        let (_, files) = try await syncEach([second], fileSystem: fileSystem)

        XCTAssertEqual(
            files,
            [
                "2027-01-15T08-00-00Z.xml.gz", "2027-01-15T08-00-00Z_004.xml.gz", "2027-01-15T08-00-00Z_005.xml.gz",
                "current.xml",
            ])
        XCTAssertEqual(try Gzip.decompress(XCTUnwrap(fileSystem.file(history + files[0]))), first)
        XCTAssertEqual(fileSystem.file(history + files[1]), numbered)
        XCTAssertEqual(try Gzip.decompress(XCTUnwrap(fileSystem.file(history + files[2]))), second)
        XCTAssertEqual(fileSystem.file(history + "current.xml"), second)
    }

    func test_onAFileSystemWithoutHardLinks_revisionsWithinOneSecondAreStillEachKept() async throws {
        // FAT and exFAT refuse link(2) (EPERM): exclusive creation cannot be had, and the show's lock stands in.
        // The archive was made on another disk (its identity is there already), then copied to such a one.
        let fileSystem = FakeFileSystem()
        let feeds = [rss([("One", "notes")]), rss([("One", "better notes")])]
        for (run, feed) in feeds.enumerated() {
            let logger = RequestLogger()
            let writer: any AtomicFileWriting = run == 0 ? fileSystem : NoHardLinks(fileSystem)
            let archiver = Archiver(
                fileSystem: FileSystemSeams(
                    files: fileSystem, attributes: fileSystem, mover: fileSystem, writer: writer, locker: fileSystem,
                    hasher: fileSystem),
                network: NetworkSeams(
                    fetcher: StubFetcher(logger: logger, feedURL: feedURL, body: feed, onUnexpected: failOnUnexpected),
                    downloader: SpyDownloader(
                        logger: logger, fileSystem: fileSystem,
                        canned: ["https://example.com/One.mp3": SpyDownloader.Canned(body: Data("audio".utf8))],
                        onUnexpected: failOnUnexpected)),
                clock: SyncClock(
                    now: { Date(timeIntervalSince1970: 1_800_000_000) }, sleep: { _ in }, timer: noDeadline,
                    jitter: { 0.5 }))
            _ = try await archiver.sync(.remote(URL(string: feedURL)!), into: URL(fileURLWithPath: "/archive"))
        }

        let files = fileSystem.allFiles.filter { $0.hasPrefix(history) }.map { String($0.dropFirst(history.count)) }
        XCTAssertEqual(files, ["2027-01-15T08-00-00Z.xml.gz", "2027-01-15T08-00-00Z_002.xml.gz", "current.xml"])
        for (name, feed) in zip(files, feeds) {
            XCTAssertEqual(try Gzip.decompress(XCTUnwrap(fileSystem.file(history + name))), feed, name)
        }
    }

    func test_verify_namesADamagedRevision_andLeavesIt() async throws {
        let (fileSystem, files) = try await syncEach([rss([("One", "notes")])])
        let revision = history + (try XCTUnwrap(files.first))
        var damaged = try XCTUnwrap(fileSystem.file(revision))
        damaged[damaged.count - 5] ^= 0xFF
        fileSystem.put(revision, damaged)
        let world = ArchiveWorld(
            feedURL: feedURL, feed: Data(), episodes: [:], clock: { Date() }, fileSystem: fileSystem,
            onUnexpected: failOnUnexpected)
        let events = VerifyEvents()

        let report = try await world.archiver.verify(URL(fileURLWithPath: "/archive"), repair: false) {
            events.append($0)
        }

        XCTAssertEqual(report.damagedHistory, 1)
        XCTAssertEqual(report.remaining, 1, "a damaged revision is a problem of the archive")
        XCTAssertEqual(events.damaged, [files[0]])
        XCTAssertEqual(fileSystem.file(revision), damaged, "left as it is")
    }

    func test_gzip_roundTrips_andADamagedFileIsNamedAsSuch() throws {
        let text = Data(String(repeating: "podcast history ", count: 1000).utf8)
        var packed = Gzip.compress(text)

        XCTAssertEqual(try Gzip.decompress(packed), text)
        XCTAssertLessThan(packed.count, text.count / 10)
        packed[packed.count / 2] ^= 0xFF
        XCTAssertThrowsError(try Gzip.decompress(packed)) { XCTAssertTrue($0 is Gzip.Damaged) }
        XCTAssertThrowsError(try Gzip.decompress(packed.prefix(20))) { XCTAssertTrue($0 is Gzip.Damaged) }
    }
}

private final class VerifyEvents: @unchecked Sendable {
    private let lock = NSLock()
    private var files: [String] = []

    func append(_ event: VerifyEvent) {
        if case .historyDamaged(_, let file, _) = event { lock.withLock { files.append(file) } }
    }

    var damaged: [String] { lock.withLock { files } }
}

/// A disk whose file system has no hard links: exclusive creation through link(2) fails with EPERM.
private struct NoHardLinks: AtomicFileWriting {
    let disk: FakeFileSystem

    init(_ disk: FakeFileSystem) { self.disk = disk }

    func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool) throws {
        try disk.writeAtomically(data, to: url, durable: durable, ownerOnly: ownerOnly)
    }

    func append(_ data: Data, to url: URL, durable: Bool) throws -> Int64 {
        try disk.append(data, to: url, durable: durable)
    }

    func createExclusively(_ data: Data, at url: URL) throws -> Bool {
        throw FileSystemError(path: url.path, code: EPERM)
    }
}
