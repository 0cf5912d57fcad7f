import Foundation
import TestSupport
import XCTest

// Files another user could have written are never trusted, end to end on loopback (issue 37, point 2): a
// co-tenant is another uid (1000) and 0777 folders, as the tests run as root. Their credentials file, one planted
// in a folder others may write, or a link into their folder is refused (exit 5) and neither its login nor its
// planted "feed" is used; a configuration file they could write never runs its `exec`; their `.netrc` sends no
// login. The README's Kubernetes Secret recipe (`drwxrwxrwt root` folders of `..data` links, mounted read-only)
// still syncs.
@testable import ArchiverCore
@testable import podarchive

final class UntrustedFilesTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var credentials: URL { configurationFolder.appendingPathComponent("credentials") }
    private var intruder: TestHTTPServer!

    override func setUpWithError() throws {
        try super.setUpWithError()
        try XCTSkipUnless(geteuid() == 0, "another user's files are made with chown, which needs root")
        intruder = try TestHTTPServer(address: "127.0.0.2")
        intruder.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Members</title>
                <item><title>Planted</title><guid>p</guid><enclosure url="/p.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        intruder.route("/p.mp3", .ok(Data(repeating: 9, count: 100)))
        let xml = """
            <rss version="2.0"><channel><title>Members</title>
            <item><title>One</title><guid>1</guid><enclosure url="/e1.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """
        let guarded: @Sendable (TestResponse) -> (@Sendable (RecordedRequest, Int) -> TestResponse) = { response in
            { request, _ in
                request.headers["authorization"] == "Bearer T0KEN" || request.path.hasSuffix("?token=T0KEN")
                    ? response : .status(401, "no")
            }
        }
        server.route("/feed.xml", handler: guarded(.ok(xml, type: "application/rss+xml")))
        server.route("/e1.mp3", .ok(Data(repeating: 1, count: 100)))
    }

    override func tearDown() {
        intruder?.stop()
        super.tearDown()
    }

    /// Subscribes the private show (a token in its feed URL, kept in a credentials file); returns that file.
    private func addPrivateShow() async throws -> URL {
        let added = await run("add", server.url("/feed.xml").absoluteString + "?token=T0KEN", "--to", root.path)
        XCTAssertEqual(added, .success, errors.text)
        let names = try FileManager.default.contentsOfDirectory(atPath: credentials.path)
        XCTAssertEqual(names.count, 1, "\(names)")
        return credentials.appendingPathComponent(try XCTUnwrap(names.first))
    }

    /// The show's secrets as a co-tenant would plant them: its feed their server's.
    private func plantedSecrets() -> Data {
        Data(#"{"feed":"\#(intruder.url("/feed.xml").absoluteString)","credentials":null}"#.utf8)
    }

    private func chown(_ path: URL, to owner: Int) throws {
        try FileManager.default.setAttributes([.ownerAccountID: owner], ofItemAtPath: path.path)
    }

    private func chmod(_ path: URL, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path.path)
    }

    private func assertRefused(
        _ code: ExitCode, naming path: URL, fix: String, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(code, .archiveFailed, errors.text, file: file, line: line)
        XCTAssertTrue(
            errors.text.contains(path.path) && errors.text.contains("refused"), errors.text, file: file, line: line)
        XCTAssertTrue(errors.text.contains("fix: \(fix)"), errors.text, file: file, line: line)
        XCTAssertTrue(
            intruder.requests.isEmpty, "the planted feed was asked: \(intruder.requests)", file: file, line: line)
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: root.appendingPathComponent("Members/Planted.mp3").path),
            file: file, line: line)
    }

    func test_anotherUsersCredentialsFile_withAPlantedFeed_isRefused_andRedirectsNothing() async throws {
        let file = try await addPrivateShow()
        try plantedSecrets().write(to: file)
        try chmod(file, 0o600)
        try chown(file, to: 1000)

        let code = await run("sync", "--to", root.path)

        assertRefused(code, naming: file, fix: "chown 0 \(file.path)")
        XCTAssertTrue(errors.text.contains("uid 1000"), errors.text)
        XCTAssertEqual(errors.lines.count, 1, errors.text)
    }

    func test_aCredentialsFilePlantedInAFolderOthersMayWrite_isRefused() async throws {
        let file = try await addPrivateShow()
        try plantedSecrets().write(to: file)
        try chmod(file, 0o600)
        try chmod(credentials, 0o777)

        let code = await run("sync", "--to", root.path)

        assertRefused(code, naming: file, fix: "chmod go-w \(credentials.path)")
    }

    func test_aCredentialsFileLinkedIntoAnotherUsersFolder_isRefused() async throws {
        let file = try await addPrivateShow()
        let theirs = folder.url.appendingPathComponent("home-of-1000")
        try FileManager.default.createDirectory(at: theirs, withIntermediateDirectories: true)
        let planted = theirs.appendingPathComponent("secrets.json")
        try plantedSecrets().write(to: planted)
        try chmod(planted, 0o600)
        try chown(planted, to: 1000)
        try chown(theirs, to: 1000)
        try FileManager.default.removeItem(at: file)
        try FileManager.default.createSymbolicLink(at: file, withDestinationURL: planted)

        let code = await run("sync", "--to", root.path)

        assertRefused(code, naming: file, fix: "chown 0")
        XCTAssertTrue(errors.text.contains(theirs.path), errors.text)
    }

    func test_aConfigurationFileOthersMayWrite_runsNoExec_andIsRefused() async throws {
        let mark = folder.url.appendingPathComponent("hook-ran")
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        let config = configurationFolder.appendingPathComponent("config")
        try Data("exec = touch \(mark.path)\n".utf8).write(to: config)
        try chmod(config, 0o666)
        try chmod(configurationFolder, 0o777)
        serveFeed(episodes: [("Open", "/open.mp3")])
        server.route("/open.mp3", .ok(Data(repeating: 3, count: 100)))

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path)

        XCTAssertEqual(code, .archiveFailed, errors.text)
        XCTAssertEqual(errors.lines.count, 1, errors.text)
        XCTAssertTrue(errors.text.contains("configuration file \(config.path) refused"), errors.text)
        XCTAssertTrue(errors.text.contains("fix: chmod go-w \(configurationFolder.path)"), errors.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: mark.path), "the planted exec ran")
        XCTAssertTrue(server.requests.isEmpty, "nothing runs on a refused configuration")
    }

    func test_aConfigurationFileLinkedToAFileOthersMayWrite_isRefused() async throws {
        let mark = folder.url.appendingPathComponent("hook-ran")
        let shared = folder.url.appendingPathComponent("shared-config")
        try Data("exec = touch \(mark.path)\n".utf8).write(to: shared)
        try chmod(shared, 0o666)
        try FileManager.default.createDirectory(at: configurationFolder, withIntermediateDirectories: true)
        let config = configurationFolder.appendingPathComponent("config")
        try FileManager.default.createSymbolicLink(at: config, withDestinationURL: shared)
        serveFeed(episodes: [("Open", "/open.mp3")])

        let code = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path)

        XCTAssertEqual(code, .archiveFailed, errors.text)
        XCTAssertTrue(errors.text.contains("the file its link names, \(shared.path), can be written"), errors.text)
        XCTAssertTrue(errors.text.contains("fix: chmod go-w \(shared.path)"), errors.text)
        XCTAssertFalse(FileManager.default.fileExists(atPath: mark.path), "the planted exec ran")
    }

    func test_anotherUsersNetrc_sendsNoLogin_andIsRefused() async throws {
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let netrc = home.appendingPathComponent(".netrc")
        try Data("default login alice password pw\n".utf8).write(to: netrc)
        try chmod(netrc, 0o600)
        try chown(netrc, to: 1000)
        serveFeed(episodes: [("Open", "/open.mp3")])

        let code = await run(
            ["sync", server.url("/feed.xml").absoluteString, "--to", root.path],
            variables: ["HOME": home.path, "PODARCHIVE_CONFIG_DIR": configurationFolder.path])

        XCTAssertEqual(code, .archiveFailed, errors.text)
        XCTAssertTrue(errors.text.contains("netrc file \(netrc.path) refused"), errors.text)
        XCTAssertTrue(server.requests.allSatisfy { $0.headers["authorization"] == nil }, "\(server.requests)")
    }

    func test_theReadmesKubernetesSecret_readOnlyStickyRootFoldersOfDataLinks_stillSyncs() async throws {
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path)
                && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare"),
            "needs the built binary and unshare(1) for a read-only bind mount")
        let made = try await addPrivateShow()
        // As the kubelet lays a Secret out: a sticky root folder of links through `..data` into a version folder.
        let pod = folder.url.appendingPathComponent("pod")
        let mount = pod.appendingPathComponent("credentials")
        let version = mount.appendingPathComponent("..2026_11_28_08_00_00.1")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: made, to: version.appendingPathComponent(made.lastPathComponent))
        try chmod(version.appendingPathComponent(made.lastPathComponent), 0o400)
        try FileManager.default.createSymbolicLink(
            atPath: mount.appendingPathComponent("..data").path, withDestinationPath: version.lastPathComponent)
        try FileManager.default.createSymbolicLink(
            atPath: mount.appendingPathComponent(made.lastPathComponent).path,
            withDestinationPath: "..data/" + made.lastPathComponent)
        try chmod(mount, 0o1777)
        let environment = ProcessRunner.isolatedEnvironment(
            home: folder.url, extra: ["PODARCHIVE_CONFIG_DIR": pod.path])
        let sync = ["sync", "--to", root.path]

        // Writable, the same layout is refused: the sticky 0777 folder is what a co-tenant could plant into.
        let writable = try ProcessRunner.run(ProcessRunner.podarchive, sync, environment: environment)
        // Mounted read-only, as the recipe mounts it, nothing in it can change: it syncs.
        let mounted = try ProcessRunner.run(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            [
                "--mount", "/bin/sh", "-c",
                #"mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@""#, "sh", mount.path,
                ProcessRunner.podarchive.path,
            ] + sync, environment: environment)

        XCTAssertEqual(writable.status, 5, writable.stderr)
        XCTAssertTrue(writable.stderr.contains("chmod go-w \(mount.path)"), writable.stderr)
        try XCTSkipIf(
            mounted.stderr.contains("mount:"), "this process may not make a read-only bind mount: \(mounted.stderr)")
        XCTAssertEqual(mounted.status, 0, mounted.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("Members/One.mp3").path))
        XCTAssertTrue(intruder.requests.isEmpty)
    }
}
