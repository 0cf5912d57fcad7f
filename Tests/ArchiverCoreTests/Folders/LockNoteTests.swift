import Foundation
import TestSupport
import XCTest

// The note a lock's holder keeps in the lock file (a show's last sync): written in place, kept across holders,
// and read beside the holder's PID, also from lock files written before notes.
@testable import ArchiverCore

final class LockNoteTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let locker = FlockLocker()

    override func setUpWithError() throws {
        folder = try TemporaryFolder("lock-note")
    }

    override func tearDown() {
        folder?.remove()
    }

    private var lockFile: URL { folder.url.appendingPathComponent("lock", isDirectory: false) }

    private func inode() throws -> Int? {
        try FileManager.default.attributesOfItem(atPath: lockFile.path)[.systemFileNumber] as? Int
    }

    func test_aNote_isKeptInPlace_andOutlivesItsHolder() throws {
        let first = try XCTUnwrap(locker.tryLock(lockFile))
        let file = try inode()
        first.keep(Data(#"{"finished":"2026-11-27T03:00:00Z","outcome":"ok"}"#.utf8))
        first.unlock()

        let second = try XCTUnwrap(locker.tryLock(lockFile))
        defer { second.unlock() }

        XCTAssertEqual(
            locker.note(in: lockFile), Data(#"{"finished":"2026-11-27T03:00:00Z","outcome":"ok"}"#.utf8),
            "the next holder's PID does not erase the last holder's note")
        XCTAssertEqual(locker.lockHolder(lockFile), getpid())
        XCTAssertEqual(try inode(), file, "the lock file is written in place, never replaced")
    }

    func test_aShorterNote_leavesNothingOfTheLongerOneBehind() throws {
        let held = try XCTUnwrap(locker.tryLock(lockFile))
        defer { held.unlock() }

        held.keep(Data(String(repeating: "x", count: 200).utf8))
        held.keep(Data("short".utf8))

        XCTAssertEqual(locker.note(in: lockFile), Data("short".utf8))
        XCTAssertEqual(try Data(contentsOf: lockFile).count, 16 + 6)
    }

    func test_aLockFileFromBeforeNotes_hasItsHolder_andNoNote() throws {
        try Data("4242\n".utf8).write(to: lockFile)

        XCTAssertEqual(locker.lockHolder(lockFile), 4242)
        XCTAssertNil(locker.note(in: lockFile))
    }
}
