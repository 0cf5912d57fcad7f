import Foundation
import TestSupport
import XCTest

// `podarchive export --warc` on an archive made by real syncs against a loopback server: a private feed (tokens in
// its URL and its episodes'), companions, artwork, sidecars and two revisions of the feed. The WARC is read back
// here and each payload compared with the archive's files; no secret is in it; a failure leaves no file.
@testable import ArchiverCore
@testable import podarchive

final class ExportCommandTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var show: URL { root.appendingPathComponent("Private Show") }
    private static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 1, count: 200))
    private static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 2, count: 200))

    /// The private show, synced twice: the second sync finds a second episode (a second revision of the feed).
    private func syncPrivateShow() async throws {
        // Absolute URLs: the history redacts tokens in those (a relative one keeps its query, see the report).
        let base = server.url("").absoluteString
        func feed(episodes: Int) -> String {
            var xml = """
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Private Show</title>
                <itunes:image href="\(base)/cover.png?token=COVERSECRET"/>
                <item><title>One</title><guid>one</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="\(base)/one.mp3?token=EPISODESECRET" type="audio/mpeg"/>
                <itunes:image href="\(base)/one.jpg"/>
                <podcast:transcript url="\(base)/one.vtt?token=TRANSCRIPTSECRET" type="text/vtt" language="en"/>
                <podcast:chapters url="\(base)/one.chapters.json" type="application/json+chapters"/></item>
                """
            if episodes > 1 {
                xml += """
                    <item><title>Two</title><guid>two</guid><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate>
                    <enclosure url="\(base)/two.mp3?token=EPISODESECRET" type="audio/mpeg"/></item>
                    """
            }
            return xml + "</channel></rss>"
        }
        let revisions = [feed(episodes: 1), feed(episodes: 2)]
        server.route("/feed.xml") { _, before in .ok(revisions[min(before, 1)], type: "application/rss+xml") }
        server.route("/one.mp3", .ok(Data((0..<70_000).map { UInt8(truncatingIfNeeded: $0) })))
        server.route("/two.mp3", .ok(Data(repeating: 2, count: 5000)))
        server.route("/one.vtt", .ok("WEBVTT\n\n00:00.000 --> 00:01.000\nHi\n", type: "text/vtt"))
        server.route("/one.chapters.json", .ok(#"{"version":"1.2.0","chapters":[]}"#, type: "application/json"))
        server.route("/cover.png", .ok(Self.png, type: "image/png"))
        server.route("/one.jpg", .ok(Self.jpeg, type: "image/jpeg"))
        let url = server.url("/feed.xml").absoluteString + "?token=FEEDSECRET"
        for _ in 0..<2 {
            let status = await run("sync", url, "--to", root.path, "--metadata")
            XCTAssertEqual(status, .success, errors.text)
        }
    }

    func test_export_holdsEveryArchivedFile_asFetched_withItsURLRedacted_andEachSidecarAndFeedRevision() async throws {
        try await syncPrivateShow()
        output.clear()

        let plain = await run("export", "--warc", "out.warc", root.path)
        let packed = await run("export", "--warc", "out.warc.gz", "--to", root.path)

        XCTAssertEqual(plain, .success, errors.text)
        XCTAssertEqual(packed, .success, errors.text)
        XCTAssertEqual(output.lines.count, 2, output.text)
        XCTAssertTrue(
            output.lines[0].hasPrefix(
                "exported 1 show to \(folder.url.appendingPathComponent("out.warc").path) ("), output.text)
        XCTAssertTrue(
            output.lines[0].hasSuffix(
                "2 episodes, 2 transcripts and chapters files, 2 artwork files, 2 feed revisions, 2 sidecars in "
                    + "11 WARC records"), output.text)
        let bytes = try Data(contentsOf: folder.url.appendingPathComponent("out.warc"))
        let expanded = try gunzip(folder.url.appendingPathComponent("out.warc.gz"))
        for data in [bytes, expanded] {
            XCTAssertFalse(String(decoding: data, as: UTF8.self).contains("SECRET"), "no secret in the export")
        }
        let records = try WARCReader.records(bytes)
        XCTAssertEqual(
            try WARCReader.records(expanded).map { [$0.type, $0["WARC-Target-URI"] ?? "", $0.sha256] },
            records.map { [$0.type, $0["WARC-Target-URI"] ?? "", $0.sha256] }, "the gzip export holds the same")
        XCTAssertEqual(records.first?.type, "warcinfo")
        XCTAssertEqual(records.first?["WARC-Filename"], "out.warc")

        // Every file the index records, with the URL it came from (redacted) and when.
        let index = try JSONDecoder().decode(
            ArchiveIndex.self, from: Data(contentsOf: show.appendingPathComponent(".podarchive/index.json")))
        let resources = records.filter { $0.type == "resource" }
        for entry in index.episodes {
            let record = try XCTUnwrap(resources.first { $0["WARC-Target-URI"] == entry.url }, entry.url)
            XCTAssertTrue(entry.url.hasSuffix("?token=REDACTED"), entry.url)
            XCTAssertEqual(record.sha256, entry.sha256)
            XCTAssertEqual(record["WARC-Date"], entry.archived)
            XCTAssertEqual(record["Content-Type"], "audio/mpeg")
            XCTAssertEqual(record["Content-Length"], String(entry.size))
            for companion in entry.companions ?? [] {
                let url = try XCTUnwrap(companion.url)
                let kept = try XCTUnwrap(resources.first { $0["WARC-Target-URI"] == url }, url)
                XCTAssertEqual(kept.sha256, companion.sha256, companion.file)
            }
            // Its sidecar, referring to it.
            let sidecar = try Data(
                contentsOf: show.appendingPathComponent(ArchiveNames.sidecarName(for: entry.file)))
            // Under a URI of its own, never an http(s) one a replay tool could serve in the episode's place.
            let sidecarURI =
                "metadata://podarchive/Private%20Show/"
                + ArchiveNames.sidecarName(for: entry.file)
                .replacingOccurrences(of: " ", with: "%20")
            let metadata = try XCTUnwrap(
                records.first { $0.type == "metadata" && $0["WARC-Target-URI"] == sidecarURI }, sidecarURI)
            XCTAssertEqual(metadata.payload, sidecar)
            XCTAssertEqual(metadata["WARC-Refers-To"], record["WARC-Record-ID"])
            XCTAssertEqual(metadata["Content-Type"], "application/json")
        }
        XCTAssertEqual(index.episodes.flatMap { $0.companions ?? [] }.count, 3, "transcript, chapters, artwork")
        let cover = try XCTUnwrap(resources.first { $0["WARC-Target-URI"]?.contains("/cover.png") == true })
        XCTAssertEqual(cover.payload, Self.png)
        XCTAssertEqual(
            cover["WARC-Target-URI"], server.url("/cover.png").absoluteString + "?token=REDACTED",
            "from the file's user.xdg.origin.url")
        XCTAssertEqual(cover["Content-Type"], "image/png")

        // Both revisions of the feed, as the history keeps them (expanded), in the order they were fetched.
        let history = try FeedHistoryCommandTests.history(in: show).filter { $0.name.hasSuffix(".gz") }
        let feeds = resources.filter { $0["WARC-Target-URI"]?.contains("/feed.xml") == true }
        XCTAssertEqual(feeds.map { String(decoding: $0.payload, as: UTF8.self) }, history.map(\.text))
        XCTAssertEqual(feeds.map { $0["WARC-Target-URI"] }, Array(repeating: index.feed, count: 2))
        XCTAssertEqual(feeds.map { $0["WARC-Date"] }, ["1970-01-01T00:00:00Z", "1970-01-01T00:00:00Z"])
        XCTAssertEqual(Set(records.map { $0["WARC-Record-ID"] }).count, records.count, "every ID differs")
        let metadataURIs = Set(records.filter { $0.type == "metadata" }.compactMap { $0["WARC-Target-URI"] })
        XCTAssertEqual(metadataURIs.count, 2, "a URI of its own for each sidecar")
        XCTAssertTrue(
            metadataURIs.isDisjoint(with: resources.compactMap { $0["WARC-Target-URI"] }),
            "no sidecar shares a target URI with a capture")
    }

    func test_aFileThatCannotBeRead_stopsTheExport_withOneLine_andLeavesNoFile() async throws {
        try await syncPrivateShow()
        let episode = show.appendingPathComponent("Two.mp3")
        try FileManager.default.removeItem(at: episode)
        try FileManager.default.createDirectory(at: episode, withIntermediateDirectories: false)
        output.clear()

        let status = await run("export", "--warc", "out.warc.gz", root.path)

        XCTAssertEqual(status, .archiveFailed)
        XCTAssertEqual(
            errors.lines, ["podarchive: cannot export \(episode.path): Is a directory; no export was written"])
        XCTAssertEqual(output.text, "")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).filter {
            $0.contains("out.warc")
        }
        XCTAssertEqual(left, [], "nothing under the export's name, no temporary file")
    }

    func test_show_exportsOnlyTheShowsNamed_andAnUnknownOneIsAUsageError() async throws {
        try await syncPrivateShow()
        serveFeed(episodes: [("Other", "/other.mp3")])
        server.route("/other.mp3", .ok(Data(repeating: 3, count: 100)))
        let synced = await run(
            "sync",
            server.url("/feed.xml").absoluteString.replacingOccurrences(
                of: "127.0.0.1", with: "localhost"), "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)
        output.clear()

        let status = await run(
            "export", "--warc", "one.warc", "--to", root.path, "--show", "CLI Show", "--show", "CLI Show")
        let unknown = await run("export", "--warc", "none.warc", "--to", root.path, "--show", "Nope")

        XCTAssertEqual(status, .success, errors.text)
        let records = try WARCReader.records(Data(contentsOf: folder.url.appendingPathComponent("one.warc")))
        XCTAssertEqual(
            records.filter { $0.type == "resource" }.count, 2, "the episode and the feed's one revision, once")
        XCTAssertFalse(records.contains { $0["WARC-Target-URI"]?.contains("one.mp3") == true })
        XCTAssertEqual(unknown, .usage)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.url.appendingPathComponent("none.warc").path))
    }

    func test_onATerminal_aProgressLineIsDrawnThenCleared_elsewhereOnlyTheSummary() async throws {
        try await syncPrivateShow()
        let terminal = CapturedOutput()
        var tool = CommandLineTool(
            environment: ProcessEnvironment(
                variables: ["PODARCHIVE_CONFIG_DIR": configurationFolder.path], currentDirectory: folder.url.path),
            output: terminal, errors: errors, makeArchiver: { Archiver.live() })
        tool.terminal = TerminalInfo(
            outputIsTerminal: true, errorsIsTerminal: true, dumb: false, noColor: true, columns: { 80 })

        let status = await tool.run(["export", "--warc", "out.warc", root.path])

        XCTAssertEqual(status, .success, errors.text)
        let clear = "\r\u{1B}[2K"
        XCTAssertTrue(terminal.text.contains("(100%)" + clear + "exported"), terminal.text)
        XCTAssertTrue(terminal.text.hasPrefix(clear + "exporting: 1 of 11 records, "), terminal.text)
        XCTAssertTrue(terminal.text.contains("exporting: 11 of 11 records, "), terminal.text)
        let last = try XCTUnwrap(terminal.text.components(separatedBy: clear).last)
        XCTAssertTrue(last.hasPrefix("exported 1 show to "), last)
        XCTAssertEqual(last.filter { $0 == "\n" }.count, 1)
    }

    func test_aFileInsideAShowFolder_isRefused_andTheArchivedFileThereIsUntouched() async throws {
        try await syncPrivateShow()
        let episode = show.appendingPathComponent("One.mp3")
        let before = try Data(contentsOf: episode)

        let status = await run(
            "export", "--warc", episode.path, root.path, "--show", "Private Show", "--show", show.path)

        XCTAssertEqual(status, .usage)
        XCTAssertEqual(
            errors.lines.last,
            "podarchive: the export \(episode.path) would be written inside the show folder \(show.path): name a file "
                + "outside it")
        XCTAssertEqual(try Data(contentsOf: episode), before)
    }

    func test_withoutWarcOrLibrary_orWithBoth_isAUsageError() async {
        var status = await run("export", "--to", root.path)
        XCTAssertEqual(status, .usage)
        XCTAssertTrue(
            errors.text.hasPrefix(
                "podarchive: missing --warc FILE or --library DIR: the file or the folder to write\n"),
            errors.text)
        errors.clear()
        status = await run("export", "--warc", "a.warc", "--library", "lib", "--to", root.path)
        XCTAssertEqual(status, .usage)
        XCTAssertTrue(errors.text.contains("--library"), errors.text)
    }

    /// `gzip -dc`: every member, one after the other.
    private func gunzip(_ file: URL) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["gzip", "-dc", file.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return data
    }
}

/// A reader of uncompressed WARC files, enough to check what an export holds.
enum WARCReader {
    struct Record {
        var fields: [(String, String)]
        var payload: Data

        subscript(name: String) -> String? { fields.first { $0.0 == name }?.1 }
        var type: String { self["WARC-Type"] ?? "" }
        var sha256: String {
            var hash = SHA256()
            hash.update(payload)
            return hash.hexDigest()
        }
    }

    static func records(_ data: Data) throws -> [Record] {
        var records: [Record] = []
        var position = data.startIndex
        let blank = Data("\r\n\r\n".utf8)
        while position < data.endIndex {
            let end = try XCTUnwrap(data.range(of: blank, in: position..<data.endIndex), "a header ends")
            let lines = String(decoding: data[position..<end.lowerBound], as: UTF8.self).components(
                separatedBy: "\r\n")
            XCTAssertEqual(lines.first, "WARC/1.1")
            let fields = lines.dropFirst().map { line -> (String, String) in
                let colon = line.firstIndex(of: ":")!
                return (String(line[..<colon]), String(line[line.index(after: colon)...].dropFirst()))
            }
            let length = try XCTUnwrap(Int(fields.first { $0.0 == "Content-Length" }?.1 ?? ""))
            let payload = data[end.upperBound..<(end.upperBound + length)]
            XCTAssertEqual(data[(end.upperBound + length)..<(end.upperBound + length + 4)], blank, "the trailer")
            records.append(Record(fields: fields, payload: Data(payload)))
            position = end.upperBound + length + 4
        }
        return records
    }
}
