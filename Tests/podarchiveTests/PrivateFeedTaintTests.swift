import Foundation
import TestSupport
import XCTest

// Issue 37, point 1, as a user would find it: a private show (a token in its feed URL, a login in it, a bearer
// header or a .netrc login), as RSS and as JSON Feed the way Go and PHP write it, synced with --metadata --site --exec,
// then every reader podarchive has run on it (list, feeds, verify, config, site --out, export --warc, export --library). Then everything
// written is searched for each secret in each spelling: every file under the test's folder (the root, the site's
// folder, the WARC plain and gzip, the hook's dump of its environment and arguments, the configuration folder but its
// credentials files), their extended attributes, the home folder's, and every command's output. Only the publisher's
// own files under the root (as served) may hold one. Also: failing episodes (their lines, the failure records, a
// download kept to be resumed), add, verify --repair and forget; and a transcript holding the show's secret, kept as
// served but left out of the site and the WARC, and said.
@testable import ArchiverCore
@testable import podarchive

final class PrivateFeedTaintTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var site: URL { folder.url.appendingPathComponent("www") }
    private var warc: URL { folder.url.appendingPathComponent("out.warc") }
    private var library: URL { folder.url.appendingPathComponent("library") }
    private var hookDump: URL { folder.url.appendingPathComponent("hook.txt") }
    private var netrc: URL { folder.url.appendingPathComponent("netrc") }

    func test_rss_withATokenInTheFeedsURL_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .token, format: .rss, base: base))
    }

    func test_rss_withALoginInTheFeedsURL_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .login, format: .rss, base: base))
    }

    func test_rss_withANetrcLogin_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .netrc, format: .rss, base: base, netrcFile: netrc))
    }

    func test_jsonFeedAsGoWritesIt_withANetrcLogin_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .netrc, format: .goJSON, base: base, netrcFile: netrc))
    }

    func test_rss_withABearerHeader_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .header, format: .rss, base: base))
    }

    func test_jsonFeedAsGoWritesIt_withATokenInTheFeedsURL_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .token, format: .goJSON, base: base))
    }

    func test_jsonFeedAsGoWritesIt_withABearerHeader_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .header, format: .goJSON, base: base))
    }

    func test_jsonFeedAsGoWritesIt_withALoginInTheFeedsURL_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .login, format: .goJSON, base: base))
    }

    func test_jsonFeedAsPHPWritesIt_withABearerHeader_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .header, format: .phpJSON, base: base))
    }

    func test_jsonFeedAsPHPWritesIt_withATokenInTheFeedsURL_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .token, format: .phpJSON, base: base))
    }

    func test_jsonFeedAsPHPWritesIt_withALoginInTheFeedsURL_writesNoSecretAnywhere() async throws {
        try await assertNoSecretWritten(TaintedFeed(access: .login, format: .phpJSON, base: base))
    }

    func test_episodesThatFail_areNamedAndRecorded_withoutTheirSecrets() async throws {
        let feed = TaintedFeed(access: .token, format: .rss, base: base)
        feed.serve(on: server)
        // Four's server refuses it; Six's body is cut short (kept to be resumed, with its download record); Seven
        // is gone; One's transcript is gone.
        server.route("/four.mp3", .status(403, "no"))
        let six = feed.episodes[5].audio
        server.route(
            "/six.mp3",
            TestResponse(headers: [("Content-Type", "audio/mpeg")], body: six, cutAfter: six.count / 2))
        server.route("/seven.mp3", .status(404, "gone"))
        server.route("/one.vtt", .status(404, "gone"))

        var said: [(String, Said)] = []
        said.append(
            ("sync", try await command(["sync", feed.feedURL, "--to", root.path, "--metadata", "--retries", "0"])))
        said.append(
            ("sync --json", try await command(["sync", "--to", root.path, "--json", "--verbose", "--retries", "0"])))
        said.append(("verify --upstream", try await command(["verify", root.path, "--upstream"])))

        XCTAssertEqual(said[0].1.code, .episodesFailed, said[0].1.said)
        for title in ["Four", "Six", "Seven"] {
            XCTAssertTrue(said[0].1.said.contains(title), "\(title)'s failure is said: \(said[0].1.said)")
        }
        let state = root.appendingPathComponent(TaintedFeed.title).appendingPathComponent(".podarchive")
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: state.appendingPathComponent(ArchiveLayout.downloadLog).path),
            "Six's download is recorded to be resumed")
        var hits = said.flatMap {
            SecretSpellingSearch.hits(in: $0.1.said, place: "the output of `\($0.0)`", secrets: feed.secrets)
        }
        let served = Set(feed.files.values)
        hits += try SecretSpellingSearch.hits(
            under: root, name: "<root>", secrets: feed.secrets, keepsContents: { served.contains($1) })
        XCTAssertTrue(hits.isEmpty, SecretSpellingSearch.report(hits))
    }

    func test_add_repair_forget_andThePlainListings_sayNoSecret_andWriteNone() async throws {
        let feed = TaintedFeed(access: .token, format: .rss, base: base)
        feed.serve(on: server)
        let show = root.appendingPathComponent(TaintedFeed.title)
        var said: [(String, Said)] = []
        said.append(("add", try await command(["add", feed.feedURL, "--to", root.path, "--metadata"])))
        said.append(("sync", try await command(["sync", "--to", root.path])))
        // Two episodes whose URLs carry innocent names go missing, and are fetched again by the repair.
        for name in ["Six.mp3", "Seven.mp3"] {
            try FileManager.default.removeItem(at: show.appendingPathComponent(name))
        }
        said.append(("verify --repair", try await command(["verify", root.path, "--repair"])))
        said.append(("forget", try await command(["forget", TaintedFeed.title, "Seven", "--to", root.path])))
        said.append(("feeds", try await command(["feeds", "--to", root.path])))
        said.append(("config", try await command(["config", TaintedFeed.title, "--to", root.path])))
        said.append(("sync --dry-run", try await command(["sync", "--to", root.path, "--dry-run", "--verbose"])))

        for (name, result) in said {
            XCTAssertEqual(result.code, .success, "\(name): \(result.said)")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: show.appendingPathComponent("Six.mp3").path), "repaired")
        var hits = said.flatMap {
            SecretSpellingSearch.hits(in: $0.1.said, place: "the output of `\($0.0)`", secrets: feed.secrets)
        }
        let served = Set(feed.files.values)
        hits += try SecretSpellingSearch.hits(
            under: root, name: "<root>", secrets: feed.secrets, keepsContents: { served.contains($1) })
        XCTAssertTrue(hits.isEmpty, SecretSpellingSearch.report(hits))
    }

    func test_aTranscriptHoldingTheFeedsToken_isKeptAsServed_butLeftOutOfTheSiteAndTheExport_andSaidSo() async throws {
        let feed = TaintedFeed(access: .token, format: .rss, base: base)
        feed.serve(on: server)
        let synced = try await command(["sync", feed.feedURL, "--to", root.path, "--metadata"])
        XCTAssertEqual(synced.code, .success, synced.said)
        let kept = try XCTUnwrap(
            try SecretSearch.allFiles(under: root).first {
                FileManager.default.contents(atPath: $0) == feed.transcript
            },
            "the transcript is archived byte for byte as served")
        let name = URL(fileURLWithPath: kept).lastPathComponent

        let published = try await command(["site", "--to", root.path, "--out", site.path])
        let exported = try await command(["export", "--warc", warc.path, "--to", root.path])

        XCTAssertEqual(published.code, .success, published.said)
        XCTAssertEqual(exported.code, .success, exported.said)
        XCTAssertTrue(
            try SecretSearch.allFiles(under: site).contains { $0.hasSuffix("/One.mp3") }, "the rest is published")
        XCTAssertFalse(
            try SecretSearch.allFiles(under: site).contains {
                FileManager.default.contents(atPath: $0) == feed.transcript
            },
            "the site publishes the transcript that holds the feed's token")
        let export = try Data(contentsOf: warc)
        XCTAssertNotNil(export.range(of: feed.episodes[0].audio), "the rest is exported")
        XCTAssertNil(export.range(of: feed.transcript), "the WARC holds the transcript that holds the feed's token")
        XCTAssertTrue(published.said.contains(name), "site --out says it left \(name) out: \(published.said)")
        XCTAssertTrue(exported.said.contains(name), "export says it left \(name) out: \(exported.said)")
        let said = published.said + exported.said
        XCTAssertEqual(
            SecretSpellingSearch.hits(in: said, place: "output", secrets: [feed.showSecret]).map(\.description), [])
    }

    // MARK: - The whole run, searched

    private var base: String { "http://127.0.0.1:\(server.port)" }

    /// What a command printed (output and errors), and how it ended.
    private struct Said {
        let code: ExitCode
        let said: String
    }

    /// Runs `arguments` under a watchdog, with the output of earlier commands cleared.
    private func command(_ arguments: [String]) async throws -> Said {
        output.clear()
        errors.clear()
        let tool = self.tool()
        let code = try await withWatchdog(seconds: 120) { await tool.run(arguments) }
        return Said(code: code, said: output.text + errors.text)
    }

    /// Syncs `feed` as a user would, runs every command that reads what was archived, and searches all that was
    /// written: fails naming each place, secret and spelling found.
    private func assertNoSecretWritten(
        _ feed: TaintedFeed, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
        feed.serve(on: server)
        try feed.writeNetrc()
        // The hook writes what it was given (its environment and arguments) outside the root.
        let hook = "{ env; printf 'argument: %s\\n' \"$0\" \"$@\"; } >> '\(hookDump.path)'"
        let access = feed.accessArguments
        let commands: [[String]] = [
            ["sync", feed.feedURL, "--to", root.path, "--dry-run", "--json"] + access,
            ["sync", feed.feedURL, "--to", root.path, "--metadata", "--site", "--exec", hook, "--json"] + access,
            ["sync", "--to", root.path, "--exec", hook, "--verbose"],
            ["list", feed.feedURL, "--json"] + access,
            ["list", feed.feedURL] + access,
            ["list", "--archived", TaintedFeed.title, "--to", root.path, "--json"],
            ["list", "--archived", TaintedFeed.title, "--to", root.path],
            ["feeds", "--to", root.path, "--json"],
            ["feeds", "--to", root.path, "--opml"],
            ["credentials", "--to", root.path],
            ["config", TaintedFeed.title, "--to", root.path, "--json"],
            ["verify", root.path, "--json"],
            ["verify", root.path, "--upstream", "--json"],
            ["site", "--to", root.path, "--out", site.path],
            ["export", "--warc", warc.path, "--to", root.path],
            ["export", "--warc", warc.path + ".gz", "--to", root.path],
            ["export", "--library", library.path, "--to", root.path],
        ]
        var hits: [SecretFound] = []
        for arguments in commands {
            let result = try await command(arguments)
            // The command as a message may show it: without the secrets it was given.
            let shown = arguments.map {
                [
                    feed.feedURL: "FEED", root.path: "ROOT", hook: "HOOK", site.path: "SITE", warc.path: "WARC",
                    warc.path + ".gz": "WARC.gz", netrc.path: "NETRC", library.path: "LIBRARY",
                ][$0]
                    ?? ($0.hasPrefix("Authorization:") ? "HEADER" : $0)
            }.joined(separator: " ")
            XCTAssertEqual(result.code, .success, "\(shown): \(result.said)", file: file, line: line)
            hits += SecretSpellingSearch.hits(in: result.said, place: "the output of `\(shown)`", secrets: feed.secrets)
        }

        // What the sync must have done for the search to mean anything.
        let show = root.appendingPathComponent(TaintedFeed.title)
        for name in ["One.mp3", "Seven.mp3", "One.info.json", "index.html", "feed.xml"] {
            XCTAssertTrue(
                FileManager.default.fileExists(atPath: show.appendingPathComponent(name).path), name, file: file,
                line: line)
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: hookDump.path), "the hook ran", file: file, line: line)
        for export in [warc, warc.appendingPathExtension("gz")] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: export.path), "exported", file: file, line: line)
        }
        let shelf = library.appendingPathComponent(TaintedFeed.title)
        let copies = (try? FileManager.default.contentsOfDirectory(atPath: shelf.path)) ?? []
        XCTAssertTrue(copies.contains { $0.hasSuffix(" One.mp3") }, "the library: \(copies)", file: file, line: line)

        // The publisher's files, as served, are theirs to hold; the credentials files and the user's .netrc are where
        // secrets are kept.
        let served = Set(feed.files.values)
        let credentials = configurationFolder.appendingPathComponent("credentials").path + "/"
        hits += try SecretSpellingSearch.hits(
            under: folder.url, name: "<test folder>", secrets: feed.secrets,
            skipping: { [netrc] in $0.hasPrefix(credentials) || $0 == netrc.path },
            keepsContents: { [root] path, data in path.hasPrefix(root.path + "/") && served.contains(data) })
        hits += try SecretSpellingSearch.hits(under: IsolatedHome.folder, name: "<home>", secrets: feed.secrets)
        XCTAssertTrue(hits.isEmpty, SecretSpellingSearch.report(hits), file: file, line: line)
    }
}
