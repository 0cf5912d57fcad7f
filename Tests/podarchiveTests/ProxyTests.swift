// Proxies as curl users set them: the built binary with http_proxy and no_proxy in its environment (libcurl
// reads them). The proxy is our loopback server answering absolute-form requests; the feed's host name ends in
// .invalid, so nothing could reach it except through the proxy.
import Foundation
import TestSupport
import XCTest

final class ProxyTests: XCTestCase {
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        folder = try TemporaryFolder("proxy")
        try XCTSkipUnless(
            FileManager.default.isExecutableFile(atPath: ProcessRunner.podarchive.path),
            "the podarchive binary is not built at \(ProcessRunner.podarchive.path)")
    }

    override func tearDown() {
        folder.remove()
    }

    func test_binary_httpProxyFromTheEnvironment_carriesTheRequests_noProxyHostsGoDirect() throws {
        let proxy = try TestHTTPServer()
        let direct = try TestHTTPServer(address: "127.0.0.2")
        defer {
            proxy.stop()
            direct.stop()
        }
        let feed = "http://podcasts.invalid/feed.xml"
        proxy.route(
            feed,
            .ok(
                """
                <rss version="2.0"><channel><title>Behind A Proxy</title>
                <item><title>Proxied</title><enclosure url="http://podcasts.invalid/e1.mp3" type="audio/mpeg"/></item>
                <item><title>Direct</title><enclosure url="\(direct.url("/e2.mp3"))" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        proxy.route("http://podcasts.invalid/e1.mp3", .ok(Data(repeating: 1, count: 3000)))
        direct.route("/e2.mp3", .ok(Data(repeating: 2, count: 3000)))
        let environment = ProcessRunner.isolatedEnvironment(
            home: folder.url,
            extra: ["http_proxy": "http://127.0.0.1:\(proxy.port)", "no_proxy": "127.0.0.2"])

        let result = try ProcessRunner.run(
            ProcessRunner.podarchive, ["sync", feed, "--to", "archive"], environment: environment,
            currentDirectory: folder.url)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(
            folder.visibleFiles().filter { $0.hasSuffix(".mp3") }.sorted(),
            ["archive/Behind A Proxy/Direct.mp3", "archive/Behind A Proxy/Proxied.mp3"])
        XCTAssertEqual(Set(proxy.requestedPaths), [feed, "http://podcasts.invalid/e1.mp3"])
        XCTAssertEqual(direct.requestedPaths, ["/e2.mp3"], "no_proxy hosts are reached directly")
    }
}
