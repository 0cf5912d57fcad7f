import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// A download the disk cannot hold stops the run once the downloads in flight have ended, and the message counts
// the partial downloads kept then: not the half-written file of a download that went on to be archived.
@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class DiskFullTests: FakeArchiveTestCase {
    func test_refusedForSpace_countsThePartialDownloadsKeptWhenTheRunStops() async throws {
        let feed = rss([
            ("Held", "https://example.com/held.mp3", "held"), ("Huge", "https://example.com/huge.mp3", "huge"),
            ("Cut", "https://example.com/cut.mp3", "cut"),
        ])
        fileSystem.freeSpace = 1500
        let downloads = OrderedDownloads(fileSystem: fileSystem)
        let archiver = Archiver(
            fileSystem: FileSystemSeams(
                files: fileSystem, attributes: fileSystem, mover: fileSystem, writer: fileSystem, locker: fileSystem,
                hasher: fileSystem),
            network: NetworkSeams(
                fetcher: StubFetcher(logger: logger, feedURL: feedURL, body: feed, onUnexpected: failOnUnexpected),
                downloader: downloads),
            clock: SyncClock(
                now: { Date(timeIntervalSince1970: 1_800_000_000) }, sleep: { _ in }, timer: noDeadline, jitter: { 0.5 }
            ))

        do {
            _ = try await archiver.sync(
                .remote(URL(string: feedURL)!), into: root,
                options: SyncOptions(retry: RetryPolicy(retries: 0), jobs: 3))
            XCTFail("expected the run to stop")
        } catch {
            // When "Huge" was refused, "Held" had 500 of its 1000 bytes on disk; it was then archived whole. What
            // stays for the next run is the 300 bytes of "Cut", whose connection broke.
            XCTAssertEqual(
                error as? ArchiveError,
                .storage(
                    path: "/archive/Show/.podarchive",
                    reason: "the episode needs 5000 bytes and only 1500 are free; partial downloads kept for "
                        + "resuming hold 300 bytes"))
        }
        XCTAssertEqual(fileSystem.visibleFiles, ["/archive/Show/Held.mp3"])
    }
}

/// "Held" writes half its body and waits until "Huge" has been refused for its size, then finishes; "Cut" writes
/// 300 bytes and loses its connection.
private final class OrderedDownloads: FileDownloading, @unchecked Sendable {
    private let fileSystem: FakeFileSystem
    private let lock = NSLock()
    private var refused = false
    private var waiting: CheckedContinuation<Void, Never>?

    init(fileSystem: FakeFileSystem) { self.fileSystem = fileSystem }

    func download(_ request: URLRequest, to destination: URL, options: DownloadOptions) async throws
        -> DownloadResult
    {
        let url = request.url!
        let size = ["held.mp3": 1000, "huge.mp3": 5000, "cut.mp3": 400][url.lastPathComponent]!
        let response = HTTPURLResponse(
            url: url, statusCode: 200, httpVersion: "HTTP/1.1",
            headerFields: ["Content-Length": String(size), "Content-Type": "audio/mpeg", "ETag": "\"e\""])!
        if let refusal = options.admit?(response, false) {
            let waiter = lock.withLock { () -> CheckedContinuation<Void, Never>? in
                refused = true
                defer { waiting = nil }
                return waiting
            }
            waiter?.resume()
            throw refusal
        }
        let body = Data(repeating: 7, count: size)
        switch url.lastPathComponent {
        case "cut.mp3":
            try fileSystem.writeAtomically(body.prefix(300), to: destination)
            options.progress?(300)
            throw DownloadError.transport("connection lost")
        default:
            try fileSystem.writeAtomically(body.prefix(500), to: destination)
            options.progress?(500)
            await withCheckedContinuation { continuation in
                let go = lock.withLock { () -> Bool in
                    if refused { return true }
                    waiting = continuation
                    return false
                }
                if go { continuation.resume() }
            }
            try fileSystem.writeAtomically(body, to: destination)
            options.progress?(Int64(size))
            return DownloadResult(
                response: response, bytesWritten: Int64(size), sha256: SHA256.hex(body), leadingBytes: body.prefix(512))
        }
    }
}
