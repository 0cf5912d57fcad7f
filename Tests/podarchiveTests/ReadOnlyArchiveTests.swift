// The built binary on an archive it cannot write: a read-only bind mount (EROFS, in a mount namespace of its own,
// where the tests may make one) and files it may read but not write (EACCES: as another user when the tests run as
// root, else on a copy made read-only). `verify` checks it (its lock taken on the lock file as it is, or, with no
// lock file, without the lock, said in one line), `list --archived`, `feeds` and `export` read it, `verify --repair`
// stops naming the lock file, and nothing in the archive changes. ReadOnlyVerifyTests proves the same on the
// in-memory file system wherever the tests run.
import Foundation
import TestSupport
import XCTest

final class ReadOnlyArchiveTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private var archive: URL { folder.url.appendingPathComponent("archive") }
    /// Where what the commands write goes (the export), writable by whoever runs them.
    private var out: URL { folder.url.appendingPathComponent("out") }

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        folder = try TemporaryFolder("read-only")
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Kept Show</title>
                <item><title>One</title><guid>1</guid><enclosure url="/1.mp3" type="audio/mpeg"/></item>
                <item><title>Two</title><guid>2</guid><enclosure url="/2.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/1.mp3", .ok(Data(repeating: 1, count: 10_000)))
        server.route("/2.mp3", .ok(Data(repeating: 2, count: 20_000)))
        let synced = try ProcessRunner.run(
            ProcessRunner.podarchive, ["sync", server.url("/feed.xml").absoluteString, "--to", archive.path],
            environment: environment)
        XCTAssertEqual(synced.status, 0, synced.stderr)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: out.path)
    }

    override func tearDown() {
        server?.stop()
        if let folder {
            _ = try? ProcessRunner.run(
                URL(fileURLWithPath: "/bin/chmod"), ["-R", "u+w", folder.url.path], environment: [:])
            folder.remove()
        }
    }

    private var environment: [String: String] { ProcessRunner.isolatedEnvironment(home: folder.url) }

    /// Runs podarchive with `arguments` where `archive`, bind-mounted read-only at `mounted`, cannot be written.
    private func onReadOnlyMount(_ arguments: [String], mounted: URL) throws -> ProcessResult {
        try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            [
                "--mount", "/bin/sh", "-c",
                #"mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" && shift 2 && exec "$@""#, "sh",
                archive.path, mounted.path, ProcessRunner.podarchive.path,
            ] + arguments, environment: environment)
    }

    /// A mount point for the archive read-only, when this process may make mount namespaces (root, or
    /// CAP_SYS_ADMIN); skipped with why otherwise.
    private func readOnlyMount() throws -> URL {
        let mounted = folder.url.appendingPathComponent("mounted")
        try FileManager.default.createDirectory(at: mounted, withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else {
            throw XCTSkip("no unshare(1) to make a read-only mount with; ReadOnlyVerifyTests covers EROFS")
        }
        let probe = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            [
                "--mount", "/bin/sh", "-c",
                #"mount --bind "$1" "$2" && mount -o remount,bind,ro "$2" && ! touch "$2/probe" 2>/dev/null"#, "sh",
                archive.path, mounted.path,
            ], environment: environment)
        guard probe.status == 0 else {
            throw XCTSkip(
                "this process may not make a read-only bind mount (\(probe.stderr.trimmingCharacters(in: .newlines)))"
                    + "; ReadOnlyVerifyTests covers EROFS")
        }
        return mounted
    }

    /// Runs podarchive with `arguments` as a user who may read the archive but not write it: another user when
    /// the tests run as root (the archive made readable to all), else this one, the archive made read-only.
    private func asReader(_ arguments: [String]) throws -> ProcessResult {
        guard geteuid() == 0 else {
            return try ProcessRunner.run(ProcessRunner.podarchive, arguments, environment: environment)
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else {
            throw XCTSkip(
                "running as root without setpriv(1) to run as another user; ReadOnlyVerifyTests covers EACCES")
        }
        return try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/setpriv"),
            ["--reuid=65534", "--regid=65534", "--clear-groups", ProcessRunner.podarchive.path] + arguments,
            environment: environment)
    }

    private func makeReadableNotWritable() throws {
        let mode = geteuid() == 0 ? "a+rX" : "a-w"
        let changed = try ProcessRunner.run(
            URL(fileURLWithPath: "/bin/chmod"), ["-R", mode, archive.path], environment: [:])
        XCTAssertEqual(changed.status, 0, changed.stderr)
    }

    /// Every file and folder of the archive with its size, date and mode: what "nothing changed" compares.
    private func snapshot() throws -> [String: String] {
        var seen: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: archive.path)
        while let path = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(atPath: archive.appendingPathComponent(path).path)
            seen[path] =
                "\(attributes[.size] ?? "") \((attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0) "
                + "\(attributes[.posixPermissions] ?? "")"
        }
        return seen
    }

    /// The commands that read, and a repair, run by `run` on the archive as `root` names it.
    private func assertReadsButNeverChanges(
        root: String, reason: String, run: ([String]) throws -> ProcessResult, file: StaticString = #filePath,
        line: UInt = #line
    ) throws {
        let damaged = archive.appendingPathComponent("Kept Show/Two.mp3")
        let before = try snapshot()

        let verified = try run(["verify", root])
        let listed = try run(["list", "--archived", "--to", root, "Kept Show"])
        let feeds = try run(["feeds", "--to", root])
        let exported = try run(["export", "--warc", out.appendingPathComponent("kept.warc").path, root])
        let repaired = try run(["verify", root, "--repair"])

        XCTAssertEqual(verified.status, 0, verified.stderr, file: file, line: line)
        XCTAssertTrue(
            verified.stdout.contains("verified 2 files in 1 feed: all intact"), verified.stdout, file: file, line: line)
        XCTAssertEqual(verified.stderr, "", "the lock is taken on the lock file as it is", file: file, line: line)
        XCTAssertEqual(listed.status, 0, listed.stderr, file: file, line: line)
        XCTAssertTrue(listed.stdout.contains("Kept Show: 2 archived episodes"), listed.stdout, file: file, line: line)
        XCTAssertEqual(feeds.status, 0, feeds.stderr, file: file, line: line)
        XCTAssertTrue(feeds.stdout.contains("Kept Show: 2 episodes"), feeds.stdout, file: file, line: line)
        XCTAssertEqual(exported.status, 0, exported.stderr, file: file, line: line)
        XCTAssertTrue(exported.stdout.contains("2 episodes"), exported.stdout, file: file, line: line)
        XCTAssertEqual(repaired.status, 5, repaired.stderr, file: file, line: line)
        XCTAssertEqual(
            repaired.stderr,
            "podarchive: cannot write \(root)/Kept Show/.podarchive/lock: \(reason); the archive can be read here, not "
                + "changed (verify without --repair, list --archived, feeds and export read it as it is)\n",
            file: file, line: line)
        XCTAssertEqual(try snapshot(), before, "nothing in the archive changed", file: file, line: line)
        XCTAssertEqual(
            FileManager.default.contents(atPath: damaged.path), Data(repeating: 2, count: 20_000), file: file,
            line: line)
    }

    func test_onAReadOnlyMount_verifyListFeedsAndExportRead_andARepairStopsNamingTheLockFile() throws {
        let mounted = try readOnlyMount()

        try assertReadsButNeverChanges(root: mounted.path, reason: "Read-only file system") {
            try onReadOnlyMount($0, mounted: mounted)
        }
    }

    func test_asAUserWhoMayNotWriteIt_verifyListFeedsAndExportRead_andARepairStopsNamingTheLockFile() throws {
        try makeReadableNotWritable()

        try assertReadsButNeverChanges(root: archive.path, reason: "Permission denied") { try asReader($0) }
    }

    func test_withNoLockFileToLock_verifyReadsWithoutTheLock_andSaysSoInOneLine() throws {
        try FileManager.default.removeItem(at: archive.appendingPathComponent("Kept Show/.podarchive/lock"))
        try? FileManager.default.removeItem(at: archive.appendingPathComponent(".podarchive/lock"))
        try Data(repeating: 9, count: 20_000).write(to: archive.appendingPathComponent("Kept Show/Two.mp3"))
        try makeReadableNotWritable()

        let verified = try asReader(["verify", archive.path])

        XCTAssertEqual(verified.status, 1, verified.stderr)
        XCTAssertTrue(verified.stdout.contains("changed  Kept Show/Two.mp3"), verified.stdout)
        XCTAssertEqual(
            verified.stderr,
            "podarchive: checked without the sync lock (cannot write \(archive.path)/Kept Show/.podarchive/lock: "
                + "Permission denied): a sync writing the archive meanwhile could make a file look damaged\n")
    }
}
