// The one way a record is read and written (`RecordFile`): each record where every version kept it, written with its
// durability, and the bytes an archive of the last release holds read and written back unchanged.
import ArchiverCoreTesting
import Foundation
import XCTest

@testable import ArchiverCore

final class RecordFileTests: XCTestCase {
    private let fileSystem = FakeFileSystem()
    private let root = URL(fileURLWithPath: "/archive", isDirectory: true)
    private var show: ShowState { ShowState(folder: root.appendingPathComponent("My Show", isDirectory: true)) }

    func test_showState_pathsAreWhereEveryVersionKeptThem() {
        let state = "/archive/My Show/.podarchive/"
        XCTAssertEqual(show.stateFolder.path, "/archive/My Show/.podarchive")
        XCTAssertEqual(show.index.path, state + "index.json")
        XCTAssertEqual(show.journal.path, state + "index.journal")
        XCTAssertEqual(show.downloadLog.path, state + "downloads.log")
        XCTAssertEqual(show.lock.path, state + "lock")
        XCTAssertEqual(show.siteStamp.path, state + "site.stamp")
        XCTAssertEqual(show.history.path, state + "history")
        XCTAssertEqual(show.currentDocument("xml").path, state + "history/current.xml")
        XCTAssertEqual(show.downloadBody("ab12").path, state + "download-ab12.part")
        XCTAssertEqual(show.downloadRecord("ab12").path, state + "download-ab12.json")
        XCTAssertEqual(show.validators.path, state + "feed.json")
        XCTAssertEqual(show.companionMisses.path, state + "companions.json")
        XCTAssertEqual(show.hooks.path, state + "hooks.json")
        XCTAssertEqual(show.forgotten.path, state + "forgotten.json")
        XCTAssertEqual(show.pendingMove.path, state + "credentials-move.json")
        XCTAssertEqual(ShowState(index: show.index), show, "the state of a show found from its index")
        XCTAssertEqual(ShowState(stateFolder: show.stateFolder), show, "and from its state folder")
        XCTAssertEqual(ArchiveLayout.indexFile(of: show.folder), show.index, "the executable's way to the index")
    }

    func test_archiveRoot_pathsAreWhereEveryVersionKeptThem() {
        let archive = ArchiveRoot(root)
        XCTAssertEqual(archive.stateFolder.path, "/archive/.podarchive")
        XCTAssertEqual(archive.subscriptionsFolder.path, "/archive/.podarchive/feeds")
        XCTAssertEqual(archive.subscription("ab12").path, "/archive/.podarchive/feeds/ab12.json")
        XCTAssertEqual(archive.identity.path, "/archive/.podarchive/archive.json")
        XCTAssertEqual(archive.siteSettings.path, "/archive/.podarchive/site.json")
        XCTAssertEqual(archive.sitePublished.path, "/archive/.podarchive/site-published.json")
        XCTAssertEqual(archive.lock.path, "/archive/.podarchive/lock")
        XCTAssertEqual(archive.showFolder("A/B: C").path, "/archive/" + FileNamer.sanitize("A/B: C"))
    }

    func test_save_writesEachRecordWithItsDurability() throws {
        let writer = SpyWriter(fileSystem)
        try fileSystem.createDirectory(at: show.stateFolder, withIntermediateDirectories: true, attributes: nil)
        try fileSystem.createDirectory(
            at: ArchiveRoot(root).subscriptionsFolder, withIntermediateDirectories: true, attributes: nil)
        try show.validators.save(FeedValidators(etag: "\"e\"", lastModified: nil), writer)
        try show.companionMisses.save(CompanionMisses(), writer)
        try show.hooks.save(HookLedger(), writer)
        try show.forgotten.save(ForgottenEpisodes(), writer)
        try show.pendingMove.save(PendingMove(), writer)
        try ArchiveRoot(root).siteSettings.save(SiteSettings(enabled: true), writer)
        try ArchiveRoot(root).sitePublished.save(PublishedFiles(out: "/srv", files: []), writer)
        let record = Subscription(feed: "https://a.example/feed", folder: "My Show", id: "ab12")
        try ArchiveRoot(root).subscription("ab12").save(record, writer)
        // The mark that makes the next sync read the feed in full is an intent, though validators are a hint.
        try FeedValidators.readInFullNextTime(show.validators, files: fileSystem, writer: writer)

        XCTAssertEqual(
            writer.writes.map {
                "\(($0.path as NSString).lastPathComponent) durable=\($0.durable) 0600=\($0.ownerOnly)"
            },
            [
                "feed.json durable=false 0600=false", "companions.json durable=false 0600=false",
                "hooks.json durable=true 0600=false", "forgotten.json durable=true 0600=false",
                "credentials-move.json durable=true 0600=false", "site.json durable=false 0600=false",
                "site-published.json durable=false 0600=false", "ab12.json durable=false 0600=true",
                "feed.json durable=true 0600=false",
            ])
    }

    /// Records as the last release (0.1.0) and main before this change wrote them (`JSONEncoder.records`: compact,
    /// keys sorted, slashes unescaped): read as they were, and written back byte for byte.
    func test_recordsOfTheLastRelease_readAndWrittenBackByteForByte() throws {
        try fileSystem.createDirectory(at: show.stateFolder, withIntermediateDirectories: true, attributes: nil)
        try fileSystem.createDirectory(
            at: ArchiveRoot(root).stateFolder, withIntermediateDirectories: true, attributes: nil)
        let validators =
            #"{"etag":"\"v1\"","fetched":"2026-11-27T10:00:00Z","incomplete":true,"listed":3,"wants":"w1"}"#
        try roundTrip(validators, show.validators) {
            XCTAssertEqual($0.etag, "\"v1\"")
            XCTAssertEqual($0.listed, 3)
            XCTAssertEqual($0.incomplete, true)
        }
        try roundTrip(#"{"version":1}"#, show.pendingMove) { XCTAssertEqual($0.version, 1) }
        try roundTrip(#"{"misses":{"Pilot.srt":2}}"#, show.companionMisses) {
            XCTAssertEqual($0.misses["Pilot.srt"], 2)
        }
        try roundTrip(#"{"baseURL":"http://nas.local/podcasts/","enabled":true}"#, ArchiveRoot(root).siteSettings) {
            XCTAssertEqual($0.baseURL, "http://nas.local/podcasts/")
        }
        try roundTrip(#"{"files":["Show/index.html"],"out":"/srv/site"}"#, ArchiveRoot(root).sitePublished) {
            XCTAssertEqual($0.files, ["Show/index.html"])
        }
        // A set's order is the hasher's: read back, not compared byte for byte.
        fileSystem.put(show.hooks.url.path, Data(#"{"done":["a"],"failing":{"b":1},"gaveUp":[]}"#.utf8))
        XCTAssertEqual(show.hooks.load(fileSystem)?.failing, ["b": 1])
    }

    func test_load_damagedOrMissing_isNone_andRemove_ofOneGone_isDone() throws {
        try fileSystem.createDirectory(at: show.stateFolder, withIntermediateDirectories: true, attributes: nil)
        XCTAssertNil(show.validators.load(fileSystem))
        fileSystem.put(show.validators.url.path, Data("{not json".utf8))
        XCTAssertNil(show.validators.load(fileSystem), "a damaged record is as good as none")
        try show.validators.remove(fileSystem)
        XCTAssertFalse(show.validators.exists(fileSystem))
        XCTAssertNoThrow(try show.validators.remove(fileSystem), "gone already: removed all the same")
    }

    private func roundTrip<Record: Codable>(
        _ text: String, _ file: RecordFile<Record>, check: (Record) -> Void, line: UInt = #line
    ) throws {
        fileSystem.put(file.url.path, Data(text.utf8))
        let read = try XCTUnwrap(file.load(fileSystem), "reads the last release's record", line: line)
        check(read)
        try file.save(read, fileSystem)
        XCTAssertEqual(
            fileSystem.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self) }, text,
            "written back byte for byte", line: line)
    }
}

/// Records each atomic write's durability and mode, and makes it in a fake file system.
private final class SpyWriter: AtomicFileWriting {
    struct Write: Equatable {
        var path: String
        var durable: Bool
        var ownerOnly: Bool
    }

    private let files: FakeFileSystem
    private let made = Locked<[Write]>([])
    var writes: [Write] { made.withLock { $0 } }

    init(_ files: FakeFileSystem) { self.files = files }

    func writeAtomically(_ data: Data, to url: URL, durable: Bool, ownerOnly: Bool) throws {
        made.withLock { $0.append(Write(path: url.path, durable: durable, ownerOnly: ownerOnly)) }
        try files.writeAtomically(data, to: url, durable: durable, ownerOnly: ownerOnly)
    }

    func append(_ data: Data, to url: URL, durable: Bool) throws -> Int64 {
        try files.append(data, to: url, durable: durable)
    }

    func createExclusively(_ data: Data, at url: URL) throws -> Bool { try files.createExclusively(data, at: url) }
}
