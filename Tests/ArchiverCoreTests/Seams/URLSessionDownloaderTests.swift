import Foundation
import TestSupport
import XCTest

// The live downloader against a real HTTP server on 127.0.0.1.
@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class URLSessionDownloaderTests: XCTestCase {
    private var server: TestHTTPServer!
    private var folder: TemporaryFolder!

    override func setUpWithError() throws {
        IsolatedHome.activate()
        server = try TestHTTPServer()
        folder = try TemporaryFolder("downloader")
    }

    override func tearDown() {
        server.stop()
        folder.remove()
    }

    private var destination: URL { folder.url.appendingPathComponent("body.part") }

    func test_download_streamsTheBodyToTheFileByteForByte() async throws {
        // 20 MB: more than two of the 8 MB stretches after which the downloader starts writing back to disk.
        let pattern = Data((0..<1_000_003).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        var body = Data()
        for _ in 0..<20 { body += pattern }
        server.route("/big.mp3", .ok(body))

        let result = try await URLSessionDownloader().download(URLRequest(url: server.url("/big.mp3")), to: destination)

        XCTAssertEqual((result.response as? HTTPURLResponse)?.statusCode, 200)
        XCTAssertEqual(result.bytesWritten, Int64(body.count))
        XCTAssertEqual(result.leadingBytes, body.prefix(512))
        XCTAssertEqual(result.sha256, SHA256.hex(body))
        XCTAssertTrue(FileManager.default.contents(atPath: destination.path) == body, "byte for byte")
    }

    func test_download_errorStatus_isReturnedWithoutWritingTheBody() async throws {
        server.route("/missing.mp3", .status(404, "<html>Not Found</html>"))

        let result = try await URLSessionDownloader().download(
            URLRequest(url: server.url("/missing.mp3")), to: destination)

        XCTAssertEqual((result.response as? HTTPURLResponse)?.statusCode, 404)
        XCTAssertEqual(result.bytesWritten, 0)
    }

    func test_download_bodyCutShort_throwsTransportError() async throws {
        server.route("/cut.mp3", TestResponse(body: Data(repeating: 7, count: 100_000), cutAfter: 40_000))

        do {
            _ = try await URLSessionDownloader().download(URLRequest(url: server.url("/cut.mp3")), to: destination)
            XCTFail("a truncated body must not succeed")
        } catch let error as DownloadError {
            guard case .transport = error else { return XCTFail("unexpected \(error)") }
        }
    }

    /// The network slot is handed on when the transfer ends, once, however it ends: whole, refused or cut short.
    func test_transferEnded_isCalledOnceBeforeTheResult_howeverTheTransferEnds() async throws {
        server.route("/whole.mp3", .ok(Data(repeating: 1, count: 300_000)))
        server.route("/missing.mp3", .status(404, "gone"))
        server.route("/cut.mp3", TestResponse(body: Data(repeating: 7, count: 100_000), cutAfter: 40_000))
        let downloader = URLSessionDownloader()
        for path in ["/whole.mp3", "/missing.mp3", "/cut.mp3"] {
            let calls = CallCount()
            _ = try? await downloader.download(
                URLRequest(url: server.url(path)), to: destination,
                options: DownloadOptions(transferEnded: { calls.add() }))
            XCTAssertEqual(calls.value, 1, path)
        }
    }

    func test_download_redirectToAnotherScheme_isRefused() async throws {
        server.route("/ftp.mp3", .redirect(to: "ftp://127.0.0.1/episode.mp3"))

        do {
            _ = try await URLSessionDownloader().download(URLRequest(url: server.url("/ftp.mp3")), to: destination)
            XCTFail("the redirect must be refused")
        } catch {
            XCTAssertEqual(error as? DownloadError, .refusedRedirect(location: "ftp://127.0.0.1/episode.mp3"))
        }
    }

    func test_download_redirectToAFileOrDataURL_isRefusedAndNothingElseIsRequested() async throws {
        // corelibs would request http://127.0.0.1:port/etc/passwd and report the server's 404.
        for location in ["file:///etc/passwd", "data:audio/mpeg;base64,AAAA"] {
            server.route("/trick.mp3", .redirect(to: location))

            do {
                _ = try await URLSessionDownloader().download(
                    URLRequest(url: server.url("/trick.mp3")), to: destination)
                XCTFail("the redirect to \(location) must be refused")
            } catch {
                XCTAssertEqual(error as? DownloadError, .refusedRedirect(location: location))
            }
        }
        XCTAssertEqual(Set(server.requestedPaths), ["/trick.mp3"], "no request for /etc/passwd")
    }

    func test_download_httpRedirect_isFollowed() async throws {
        server.route("/old.mp3", .redirect(to: "/new.mp3", status: 301))
        server.route("/new.mp3", .ok(Data("moved audio".utf8)))

        let result = try await URLSessionDownloader().download(URLRequest(url: server.url("/old.mp3")), to: destination)

        XCTAssertEqual(result.response.url, server.url("/new.mp3"))
        XCTAssertEqual(FileManager.default.contents(atPath: destination.path), Data("moved audio".utf8))
        XCTAssertEqual(server.requestedPaths, ["/old.mp3", "/new.mp3"])
    }

    func test_download_unwritableDestination_throwsFileError() async throws {
        server.route("/a.mp3", .ok(Data("a".utf8)))
        let inMissingFolder = folder.url.appendingPathComponent("no/such/folder/a.part")

        do {
            _ = try await URLSessionDownloader().download(URLRequest(url: server.url("/a.mp3")), to: inMissingFolder)
            XCTFail("expected a file error")
        } catch {
            XCTAssertEqual(
                error as? DownloadError,
                .file(path: inMissingFolder.path, reason: "No such file or directory", code: ENOENT))
        }
        XCTAssertEqual(server.requests, [], "no request is made when the file cannot be created")
    }

    #if os(Linux)
        func test_download_diskFull_failsWithTheReasonAndDoesNotHang() async throws {
            // /dev/full fails every write with ENOSPC: a full disk mid-download, many chunks after the first.
            server.route("/big.mp3", .ok(Data(repeating: 1, count: 4_000_000)))

            do {
                _ = try await URLSessionDownloader().download(
                    URLRequest(url: server.url("/big.mp3")), to: URL(fileURLWithPath: "/dev/full"))
                XCTFail("writing to a full disk must fail")
            } catch {
                XCTAssertEqual(
                    error as? DownloadError, .file(path: "/dev/full", reason: "No space left on device", code: ENOSPC))
            }
        }
    #endif

    // MARK: - Every transfer ends (each of these hung before, so each runs under a watchdog)

    func test_download_whenItsTaskIsAlreadyCancelled_endsAtOnceWithoutARequest() async throws {
        server.route("/a.mp3", .ok(Data("a".utf8)))
        let destination = self.destination
        let url = server.url("/a.mp3")

        // A sync whose run failed cancels the downloads it had just started: corelibs then reported the cancelled
        // task's completion before anyone waited for it, and the download waited forever.
        let error = try await withWatchdog(seconds: 10) { () -> Error? in
            await Task {
                withUnsafeCurrentTask { $0?.cancel() }
                do {
                    _ = try await URLSessionDownloader().download(URLRequest(url: url), to: destination)
                    return nil
                } catch {
                    return error
                }
            }.value
        }

        XCTAssertTrue(error is CancellationError, "got \(String(describing: error))")
        XCTAssertEqual(server.requests, [])
    }

    func test_download_cancelledMidBody_endsWithinSeconds() async throws {
        server.route(
            "/slow.mp3", TestResponse(body: Data(repeating: 3, count: 100_000), trickle: (chunk: 1_000, interval: 0.5)))
        let downloader = URLSessionDownloader()
        let destination = self.destination
        let url = server.url("/slow.mp3")
        let transfer = Task { try await downloader.download(URLRequest(url: url), to: destination) }
        XCTAssertTrue(server.waitUntilSent(1_000, of: "/slow.mp3"))

        transfer.cancel()
        let outcome = try await withWatchdog(seconds: 10) { await transfer.result }

        guard case .failure(let error) = outcome else { return XCTFail("a cancelled download must not succeed") }
        XCTAssertEqual(error as? DownloadError, .transport("cancelled"))
    }

    func test_download_401WithAChallenge_returnsTheStatus() async throws {
        server.route(
            "/paid.mp3",
            TestResponse(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"members\"")], body: Data()))
        let destination = self.destination
        let url = server.url("/paid.mp3")

        let result = try await withWatchdog(seconds: 10) {
            try await URLSessionDownloader().download(URLRequest(url: url), to: destination)
        }

        XCTAssertEqual((result.response as? HTTPURLResponse)?.statusCode, 401)
        XCTAssertEqual(result.bytesWritten, 0)
    }
}

/// Counts calls from any thread.
private final class CallCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }

    func add() { lock.withLock { count += 1 } }
}
