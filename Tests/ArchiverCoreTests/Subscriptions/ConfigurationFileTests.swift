// The configuration file's lines: what is read from each, and the one-line message, with file and line, for
// each kind of line that cannot be read.
import Foundation
import TestSupport
import XCTest

@testable import ArchiverCore

final class ConfigurationFileTests: XCTestCase {
    private let path = "/home/me/.config/podarchive/config"

    private func parse(_ text: String, home: String? = "/home/me") throws -> [ConfigurationFile.Entry] {
        try ConfigurationFile(parsing: text, path: path, home: home).entries
    }

    private func problem(_ text: String, home: String? = "/home/me") -> String? {
        do {
            _ = try ConfigurationFile(parsing: text, path: path, home: home)
            return nil
        } catch {
            return error.localizedDescription
        }
    }

    func test_keyValueLines_commentsAndBlankLinesSkipped_lineNumbersKept() throws {
        let entries = try parse(
            """
            # nightly defaults
              jobs = 2

            limit-rate=500K
            \tname =   {date} {title}   \r
            """)
        XCTAssertEqual(
            entries,
            [
                .init(key: "jobs", value: "2", line: 2), .init(key: "limit-rate", value: "500K", line: 4),
                .init(key: "name", value: "{date} {title}", line: 5),
            ])
    }

    func test_tildeIsTheHomeFolder_onlyAtTheStart() throws {
        let entries = try parse("to = ~/Podcasts\nnetrc-file = ~\nname = {title} ~/x\nuser-agent = ~me")
        XCTAssertEqual(entries.map(\.value), ["/home/me/Podcasts", "/home/me", "{title} ~/x", "~me"])
    }

    func test_aHashAfterASpaceStartsAComment_quotesKeepOne_andComeOffOnce() throws {
        let entries = try parse(
            """
            jobs = 2   # at most two
            name = "{date} {title}"  # quoted
            user-agent = 'Mine #1'
            match = Part#2
            to = "~/My Podcasts"
            """)
        XCTAssertEqual(entries.map(\.value), ["2", "{date} {title}", "Mine #1", "Part#2", "/home/me/My Podcasts"])
    }

    func test_aQuoteNotClosed_orTextAfterIt() {
        XCTAssertEqual(problem("match = \"half"), "\(path):1: match \"half has no closing \"")
        XCTAssertEqual(problem("name = 'a' b"), "\(path):1: name 'a' b has more after its closing '")
    }

    func test_aLineWithoutEquals_namesFileLineAndText() {
        XCTAssertEqual(problem("jobs = 2\n\njobs 4"), "\(path):3: 'jobs 4' is not 'key = value'")
    }

    func test_aLineWithoutKey() {
        XCTAssertEqual(problem("= 4"), "\(path):1: '= 4' has no key before '='")
    }

    func test_aKeyWithoutValue() {
        XCTAssertEqual(problem("# x\nto =  "), "\(path):2: to has no value")
        XCTAssertEqual(problem("name = \"\""), "\(path):1: name has no value")
        XCTAssertEqual(problem("name = # nothing"), "\(path):1: name has no value")
    }

    func test_aKeySetTwice() {
        XCTAssertEqual(problem("jobs = 2\njobs = 3"), "\(path):2: jobs is set twice, on line 1 and here")
    }

    func test_tildeWithoutHome() {
        XCTAssertEqual(
            problem("to = ~/Podcasts", home: nil), "\(path):1: to '~/Podcasts' needs $HOME, which is not set")
    }

    func test_load_noFileIsNoConfiguration_aFolderOrBadTextIsAProblem() throws {
        let folder = try TemporaryFolder("configuration-file")
        defer { folder.remove() }
        let configuration = ConfigurationFolder(url: folder.url)
        let file = folder.url.appendingPathComponent("config")
        XCTAssertNil(try ConfigurationFile.load(from: configuration, home: nil))

        try Data("jobs = 2\n".utf8).write(to: file)
        XCTAssertEqual(try ConfigurationFile.load(from: configuration, home: nil)?.entries.map(\.key), ["jobs"])
        XCTAssertEqual(try ConfigurationFile.load(from: configuration, home: nil)?.path, file.path)

        try Data([0x6a, 0x3d, 0xff, 0xfe]).write(to: file)
        XCTAssertThrowsError(try ConfigurationFile.load(from: configuration, home: nil)) { error in
            XCTAssertEqual(error.localizedDescription, "\(file.path): it is not UTF-8 text")
        }

        try FileManager.default.removeItem(at: file)
        try FileManager.default.createDirectory(at: file, withIntermediateDirectories: false)
        XCTAssertThrowsError(try ConfigurationFile.load(from: configuration, home: nil)) { error in
            XCTAssertEqual(error.localizedDescription, "\(file.path): it is a folder")
        }
    }
}
