import Foundation
import TestSupport
import XCTest

// The built binary under strace: each index journal record and each download record reaches the disk in one
// write(2), so a crash can only leave a record whole or absent, never torn in two (the readers cope with a torn
// one, but a single write is what makes it rare). CI installs strace; a machine without it skips.
@testable import ArchiverCore

final class OneWriteTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!
    private var strace: URL!

    override func setUpWithError() throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
        guard
            let found = ["/usr/bin/strace", "/bin/strace", "/usr/local/bin/strace"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else {
            // CI installs it (.ci/run): there, its absence is a failure, not a skip.
            if ProcessInfo.processInfo.environment["CI"] == "true" { XCTFail("strace is not installed") }
            throw XCTSkip("strace is not installed (apt-get install strace)")
        }
        strace = URL(fileURLWithPath: found)
        server = try TestHTTPServer()
        folder = try TemporaryFolder("one-write")
    }

    override func tearDown() {
        server?.stop()
        folder?.remove()
    }

    private func feed(_ titles: [String]) -> TestResponse {
        let items = titles.map {
            "<item><title>\($0)</title><guid>\($0)</guid><enclosure url=\"/\($0).mp3\" type=\"audio/mpeg\"/></item>"
        }
        return .ok(
            "<rss version=\"2.0\"><channel><title>Write Show</title>\(items.joined())</channel></rss>",
            type: "application/rss+xml")
    }

    /// Runs `podarchive sync` under strace; returns the writes to files in the show's state folder.
    private func tracedSync(_ trace: String) throws -> [TracedWrite] {
        let output = folder.url.appendingPathComponent(trace)
        let result = try ProcessRunner.run(
            strace,
            ["-f", "-y", "-s", "1000000", "-e", "trace=write", "-o", output.path, ProcessRunner.podarchive.path]
                + ["sync", server.url("/feed.xml").absoluteString, "--to", "archive", "--jobs", "1"],
            environment: ProcessRunner.isolatedEnvironment(home: folder.url), currentDirectory: folder.url)
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOf: output, encoding: .utf8)
        return text.split(separator: "\n").compactMap { TracedWrite(String($0)) }.filter {
            $0.path.contains("/.podarchive/")
        }
    }

    func test_eachJournalRecordAndEachDownloadRecord_isOneWrite() throws {
        let episodes = ["One", "Two", "Three"]
        for title in episodes { server.route("/\(title).mp3", .ok(Data("audio of \(title)".utf8))) }
        let first = feed(["One"])
        let later = feed(episodes)
        server.route("/feed.xml") { _, count in count == 0 ? first : later }

        // The first run writes the index whole; the second appends its episodes to the index's journal.
        let writes = try tracedSync("first.trace") + tracedSync("second.trace")

        let journal = writes.filter { $0.path.hasSuffix("/\(ArchiveLayout.journalFile)") }
        let records = writes.filter { ArchiveNames.isDownloadRecord(($0.path as NSString).lastPathComponent) }
        XCTAssertFalse(journal.isEmpty, "the second run appended to the journal")
        XCTAssertGreaterThanOrEqual(records.count, 2 * episodes.count, "two records for each download")
        for write in journal {
            // Whole records: "checksum json\n", each line of the write.
            XCTAssertTrue(write.data.hasSuffix("\n"), write.data)
            for line in write.data.split(separator: "\n") {
                XCTAssertNotNil(line.range(of: "^[0-9a-f]{8} \\{.*\\}$", options: .regularExpression), String(line))
            }
        }
        for write in records {
            // "\n{json}\n": one line, whole.
            XCTAssertTrue(write.data.hasPrefix("\n") && write.data.hasSuffix("}\n"), write.data)
            XCTAssertEqual(write.data.split(separator: "\n").count, 1, write.data)
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(write.data.utf8)), write.data)
        }
        XCTAssertEqual(
            Set(folder.visibleFiles().filter { $0.hasPrefix("archive/") }),
            Set(episodes.map { "archive/Write Show/\($0).mp3" }), "all archived")
    }
}

/// One write(2) as `strace -y` prints it: `PID write(FD</path>, "data", N <unfinished ...>` or `... ) = N`.
private struct TracedWrite {
    var path: String
    var data: String

    init?(_ line: String) {
        guard let call = line.range(of: "write("),
            let open = line.range(of: "<", range: call.upperBound..<line.endIndex),
            let close = line.range(of: ">, \"", range: open.upperBound..<line.endIndex)
        else { return nil }
        path = String(line[open.upperBound..<close.lowerBound])
        var data = ""
        var characters = line[close.upperBound...].makeIterator()
        while let character = characters.next() {
            if character == "\"" { break }
            guard character == "\\", let escaped = characters.next() else {
                data.append(character)
                continue
            }
            switch escaped {
            case "n": data.append("\n")
            case "t": data.append("\t")
            case "r": data.append("\r")
            case "v": data.append("\u{0B}")
            case "f": data.append("\u{0C}")
            case let digit where digit.isNumber:
                // An octal escape of one to three digits (strace prints non-printable bytes so).
                var octal = String(digit)
                var lookahead = characters
                while octal.count < 3, let next = lookahead.next(), ("0"..."7").contains(next) {
                    octal.append(next)
                    characters = lookahead
                }
                data.unicodeScalars.append(Unicode.Scalar(UInt8(octal, radix: 8) ?? 0))
            default: data.append(escaped)
            }
        }
        self.data = data
    }
}
