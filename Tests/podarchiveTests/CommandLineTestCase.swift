import Foundation
import TestSupport
import XCTest

// The set-up the command-line tests share: the tool with captured output, a loopback server and a temporary
// folder as the current directory.
@testable import ArchiverCore
@testable import podarchive

/// A test case running `CommandLineTool` as `main.swift` would, against its own loopback server.
class CommandLineTestCase: XCTestCase {
    var server: TestHTTPServer!
    var folder: TemporaryFolder!
    let output = CapturedOutput()
    let errors = CapturedOutput()

    override func setUpWithError() throws {
        try super.setUpWithError()
        IsolatedHome.activate()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("cli")
    }

    override func tearDown() {
        server.stop()
        folder.remove()
        super.tearDown()
    }

    /// The configuration folder the tool is given (credentials are kept there), unless a test names another.
    var configurationFolder: URL { folder.url.appendingPathComponent("config") }

    func run(_ arguments: String..., variables: [String: String] = [:]) async -> ExitCode {
        await run(arguments, variables: variables)
    }

    func run(_ arguments: [String], variables: [String: String] = [:]) async -> ExitCode {
        await tool(variables: variables).run(arguments)
    }

    /// The tool `run` runs: writing to `output` and `errors`, in the temporary folder, with the test's
    /// configuration folder unless `variables` name another.
    func tool(variables: [String: String] = [:]) -> CommandLineTool {
        var variables = variables
        if variables["PODARCHIVE_CONFIG_DIR"] == nil, variables["HOME"] == nil, variables["XDG_CONFIG_HOME"] == nil {
            variables["PODARCHIVE_CONFIG_DIR"] = configurationFolder.path
        }
        return CommandLineTool(
            environment: ProcessEnvironment(variables: variables, currentDirectory: folder.url.path),
            output: output, errors: errors,
            makeArchiver: {
                Archiver.live(now: { Date(timeIntervalSince1970: 0) })
            })
    }

    func serveFeed(episodes: [(String, String)]) {
        var xml = "<rss version=\"2.0\"><channel><title>CLI Show</title>"
        for (title, path) in episodes {
            xml += "<item><title>\(title)</title><enclosure url=\"\(path)\" type=\"audio/mpeg\"/></item>"
        }
        server.route("/feed.xml", .ok(xml + "</channel></rss>", type: "application/rss+xml"))
    }

    func tool(output: CapturedOutput) -> CommandLineTool {
        CommandLineTool(
            environment: ProcessEnvironment(variables: [:], currentDirectory: folder.url.path), output: output,
            errors: errors,
            makeArchiver: { Archiver.live() }
        )
    }
}
