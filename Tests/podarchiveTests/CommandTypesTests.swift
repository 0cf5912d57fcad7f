import Foundation
import TestSupport
import XCTest

// A command is a type given what it needs: run on its own with a context of the test's, it writes there and
// builds the archiver only when it has work for it.
@testable import ArchiverCore
@testable import podarchive

final class CommandTypesTests: XCTestCase {
    private let output = CapturedOutput()
    private let errors = CapturedOutput()

    override func setUp() {
        super.setUp()
        IsolatedHome.activate()
    }

    private func context(building archiver: @escaping @Sendable () -> Archiver) -> CommandContext {
        CommandContext(
            environment: ProcessEnvironment(variables: ["HOME": "/home/me"], currentDirectory: "/cwd"),
            output: output, errors: errors, makeArchiver: archiver, now: { Date(timeIntervalSince1970: 0) },
            terminal: .none)
    }

    func test_aCommandsMenuWords_areTheFirstClauseOfItsOneAboutText() {
        let summaries = Dictionary(uniqueKeysWithValues: Commands.entries.map { ($0.name, $0.info.summary) })
        XCTAssertEqual(summaries["sync"], "download every episode not yet archived")
        XCTAssertEqual(summaries["remove"], "unsubscribe a show")
        XCTAssertEqual(summaries["export"], "write the archive as a WARC 1.1 file")
        for command in Commands.entries {
            XCTAssertTrue(command.info.about.hasPrefix(command.info.summary), command.name)
            XCTAssertFalse(command.info.summary.isEmpty, command.name)
            XCTAssertLessThanOrEqual(command.info.summary.count, 64, "\(command.name): a menu line, not a paragraph")
        }
    }

    func test_syncCommand_headersWithoutTheirFeeds_areRefusedBeforeTheArchiverIsBuilt() async {
        var arguments = SyncCommand.Arguments(feeds: [], archiveDirectory: "/archive")
        arguments.headers = ["X-Token: t"]
        let code = await SyncCommand(
            context: context { fatalError("no archiver for a refused run") }, arguments: arguments
        )
        .run()
        XCTAssertEqual(code, .usage)
        XCTAssertEqual(
            errors.text,
            "podarchive: option '--header' needs the feeds it is for named on the command line (and no --opml or "
                + "--feeds list): it is sent to their hosts only\n")
        XCTAssertEqual(output.text, "")
    }

    func test_syncCommand_anEmptyArchive_saysHowToAddAShow_andEndsAsUsage() async throws {
        let folder = try TemporaryFolder("command-types")
        defer { folder.remove() }
        let code = await SyncCommand(
            context: context { Archiver.live() },
            arguments: SyncCommand.Arguments(feeds: [], archiveDirectory: folder.url.path)
        ).run()
        XCTAssertEqual(code, .usage)
        XCTAssertEqual(
            errors.text,
            "podarchive: \(folder.url.standardizedFileURL.path) has no subscriptions; add one with "
                + "'podarchive add <feed>' or name a feed\n")
    }
}
