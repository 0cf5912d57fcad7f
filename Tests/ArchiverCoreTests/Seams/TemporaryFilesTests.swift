// Temporary files, one naming scheme and one sweeper: a name says the host and process that made it, and the
// sweeper removes a file no process will rename (a dead process's of this host, anything under a lock held) and
// never one a live process of this host or any process of another host may still be writing.
import Foundation
import TestSupport
import XCTest

@testable import ArchiverCore

final class TemporaryFilesTests: XCTestCase {
    private var folder: TemporaryFolder!
    private let me = TemporaryOwner.current

    override func setUpWithError() throws {
        folder = try TemporaryFolder("temporary")
    }

    override func tearDown() {
        folder?.remove()
    }

    /// A temporary file's name for `target`, as `owner` would have made it.
    private func name(_ target: String, by owner: TemporaryOwner) -> String {
        ArchiveLayout.temporary(for: target, unique: owner.token + ".1")
    }

    /// A process of this host that has ended.
    private func endedProcess() throws -> TemporaryOwner {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        let started = TemporaryOwner.startTime(of: process.processIdentifier)
        process.waitUntilExit()
        return TemporaryOwner(host: me.host, pid: process.processIdentifier, started: started)
    }

    /// Another process of this host, running while the test does (the one that started it).
    private var runningProcess: TemporaryOwner {
        TemporaryOwner(host: me.host, pid: getppid(), started: TemporaryOwner.startTime(of: getppid()))
    }

    func test_aName_saysWhoseItIs_andIsNewOnEveryCall() throws {
        let first = TemporaryFiles.name(for: "index.json")
        let second = TemporaryFiles.name(for: "index.json")

        XCTAssertNotEqual(first, second, "two writes of one file at once never share a temporary file")
        let parts = try XCTUnwrap(ArchiveLayout.temporaryParts(of: first))
        XCTAssertEqual(parts.target, "index.json")
        XCTAssertEqual(TemporaryOwner(unique: parts.unique), me)
        XCTAssertTrue(first.hasPrefix(".index.json.tmp-\(me.host).\(getpid())."), first)
        #if os(Linux)
            XCTAssertNotNil(me.started, "the start of this process is read from /proc")
        #endif
    }

    func test_theNameOfALongFile_isAFileNameStill_andStillSaysWhoseItIs() throws {
        let long = String(repeating: "é", count: 127) + ".a"  // 256 bytes: longer than any name may be
        let name = TemporaryFiles.name(for: long)

        XCTAssertLessThanOrEqual(name.utf8.count, 255)
        XCTAssertEqual(TemporaryOwner(unique: try XCTUnwrap(ArchiveLayout.temporaryParts(of: name)).unique), me)
        XCTAssertTrue(ArchiveLayout.isTemporary(name, of: long))
    }

    func test_staleness_byOwner() throws {
        let ended = try endedProcess()
        let running = runningProcess
        var reused = running
        reused.started = (running.started ?? 0) + 1
        let elsewhere = TemporaryOwner(host: me.host + "-other", pid: ended.pid, started: ended.started)
        let unguarded: (Substring) -> Bool = { _ in false }
        let guarded: (Substring) -> Bool = { _ in true }

        XCTAssertFalse(TemporaryFiles.isStale(name("a", by: me), guarded: guarded), "never this process's own")
        XCTAssertTrue(TemporaryFiles.isStale(name("a", by: ended), guarded: unguarded), "an ended process's")
        XCTAssertFalse(TemporaryFiles.isStale(name("a", by: running), guarded: unguarded), "a running process's")
        #if os(Linux)
            XCTAssertTrue(
                TemporaryFiles.isStale(name("a", by: reused), guarded: unguarded), "its PID is another process's now")
        #endif
        XCTAssertFalse(TemporaryFiles.isStale(name("a", by: elsewhere), guarded: unguarded), "another host's")
        XCTAssertTrue(TemporaryFiles.isStale(name("a", by: elsewhere), guarded: guarded), "under a lock held")
        XCTAssertTrue(TemporaryFiles.isStale(name("a", by: running), guarded: guarded), "under a lock held")
        XCTAssertFalse(TemporaryFiles.isStale("a.json", guarded: guarded), "no temporary file")
    }

    func test_staleness_ofTheNamesPodarchive010Made() throws {
        let ended = try endedProcess()
        let unguarded: (Substring) -> Bool = { _ in false }

        XCTAssertTrue(TemporaryFiles.isStale(".index.html.tmp-\(ended.pid)", guarded: unguarded))
        XCTAssertFalse(TemporaryFiles.isStale(".index.html.tmp-\(getppid())", guarded: unguarded), "running")
        let uuid = ".archive.json.tmp-\(UUID().uuidString)"
        XCTAssertFalse(TemporaryFiles.isStale(uuid, guarded: unguarded), "whose is not known")
        XCTAssertTrue(TemporaryFiles.isStale(uuid, guarded: { _ in true }), "under a lock held")
    }

    func test_sweep_removesWhatNoProcessWillRename_andNothingElse() throws {
        let ended = try endedProcess()
        let elsewhere = TemporaryOwner(host: "another-host", pid: ended.pid, started: ended.started)
        let names = [
            name("index.html", by: ended), ".feeds.opml.tmp-\(ended.pid)", name("index.html", by: runningProcess),
            name("index.html", by: elsewhere), name("index.html", by: me), "index.html", ".hidden",
        ]
        for name in names { try Data().write(to: folder.url.appendingPathComponent(name)) }

        let removed = TemporaryFiles.sweep(folder.url, files: FileManager.default)

        XCTAssertEqual(Set(removed), [names[0], names[1]])
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)), Set(names[2...]))
    }

    // The hook that sees the folders at the rename is in test builds only.
    #if PODARCHIVE_TEST_HOOKS
        func test_aWriteStagedInAnotherFolder_hasItsTemporaryFileThere_andNoneIsLeft() throws {
            let staging = folder.url.appendingPathComponent(".podarchive")
            let show = folder.url.appendingPathComponent("Season 1")
            for made in [staging, show] {
                try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
            }
            let seen = Locked<[String]>([])
            let writer = DurableFileWriter(beforeRename: { _ in
                seen.set(
                    (try? FileManager.default.contentsOfDirectory(atPath: staging.path)) ?? []
                        + ((try? FileManager.default.contentsOfDirectory(atPath: show.path)) ?? []))
            })
            let sidecar = show.appendingPathComponent("Pilot.info.json")

            try writer.writeAtomically(Data("{}".utf8), to: sidecar, durable: false, stagedIn: staging)

            XCTAssertEqual(seen.current.count, 1)
            XCTAssertTrue(ArchiveLayout.isTemporary(try XCTUnwrap(seen.current.first), of: "Pilot.info.json"))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: staging.path), [])
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: show.path), ["Pilot.info.json"])
            XCTAssertEqual(FileManager.default.contents(atPath: sidecar.path), Data("{}".utf8))
            XCTAssertTrue(
                try writer.createExclusively(Data("1".utf8), at: show.appendingPathComponent("r"), stagedIn: staging))
            XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: staging.path), [])
        }
    #endif

    func test_aStagingFolderOnAnotherFileSystem_isLeftForOneBesideTheFile() throws {
        let shared = URL(fileURLWithPath: "/dev/shm")
        guard let here = try? FileManager.default.attributesOfFileSystem(forPath: folder.url.path),
            let there = try? FileManager.default.attributesOfFileSystem(forPath: shared.path),
            here[.systemNumber] as? NSNumber != there[.systemNumber] as? NSNumber
        else { throw XCTSkip("no second file system at /dev/shm to stage a write on") }
        let staging = shared.appendingPathComponent("podarchive-staging-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: staging) }
        let target = folder.url.appendingPathComponent("page.html")

        try DurableFileWriter().writeAtomically(Data("page".utf8), to: target, durable: true, stagedIn: staging)
        let created = try DurableFileWriter().createExclusively(
            Data("r".utf8), at: folder.url.appendingPathComponent("r"), stagedIn: staging)

        XCTAssertEqual(FileManager.default.contents(atPath: target.path), Data("page".utf8))
        XCTAssertTrue(created)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: staging.path), [])
        XCTAssertEqual(Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)), ["page.html", "r"])
    }
}
