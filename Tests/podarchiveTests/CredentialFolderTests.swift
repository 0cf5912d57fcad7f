import Foundation
import TestSupport
import XCTest

// Secrets are written only where the reading of them would be trusted (issue 37, point 2): a credentials folder
// others may write, another user's, or a link into one, is refused before a byte is written, in one line naming
// the folder and the chmod/chown that fixes it (exit 5), and is never chmodded into shape behind the user's back.
// A co-tenant is another uid (1000) and 0777 folders, as in `UntrustedFilesTests`: the tests run as root.
@testable import ArchiverCore
@testable import podarchive

final class CredentialFolderTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var credentials: URL { configurationFolder.appendingPathComponent("credentials") }

    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(geteuid() == 0, "another user's folders are made with chown, which needs root")
        let xml = """
            <rss version="2.0"><channel><title>Members</title>
            <item><title>One</title><guid>1</guid><enclosure url="/e1.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        server.route("/feed.xml", .ok(xml, type: "application/rss+xml"))
        server.route("/e1.mp3", .ok(Data(repeating: 1, count: 100)))
    }

    private func mode(_ url: URL) throws -> Int {
        try XCTUnwrap(try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    /// Every file under `folder` whose bytes hold the token.
    private func filesHoldingTheToken(under folder: URL) -> [String] {
        let walk = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        return (walk?.allObjects as? [URL] ?? []).filter {
            (try? Data(contentsOf: $0)).map { $0.range(of: Data("T0KEN".utf8)) != nil } ?? false
        }.map(\.path)
    }

    private func addPrivateShow() async -> ExitCode {
        await run("add", server.url("/feed.xml").absoluteString + "?token=T0KEN", "--to", root.path)
    }

    func test_add_aTokenFeed_intoACredentialsFolderOthersMayWrite_isRefused_nothingWritten_modeLeftAsItWas()
        async throws
    {
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o777], ofItemAtPath: credentials.path)

        let code = await addPrivateShow()

        XCTAssertEqual(code, .archiveFailed, errors.text)
        XCTAssertEqual(errors.lines.count, 1, errors.text)
        XCTAssertTrue(
            errors.text.contains(
                "refused: its folder \(credentials.path) can be written by its group and others (mode 0777); no secret is written "
                    + "there (fix: chmod go-w \(credentials.path))"), errors.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: credentials.path), [])
        XCTAssertEqual(try mode(credentials), 0o777, "told, not chmodded behind the user's back")
        XCTAssertEqual(filesHoldingTheToken(under: folder.url), [])
    }

    func test_add_aTokenFeed_whenTheCredentialsFolderIsALinkIntoAnotherUsersFolder_isRefused_nothingWritten()
        async throws
    {
        let theirs = folder.url.appendingPathComponent("home-of-1000/credentials")
        try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true)
        try FileManager.default.setAttributes(
            [.ownerAccountID: 1000, .posixPermissions: 0o777], ofItemAtPath: theirs.path)
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: credentials, withDestinationURL: theirs)

        let code = await addPrivateShow()

        XCTAssertEqual(code, .archiveFailed, errors.text)
        XCTAssertEqual(errors.lines.count, 1, errors.text)
        XCTAssertTrue(
            errors.text.contains(
                "refused: its folder \(theirs.path) belongs to uid 1000, not to you (uid 0) or root and can be written by its group "
                    + "and others (mode 0777); no secret is written there (fix: chown 0 \(theirs.path) && chmod go-w "
                    + "\(theirs.path))"), errors.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: theirs.path), [])
        XCTAssertEqual(try mode(theirs), 0o777)
        XCTAssertEqual(filesHoldingTheToken(under: folder.url), [])
    }

    func test_add_aTokenFeed_intoAnotherUsersCredentialsFolder_isRefused() async throws {
        try FileManager.default.createDirectory(at: credentials, withIntermediateDirectories: true)
        try FileManager.default.setAttributes(
            [.ownerAccountID: 1000, .posixPermissions: 0o700], ofItemAtPath: credentials.path)

        let code = await addPrivateShow()

        XCTAssertEqual(code, .archiveFailed, errors.text)
        XCTAssertTrue(errors.text.contains("fix: chown 0 \(credentials.path))"), errors.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: credentials.path), [])
    }

    func test_add_aTokenFeed_intoItsOwnFolder_keepsTheSecretThere_0600_in_0700() async throws {
        let code = await addPrivateShow()

        XCTAssertEqual(code, .success, errors.text)
        let names = try FileManager.default.contentsOfDirectory(atPath: credentials.path)
        XCTAssertEqual(names.count, 1)
        XCTAssertEqual(try mode(credentials), 0o700)
        XCTAssertEqual(try mode(credentials.appendingPathComponent(names[0])), 0o600)
        XCTAssertEqual(filesHoldingTheToken(under: root), [])
    }
}
