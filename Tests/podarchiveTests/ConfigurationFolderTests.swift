import Foundation
import TestSupport
import XCTest

// Where podarchive keeps what is not the archive's, end to end on loopback: a read-only, symlinked credentials
// folder (a mounted Kubernetes Secret) is read as it is and never changed; a netrc `default` login reaches the
// subscription's own host only; and a root `.podarchive` that is a link is refused before anything is written.
@testable import ArchiverCore
@testable import podarchive

final class ConfigurationFolderTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }

    private func servePrivateFeed(authorization: String, episodeOn other: TestHTTPServer? = nil) {
        servePrivateFeed(authorizations: [authorization], episodeOn: other)
    }

    private func servePrivateFeed(authorizations: Set<String>, episodeOn other: TestHTTPServer? = nil) {
        let episode = other.map { $0.url("/e2.mp3").absoluteString } ?? "/e2.mp3"
        let xml = """
            <rss version="2.0"><channel><title>Members</title>
            <item><title>One</title><guid>1</guid><enclosure url="/e1.mp3" type="audio/mpeg"/></item>
            <item><title>Two</title><guid>2</guid><enclosure url="\(episode)" type="audio/mpeg"/></item>
            </channel></rss>
            """
        let guarded: @Sendable (TestResponse) -> (@Sendable (RecordedRequest, Int) -> TestResponse) = { response in
            { request, _ in
                authorizations.contains(request.headers["authorization"] ?? "") ? response : .status(401, "no")
            }
        }
        server.route("/feed.xml", handler: guarded(.ok(xml, type: "application/rss+xml")))
        server.route("/e1.mp3", handler: guarded(.ok(Data(repeating: 1, count: 100))))
        server.route("/e2.mp3", handler: guarded(.ok(Data(repeating: 2, count: 100))))
        other?.route("/e2.mp3", .ok(Data(repeating: 2, count: 100)))
    }

    func test_aReadOnlySymlinkedCredentialsFolder_isReadAsItIs_andNewCredentialsThereFailClearly() async throws {
        servePrivateFeed(authorizations: ["Bearer T0KEN", "Bearer NEW"])
        let feed = server.url("/feed.xml").absoluteString
        let added = await run("add", feed, "--to", root.path, "--header", "Authorization: Bearer T0KEN")
        XCTAssertEqual(added, .success, errors.text)
        // As Kubernetes mounts a Secret: each file a link into a hidden version folder, all of it read-only.
        let mounted = folder.url.appendingPathComponent("mounted")
        let version = mounted.appendingPathComponent("credentials/..2026_11_26")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        let made = configurationFolder.appendingPathComponent("credentials")
        for name in try FileManager.default.contentsOfDirectory(atPath: made.path) {
            try FileManager.default.copyItem(
                at: made.appendingPathComponent(name), to: version.appendingPathComponent(name))
            try FileManager.default.setAttributes(
                [.posixPermissions: 0o400], ofItemAtPath: version.appendingPathComponent(name).path)
            try FileManager.default.createSymbolicLink(
                atPath: mounted.appendingPathComponent("credentials/\(name)").path,
                withDestinationPath: "..2026_11_26/\(name)")
        }
        for folder in [version, mounted.appendingPathComponent("credentials"), mounted] {
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: folder.path)
        }
        defer {
            for folder in [mounted, mounted.appendingPathComponent("credentials"), version] {
                try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: folder.path)
            }
        }
        let before = try modes(under: mounted)
        let pod = ["PODARCHIVE_CONFIG_DIR": mounted.path]

        let synced = await run(["sync", "--to", root.path], variables: pod)
        let refused = await run(
            ["add", feed, "--to", root.path, "--header", "Authorization: Bearer NEW"], variables: pod)

        XCTAssertEqual(synced, .success, errors.text)
        XCTAssertTrue(FileManager.default.fileExists(atPath: root.appendingPathComponent("Members/Two.mp3").path))
        XCTAssertEqual(refused, .archiveFailed, errors.text)
        XCTAssertEqual(errors.lines.count, 1, errors.text)
        XCTAssertTrue(errors.text.contains(mounted.appendingPathComponent("credentials").path), errors.text)
        XCTAssertFalse(errors.text.contains("NEW"), errors.text)
        XCTAssertEqual(try modes(under: mounted), before, "nothing in the mounted folder was changed or chmodded")
    }

    func test_aNetrcDefaultLogin_goesToTheSubscriptionsHostOnly() async throws {
        let other = try TestHTTPServer(address: "127.0.0.2")
        defer { other.stop() }
        servePrivateFeed(authorization: "Basic " + Data("alice:pw".utf8).base64EncodedString(), episodeOn: other)
        let home = folder.url.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        let netrc = home.appendingPathComponent(".netrc")
        try Data("default login alice password pw\n".utf8).write(to: netrc)
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: netrc.path)

        let code = await run(
            ["sync", server.url("/feed.xml").absoluteString, "--to", root.path, "--netrc-file", netrc.path])

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertTrue(server.requests.allSatisfy { $0.headers["authorization"] != nil }, "the feed's host has it")
        XCTAssertFalse(other.requests.isEmpty)
        XCTAssertTrue(other.requests.allSatisfy { $0.headers["authorization"] == nil }, "\(other.requests)")
    }

    func test_aRootStateFolderThatIsALink_isRefused_exit5_andNothingIsWrittenThroughIt() async throws {
        servePrivateFeed(authorization: "Bearer T")
        let elsewhere = folder.url.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(
            at: root.appendingPathComponent(".podarchive"), withDestinationURL: elsewhere)

        let code = await run(
            "sync", server.url("/feed.xml").absoluteString, "--to", root.path, "--header", "Authorization: Bearer T")

        XCTAssertEqual(code, .archiveFailed, errors.text)
        XCTAssertTrue(errors.text.contains(".podarchive") && errors.text.contains("link"), errors.text)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [], "nothing written there")
    }

    /// The mode of every file and folder under `folder`, links not followed.
    private func modes(under folder: URL) throws -> [String: Int] {
        var modes: [String: Int] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder.path)
        while let relative = enumerator?.nextObject() as? String {
            let attributes = try FileManager.default.attributesOfItem(
                atPath: folder.appendingPathComponent(relative).path)
            modes[relative] = (attributes[.posixPermissions] as? NSNumber)?.intValue
        }
        return modes
    }
}
