import Foundation
import TestSupport
import XCTest

// `sync --exec` through the built binary, with real /bin/sh hooks: what a hook is told, a hook that fails (exit 1,
// the episode kept, tried on the next run), one from the configuration file, and that no command can come from the
// archive: neither a saved setting nor a hostile subscription record carries one.
@testable import ArchiverCore

final class HookEndToEndTests: XCTestCase {
    private var folder: TemporaryFolder!
    private var server: TestHTTPServer!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("hook-e2e")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        server = try TestHTTPServer()
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Night Show</title><item><title>Pilot $(touch pwned)</title>"
                    + "<guid>p-1</guid><pubDate>Fri, 03 Jan 2025 10:00:00 GMT</pubDate><enclosure "
                    + "url=\"/pilot.mp3?token=s3cret\" type=\"audio/mpeg\"/></item></channel></rss>",
                type: "application/rss+xml"))
        server.route("/pilot.mp3", .ok(Data("ID3 pilot".utf8)))
    }

    override func tearDown() {
        server?.stop()
        folder.remove()
    }

    private var configuration: URL { folder.url.appendingPathComponent("settings") }
    private var archive: URL { folder.url.appendingPathComponent("Archive") }
    private var feed: String { server.url("/feed.xml").absoluteString }

    private func podarchive(_ arguments: String...) throws -> ProcessResult {
        try ProcessRunner.run(
            ProcessRunner.podarchive, arguments,
            environment: ProcessRunner.isolatedEnvironment(
                home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": configuration.path]),
            currentDirectory: folder.url)
    }

    private func read(_ name: String) throws -> String {
        try String(contentsOf: folder.url.appendingPathComponent(name), encoding: .utf8)
    }

    private var everythingSaved: String {
        let enumerator = FileManager.default.enumerator(at: archive, includingPropertiesForKeys: nil)
        return (enumerator?.allObjects as? [URL] ?? []).filter { $0.path.contains("/.podarchive/") }.compactMap {
            try? String(contentsOf: $0, encoding: .utf8)
        }.joined(separator: "\n")
    }

    func test_binary_theHookGetsTheEpisodeInItsEnvironment_andIsNeverSaved() throws {
        let hook =
            #"printf '%s\n' "$PODARCHIVE_FILE" "$PODARCHIVE_TITLE" "$PODARCHIVE_SHOW" "$PODARCHIVE_GUID" "#
            + #""$PODARCHIVE_URL" "$PODARCHIVE_DATE" "$PODARCHIVE_FOLDER" > hook.txt; echo hook says hi"#
        let sync = try podarchive("sync", feed, "--to", archive.path, "--exec", hook, "--json")
        let again = try podarchive("sync", "--to", archive.path)

        XCTAssertEqual(sync.status, 0, sync.stderr)
        let show = archive.appendingPathComponent("Night Show").path
        XCTAssertEqual(
            try read("hook.txt"),
            [
                show + "/Pilot $(touch pwned).mp3", "Pilot $(touch pwned)", "Night Show", "p-1",
                server.url("/pilot.mp3").absoluteString + "?token=REDACTED", "2025-01-03T10:00:00Z", show,
            ].joined(separator: "\n") + "\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("pwned").path))
        XCTAssertFalse(sync.stderr.contains("hook says hi"), "a hook that succeeds is quiet: \(sync.stderr)")
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)), sync.stdout)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(everythingSaved.contains("hook.txt"), "the command is nowhere in the archive")
    }

    func test_binary_theHookGetsTheEnvironmentPodarchiveWasGiven_notFoundationsFoldersAtDevNull() throws {
        // podarchive points these two at /dev/null for itself (see `SessionTemplate`), never for a hook.
        let hook = #"printf '%s|%s\n' "$XDG_CACHE_HOME" "${XDG_DATA_HOME-unset}" > environment.txt"#

        let sync = try podarchive("sync", feed, "--to", archive.path, "--exec", hook)

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(try read("environment.txt"), folder.url.path + "/.cache|unset\n")
    }

    func test_binary_theHookHoldsNoDescriptorOfPodarchives() throws {
        // libcurl's sockets and libdispatch's pipes are not close-on-exec: a hook (or a child it leaves running)
        // must not keep the run's connections and files open.
        try XCTSkipUnless(
            FileManager.default.fileExists(atPath: "/proc/self/fd"), "no /proc to list a hook's descriptors")
        // The sockets and pipes the hook's shell holds beyond its standard three: not the copies of those its own
        // redirection saves (the same pipe as standard error), and no pipeline or command substitution, which would
        // make pipes of its own.
        let hook =
            #"for f in /proc/$$/fd/*; do n=${f##*/}; if [ "$n" -gt 2 ] && ! [ "$f" -ef /proc/$$/fd/2 ] "#
            + #"&& ! [ "$f" -ef /proc/$$/fd/0 ] && { [ -S "$f" ] || [ -p "$f" ]; }; then echo "$n"; fi; "#
            + #"done > descriptors.txt"#

        let sync = try podarchive("sync", feed, "--to", archive.path, "--exec", hook)

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(try read("descriptors.txt"), "", "sockets or pipes the hook inherited")
    }

    func test_binary_aFailingHook_exits1_namingTheEpisode_keepsIt_andIsTriedOnTheNextRun() throws {
        let first = try podarchive(
            "sync", feed, "--to", archive.path, "--exec", "echo run >> runs.txt; exit 4")
        let json = try podarchive("sync", "--to", archive.path, "--exec", "exit 5", "--json")
        let second = try podarchive("sync", "--to", archive.path, "--exec", "echo run >> runs.txt; exit 0")
        let third = try podarchive("sync", "--to", archive.path, "--exec", "echo run >> runs.txt")

        XCTAssertEqual(first.status, 1)
        XCTAssertTrue(
            first.stderr.contains(
                "hook for episode \"Pilot $(touch pwned)\" (Pilot $(touch pwned).mp3): exited with status 4; the "
                    + "episode stays archived; tried again on the next run (1 of 3 runs)"), first.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(
                atPath: archive.appendingPathComponent("Night Show/Pilot $(touch pwned).mp3").path))
        XCTAssertEqual(json.status, 1)
        XCTAssertTrue(
            json.stdout.contains(
                "\"hooks\": [{\"title\": \"Pilot $(touch pwned)\", \"file\": \"Pilot $(touch pwned).mp3\", "
                    + "\"reason\": \"exited with status 5\", \"runs\": 2, \"gaveUp\": false}]"), json.stdout)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertEqual(third.status, 0, third.stderr)
        XCTAssertEqual(try read("runs.txt"), "run\nrun\n", "run again once, then never, since it succeeded")
        XCTAssertEqual(server.requests.filter { $0.path.hasPrefix("/pilot.mp3") }.count, 1)
    }

    func test_binary_aHookThatPrintsAndSucceeds_isSilentInCron_andShownWithVerbose() throws {
        let hook = "echo to standard output; echo to standard error >&2"
        let cron = try podarchive("sync", feed, "--to", archive.path, "--exec", hook)
        let watched = try podarchive(
            "sync", feed, "--to", folder.url.appendingPathComponent("Watched").path, "--exec", hook, "-v")

        XCTAssertEqual(cron.status, 0, cron.stderr)
        XCTAssertEqual(cron.stderr, "", "the README's cron line mails nothing on success")
        XCTAssertEqual(watched.status, 0, watched.stderr)
        XCTAssertTrue(
            watched.stderr.contains(
                "hook for episode \"Pilot $(touch pwned)\" (Pilot $(touch pwned).mp3) printed:\n"
                    + "  | to standard output\n  | to standard error\n"), watched.stderr)
        XCTAssertFalse(watched.stdout.contains("to standard"), watched.stdout)
    }

    func test_binary_aHookThatPrintsAndFails_isShownOnStandardError_namingTheEpisode() throws {
        let sync = try podarchive(
            "sync", feed, "--to", archive.path, "--exec", "echo converting; echo 'ffmpeg: no space left' >&2; exit 3",
            "--json")

        XCTAssertEqual(sync.status, 1)
        XCTAssertTrue(
            sync.stderr.contains(
                "hook for episode \"Pilot $(touch pwned)\" (Pilot $(touch pwned).mp3): exited with status 3; the "
                    + "episode stays archived; tried again on the next run (1 of 3 runs)\n"
                    + "  | converting\n  | ffmpeg: no space left\n"), sync.stderr)
        XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(sync.stdout.utf8)), sync.stdout)
    }

    func test_binary_aHookThatLeavesAChildHoldingItsOutput_doesNotHoldTheRun() throws {
        // The child keeps the output pipe open long after the hook ended: the run ends with the hook, not with it
        // (waiting for the pipe's end, it would outlive ProcessRunner's 60 s watchdog and fail the status).
        let sync = try podarchive(
            "sync", feed, "--to", archive.path, "--exec", "sleep 120 & echo $! > child.pid; echo started")
        let child = try read("child.pid").trimmingCharacters(in: .whitespacesAndNewlines)
        defer { if let pid = Int32(child) { kill(pid, SIGKILL) } }

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(sync.stderr, "")
    }

    func test_binary_aHookPastItsTime_isStopped_andFailsTheRun() throws {
        let sync = try podarchive("sync", feed, "--to", archive.path, "--exec", "sleep 60", "--exec-timeout", "0.5")

        XCTAssertEqual(sync.status, 1)
        XCTAssertTrue(sync.stderr.contains("still running after 0.5 s; stopped"), sync.stderr)
    }

    func test_binary_aHookIsNeverSaved_norTakenFromAHostileSubscriptionRecord() throws {
        let first = try podarchive("sync", feed, "--to", archive.path, "--exec", "echo run >> runs.txt")
        // A hostile writer of the archive puts a command everywhere a record could hold one.
        let records = archive.appendingPathComponent(".podarchive/feeds")
        for name in try FileManager.default.contentsOfDirectory(atPath: records.path) {
            let url = records.appendingPathComponent(name)
            var record = try XCTUnwrap(
                try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
            record["exec"] = "touch pwned-record"
            var settings = record["settings"] as? [String: Any] ?? [:]
            settings["exec"] = "touch pwned-settings"
            record["settings"] = settings
            try JSONSerialization.data(withJSONObject: record).write(to: url)
        }
        server.route(
            "/feed.xml",
            .ok(
                "<rss version=\"2.0\"><channel><title>Night Show</title><item><title>Second</title><guid>p-2</guid>"
                    + "<enclosure url=\"/second.mp3\" type=\"audio/mpeg\"/></item></channel></rss>",
                type: "application/rss+xml"))
        server.route("/second.mp3", .ok(Data("ID3 second".utf8)))

        let second = try podarchive("sync", "--to", archive.path)

        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(second.status, 0, second.stderr)
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: archive.appendingPathComponent("Night Show/Second.mp3").path))
        XCTAssertEqual(try read("runs.txt"), "run\n", "the second run had no hook: none was saved")
        for name in ["pwned-record", "pwned-settings"] {
            XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent(name).path), name)
        }
    }

    func test_binary_theConfigurationFilesHook_runs() throws {
        try FileManager.default.createDirectory(at: configuration, withIntermediateDirectories: true)
        try Data("exec = echo \"$PODARCHIVE_GUID\" > from-config\nexec-timeout = 30\n".utf8).write(
            to: configuration.appendingPathComponent("config"))

        let sync = try podarchive("sync", feed, "--to", archive.path)

        XCTAssertEqual(sync.status, 0, sync.stderr)
        XCTAssertEqual(try read("from-config"), "p-1\n")
    }
}
