import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// `verify` on an archive it cannot write, on the in-memory file system raising what the live one raises (EROFS on a
// read-only mount, EACCES for files it may read but not write): a recheck takes the show's lock on its lock file as
// it is, or reads without it and says so, and writes nothing; a repair stops, naming the lock file.
@testable import ArchiverCore

final class ReadOnlyVerifyTests: FakeArchiveTestCase {
    private let feed = FeedText.rss([("A", "https://example.com/a.mp3", "a"), ("B", "https://example.com/b.mp3", "b")])
    private let lock = "/archive/Show/.podarchive/lock"

    /// An archive of two episodes, B's file since changed.
    private func archive() async throws {
        downloader.script("https://example.com/a.mp3", [audio("episode a")])
        downloader.script("https://example.com/b.mp3", [audio("episode b")])
        _ = try await sync(feed)
        fileSystem.put("/archive/Show/B.mp3", Data("episode X".utf8))
    }

    /// What `verify` says of `root` on `files`, and the changes it made there.
    private func verify(on files: FakeFileSystem, repair: Bool = false) async throws
        -> (report: VerifyReport, events: [VerifyEvent], changes: [String])
    {
        let before = files.atomicWrites + files.appends
        let events = Locked<[VerifyEvent]>([])
        let archiver = Archiver(
            fileSystem: FileSystemSeams(
                files: files, attributes: files, mover: files, writer: files, locker: files, hasher: files),
            network: NetworkSeams(
                fetcher: StubFetcher(logger: logger, feedURL: feedURL, body: feed, onUnexpected: failOnUnexpected),
                downloader: downloader),
            clock: SyncClock(
                now: { Date(timeIntervalSince1970: 1_800_000_000) }, sleep: { _ in }, timer: noDeadline, jitter: { 0.5 }
            ))
        let report = try await archiver.verify(root, repair: repair) { event in events.withLock { $0.append(event) } }
        return (report, events.current, Array((files.atomicWrites + files.appends).dropFirst(before.count)))
    }

    func test_verify_onAReadOnlyMount_takesTheLockOnItsLockFileAsItIs_findsTheDamage_andWritesNothing() async throws {
        try await archive()
        fileSystem.unwritable = ["/archive": EROFS]

        let (report, events, changes) = try await verify(on: fileSystem)

        XCTAssertEqual(report.problems.map(\.file), ["B.mp3"])
        XCTAssertEqual(report.files, 2)
        XCTAssertFalse(events.contains { if case .unlocked = $0 { true } else { false } }, "the lock was taken")
        XCTAssertEqual(changes, [])
    }

    func test_verify_onAReadOnlyMount_waitsForASyncThatHoldsTheLock() async throws {
        try await archive()
        fileSystem.unwritable = ["/archive": EROFS]
        fileSystem.holdLock(lock, by: 4242)

        do {
            _ = try await verify(on: fileSystem)
            XCTFail("expected the show to be reported locked")
        } catch {
            XCTAssertEqual(error as? ArchiveError, .locked(folder: "/archive/Show", holder: 4242))
        }
    }

    func test_verify_whereNoLockCanBeTaken_readsWithoutIt_andSaysSo() async throws {
        try await archive()
        // A copy without its lock files (a backup), which this user may read but not write.
        let copy = FakeFileSystem()
        for path in fileSystem.allFiles where !path.hasSuffix("/lock") { copy.put(path, fileSystem.file(path)!) }
        copy.unwritable = ["/archive": EACCES]

        let (report, events, changes) = try await verify(on: copy)

        XCTAssertEqual(report.problems.map(\.file), ["B.mp3"])
        XCTAssertEqual(
            events.filter { if case .unlocked = $0 { true } else { false } },
            [
                .unlocked(
                    folder: root.appendingPathComponent("Show", isDirectory: true),
                    why: .readOnly(path: lock, reason: "Permission denied")
                )
            ])
        XCTAssertEqual(changes, [])
    }

    func test_verifyRepair_onAnArchiveItCannotWrite_stops_namingTheLockFile_andWritesNothing() async throws {
        try await archive()
        let before = fileSystem.atomicWrites + fileSystem.appends
        for code in [EROFS, EACCES] {
            fileSystem.unwritable = ["/archive": code]

            do {
                _ = try await verify(on: fileSystem, repair: true)
                XCTFail("expected the repair to stop")
            } catch {
                XCTAssertEqual(
                    error as? ArchiveError, .readOnly(path: lock, reason: String(cString: strerror(code))))
                XCTAssertEqual(
                    error.localizedDescription,
                    "cannot write \(lock): \(String(cString: strerror(code))); the archive can be read here, not "
                        + "changed")
            }
        }
        XCTAssertEqual(fileSystem.atomicWrites + fileSystem.appends, before)
        XCTAssertEqual(fileSystem.file("/archive/Show/B.mp3"), Data("episode X".utf8))
    }
}
