import Foundation
import TestSupport
import XCTest

// The built binary against a feed whose chapters are bombs: a gzip body that inflates without end, a million
// opening brackets, and a million-entry chapters document. Each is refused in one line naming the limit, every
// episode is archived, the run succeeds, and its peak memory (the child's own getrusage) stays within the
// README's figure: the documents are judged as they are read, never parsed whole.
@testable import ArchiverCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

final class BoundedCompanionTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!

    /// The README's figure for a run's peak memory, whatever the companions hold.
    private let readmeFigure = 512 << 20

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        folder = try TemporaryFolder("bounded")
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
        super.tearDown()
    }

    func test_sync_chaptersBombs_areRefusedInOneLineEach_episodesKept_peakMemoryWithinTheFigure() async throws {
        var items = ""
        for name in ["gzip", "deep", "million"] {
            items += """
                <item><title>\(name)</title><guid>\(name)</guid><enclosure url="/\(name).mp3" type="audio/mpeg"/>
                <podcast:chapters url="/\(name).json" type="application/json+chapters"/></item>
                """
            server.route("/\(name).mp3", .ok(Data("\(name) audio".utf8)))
        }
        server.route(
            "/feed.xml",
            .ok(
                #"<rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Bombs</title>"#
                    + items + "</channel></rss>", type: "application/rss+xml"))
        server.route(
            "/gzip.json",
            .endless(type: "application/json", headers: [("Content-Encoding", "gzip")]) { EndlessDeflate.piece($0) })
        var deep = Data(#"{"chapters":[{"startTime":0,"deep":"#.utf8)
        deep.append(Data(repeating: UInt8(ascii: "["), count: 1_000_000))
        server.route("/deep.json", .ok(deep, type: "application/json"))
        var million = Data(#"{"version":"1.2.0","chapters":["#.utf8)
        million.append(Data(Array(repeating: #"{"startTime":0}"#, count: 1_000_000).joined(separator: ",").utf8))
        million.append(Data("]}".utf8))
        server.route("/million.json", .ok(million, type: "application/json"))
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)

        let run = try await withWatchdog(seconds: 120) { [folder, server] in
            try PeakMemoryRun.run(
                ProcessRunner.podarchive,
                [
                    "sync", server!.url("/feed.xml").absoluteString, "--to",
                    folder!.url.appendingPathComponent("a").path,
                ],
                environment: ProcessRunner.isolatedEnvironment(home: home).merging(
                    ProcessInfo.processInfo.environment.filter { $0.key.hasSuffix("SAN_OPTIONS") }
                ) { $1 },
                in: folder!.url, timeout: 110)
        }

        XCTAssertEqual(run.status, 0, run.output)
        let refused = run.output.split(separator: "\n").filter {
            $0.hasPrefix("not kept: ") || $0.hasPrefix("given up: ")
        }
        XCTAssertEqual(refused.count, 3, run.output)
        for (name, reason) in [
            ("gzip", "it grew past the 20 MB it may be"),
            ("deep", "not a valid chapters document: it nests deeper than 32 levels"),
            ("million", "not a valid chapters document: it holds more than 200000 entries"),
        ] {
            XCTAssertEqual(refused.filter { $0.contains("/\(name).json") && $0.contains(reason) }.count, 1, run.output)
        }
        XCTAssertEqual(
            try TemporaryFolder.visibleFiles(in: folder.url.appendingPathComponent("a")),
            ["Bombs/deep.mp3", "Bombs/gzip.mp3", "Bombs/million.mp3"])
        print("peak RSS of the run: \(run.peakBytes >> 20) MB")
        // A sanitizer's shadow memory is no measure of podarchive's own (`make test-tsan`, `make test-asan`).
        if CrashShim.refusal(of: ProcessRunner.podarchive) == nil {
            XCTAssertLessThan(run.peakBytes, readmeFigure, "peak RSS \(run.peakBytes >> 20) MB")
        }
    }
}

/// A child run to its end with its own peak resident memory (wait4's rusage: this child's alone).
enum PeakMemoryRun {
    struct Result {
        var status: Int32
        var output: String
        var peakBytes: Int
    }

    static func run(
        _ binary: URL, _ arguments: [String], environment: [String: String], in folder: URL, timeout: TimeInterval
    ) throws -> Result {
        let log = folder.appendingPathComponent("run-\(UUID().uuidString).log")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = ([binary.path] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, binary.path, &actions, nil, argv, envp)
        guard spawned == 0 else { throw CocoaError(.executableLoad) }
        // The way out if the child never ends: SIGKILL after `timeout`, and wait4 returns.
        let killer = DispatchWorkItem { _ = kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: killer)
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0, errno == EINTR {}
        killer.cancel()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let exited = status & 0x7F == 0
        #if canImport(Darwin)
            let peak = Int(usage.ru_maxrss)
        #else
            let peak = Int(usage.ru_maxrss) * 1024
        #endif
        return Result(status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output: output, peakBytes: peak)
    }
}
