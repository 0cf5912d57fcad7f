import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// What a flaky network does to a sync, on loopback with the live downloader: cut bodies, resets, ranges honoured
// and ignored, files that change between attempts, slow trickles, rate limits, redirect loops.
@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class ResilienceTests: LoopbackArchiveTestCase {
    /// The one-episode feed, its audio (ETag `"v1"`, ranges honoured) cut after `bytes` the first time it is asked for.
    private func serveAudioCutOnce(after bytes: Int) {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            var response = TestResponse.file(audio, for: request, etag: "\"v1\"")
            if count == 0 { response.cutAfter = bytes }
            return response
        }
    }

    // MARK: - Resume

    func test_truncatedBody_isResumedWithRangeAndIfRange() async throws {
        serveAudioCutOnce(after: 120_000)

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(archived, audio, "byte-identical after the resume")
        let tries = requests("/big.mp3")
        XCTAssertEqual(tries.count, 2)
        XCTAssertNil(tries[0].headers["range"])
        XCTAssertEqual(tries[1].headers["range"], "bytes=120000-")
        XCTAssertEqual(tries[1].headers["if-range"], "\"v1\"")
        XCTAssertEqual(server.bytesSent("/big.mp3"), audio.count, "nothing was fetched twice")
        let index = try IndexFormat.decode(
            XCTUnwrap(
                FileManager.default.contents(
                    atPath: folder.url.appendingPathComponent("Flaky/.podarchive/index.json").path)))
        XCTAssertEqual(index.episodes.first?.sha256, SHA256.hex(audio), "the hash covers the resumed file")
    }

    func test_connectionResetMidBody_isRetriedAndResumed() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            var response = TestResponse.file(audio, for: request, lastModified: "Fri, 10 Jan 2025 13:00:00 GMT")
            if count == 0 {
                response.cutAfter = 65_536
                response.reset = true
            }
            return response
        }

        _ = try await sync()

        XCTAssertEqual(archived, audio)
        XCTAssertEqual(requests("/big.mp3").last?.headers["if-range"], "Fri, 10 Jan 2025 13:00:00 GMT")
        XCTAssertEqual(requests("/big.mp3").last?.headers["range"], "bytes=65536-")
        XCTAssertEqual(sleeper.delays, [1])
    }

    func test_serverIgnoringRange_startsOverWithTheWholeFile() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            var response = TestResponse.file(audio, for: request, etag: "\"v1\"", ranges: false)
            if count == 0 { response.cutAfter = 100_000 }
            return response
        }

        _ = try await sync()

        XCTAssertEqual(archived, audio, "the 200 replaced the partial bytes instead of being appended to them")
        XCTAssertEqual(requests("/big.mp3").count, 2)
    }

    func test_fileChangedBetweenAttempts_startsOverWithTheNewFile() async throws {
        serveFeed()
        let original = audio
        let changed = Data(audio.reversed())
        server.route("/big.mp3") { request, count in
            if count == 0 {
                var response = TestResponse.file(original, for: request, etag: "\"v1\"")
                response.cutAfter = 100_000
                return response
            }
            return TestResponse.file(changed, for: request, etag: "\"v2\"")
        }

        _ = try await sync()

        XCTAssertEqual(requests("/big.mp3")[1].headers["if-range"], "\"v1\"")
        XCTAssertEqual(archived, changed, "never half of one version and half of another")
    }

    func test_serverIgnoringIfRange_206OfANewVersion_isNeverSpliced() async throws {
        // A lying server: If-Range says "v1", it answers 206 with the bytes of "v2" anyway.
        serveFeed()
        let original = audio
        let changed = Data(audio.reversed())
        server.route("/big.mp3") { request, count in
            if count == 0 {
                var response = TestResponse.file(original, for: request, etag: "\"v1\"")
                response.cutAfter = 100_000
                return response
            }
            return TestResponse.file(
                changed,
                for: RecordedRequest(
                    path: request.path,
                    headers: request.headers
                        .filter { $0.key != "if-range" }), etag: "\"v2\"")
        }

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(archived, changed, "never the first 100,000 bytes of v1 followed by the rest of v2")
        let tries = requests("/big.mp3")
        XCTAssertEqual(tries.count, 3, "cut, the refused 206, then the whole new file")
        XCTAssertNil(tries[2].headers["range"])
    }

    func test_206WhoseTotalShrankUnderTheSameETag_isRefused() async throws {
        serveFeed()
        let original = audio
        let shorter = audio.prefix(200_000)
        server.route("/big.mp3") { request, count in
            var response = TestResponse.file(count == 0 ? original : Data(shorter), for: request, etag: "\"v1\"")
            if count == 0 { response.cutAfter = 100_000 }
            return response
        }

        _ = try await sync()

        XCTAssertEqual(archived, Data(shorter), "the partial file of the longer version was not continued")
        XCTAssertNil(requests("/big.mp3").last?.headers["range"])
    }

    func test_rangeNotSatisfiable_startsOver() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            switch count {
            case 0:
                var response = TestResponse.file(audio, for: request, etag: "\"v1\"")
                response.cutAfter = 100_000
                return response
            case 1:
                return TestResponse(status: 416, headers: [("Content-Range", "bytes */50000")])
            default:
                return TestResponse.file(audio, for: request, etag: "\"v1\"")
            }
        }

        _ = try await sync()

        XCTAssertEqual(archived, audio)
        XCTAssertNil(requests("/big.mp3")[2].headers["range"], "after a 416 the download starts from zero")
    }

    func test_partialLeftByAnEarlierRun_isResumedByTheNextRun() async throws {
        serveAudioCutOnce(after: 200_000)

        let first = try await sync(SyncOptions(retry: RetryPolicy(retries: 0)))
        let second = try await sync()

        XCTAssertEqual(first.failed.count, 1)
        XCTAssertEqual(folder.visibleFiles(), ["Flaky/Big one.mp3"], "the partial stayed hidden in between")
        XCTAssertEqual(second.archived.count, 1)
        XCTAssertEqual(requests("/big.mp3").last?.headers["range"], "bytes=200000-")
        XCTAssertEqual(archived, audio)
    }

    /// An archive an earlier version left, whose download records were files of their own (`download-<hash>.json`)
    /// rather than lines of the show's log: its partial download is resumed just the same, and the file goes.
    func test_partialLeftByAnEarlierVersion_withItsRecordInAFileOfItsOwn_isResumedByTheNextRun() async throws {
        serveAudioCutOnce(after: 200_000)
        _ = try await sync(SyncOptions(retry: RetryPolicy(retries: 0)))
        // What the earlier version kept: the same record, in a file named after the download.
        let state = folder.url.appendingPathComponent("Flaky/.podarchive")
        let log = state.appendingPathComponent(ArchiveLayout.downloadLog)
        let line = try XCTUnwrap(String(contentsOf: log, encoding: .utf8).split(separator: "\n").last)
        var record = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let stem = try XCTUnwrap(record.removeValue(forKey: "download") as? String)
        XCTAssertEqual(record["validator"] as? String, "\"v1\"")
        let recordFile = state.appendingPathComponent("download-\(stem).json")
        try JSONSerialization.data(withJSONObject: record).write(to: recordFile)
        try FileManager.default.removeItem(at: log)

        let second = try await sync()

        XCTAssertEqual(second.archived.count, 1)
        XCTAssertEqual(requests("/big.mp3").last?.headers["range"], "bytes=200000-")
        XCTAssertEqual(requests("/big.mp3").last?.headers["if-range"], "\"v1\"")
        XCTAssertEqual(archived, audio)
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: state.path).filter(ArchiveNames.isDownloadRecord), [],
            "the record file went with its download")
    }

    // MARK: - Retries and deadlines

    func test_500Then200_isRetriedAfterABackoff() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            count == 0 ? .status(500, "boom") : TestResponse.file(audio, for: request)
        }

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(sleeper.delays, [1])
    }

    func test_429WithRetryAfter_waitsWhatTheServerSays() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            count == 0
                ? TestResponse(status: 429, headers: [("Retry-After", "17")]) : TestResponse.file(audio, for: request)
        }

        _ = try await sync()

        XCTAssertEqual(sleeper.delays, [17])
        XCTAssertEqual(archived, audio)
    }

    /// An episode waiting to try again gives its download slot to the others: with one slot, the second episode is
    /// downloaded during the first one's wait, not after it.
    func test_anEpisodeWaitingToRetry_holdsNoDownloadSlot() async throws {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Flaky</title>
                <item><title>A</title><guid>a</guid><enclosure url="/a.mp3" type="audio/mpeg"/></item>
                <item><title>B</title><guid>b</guid><enclosure url="/b.mp3" type="audio/mpeg"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        let audio = self.audio
        server.route("/a.mp3") { request, count in
            count == 0
                ? TestResponse(status: 429, headers: [("Retry-After", "17")]) : TestResponse.file(audio, for: request)
        }
        let bRequested = DispatchSemaphore(value: 0)
        server.route("/b.mp3") { request, _ in
            bRequested.signal()
            return TestResponse.file(audio, for: request)
        }
        // A's wait ends once B was asked for, or after 45 s when B cannot start until A is done (only the failing
        // case waits that long; a loaded machine may take seconds to start B, so a shorter bound made it flaky).
        let archiver = Archiver.live(
            downloader: URLSessionDownloader(),
            sleep: { _ in
                await withCheckedContinuation { done in
                    DispatchQueue.global().async {
                        _ = bRequested.wait(timeout: .now() + 45)
                        done.resume()
                    }
                }
            }, timer: noDeadline, jitter: { 0.5 })
        var options = SyncOptions(jobs: 2)
        options.budget = DownloadBudget(total: 1, perHost: 1)

        let events = EventLog()
        let report = try await withWatchdog(seconds: 60) { [folder, server, options] in
            try await archiver.sync(
                .remote(server!.url("/feed.xml")), into: folder!.url, options: options, onEvent: events.append)
        }

        XCTAssertEqual(report.archived.count, 2)
        XCTAssertTrue(
            events.all.contains { event in
                if case .waitingToRetry(let episode, let seconds, .httpStatus(429)) = event {
                    return episode.title == "A" && seconds == 17
                }
                return false
            }, "the wait is said, with the server's Retry-After")
        // A and B race for the one slot; whichever is first, B must not wait for A's retry (A holding the slot
        // while it waits would put B after A's second request).
        let paths = server.requests.map(\.path).filter { $0.hasSuffix(".mp3") }
        XCTAssertEqual(paths.sorted(), ["/a.mp3", "/a.mp3", "/b.mp3"])
        XCTAssertLessThan(
            try XCTUnwrap(paths.firstIndex(of: "/b.mp3")), try XCTUnwrap(paths.lastIndex(of: "/a.mp3")),
            "B was downloaded while A waited: \(paths)")
    }

    func test_slowTricklePastTheIdleTimeout_failsThenResumes() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            var response = TestResponse.file(audio, for: request, etag: "\"v1\"")
            // 64 KB, then silence longer than the client's idle timeout.
            if count == 0 { response.trickle = (chunk: 65_536, interval: 30) }
            return response
        }

        let report = try await sync(idleTimeout: 2)

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(requests("/big.mp3").count, 2)
        XCTAssertEqual(requests("/big.mp3")[1].headers["range"], "bytes=65536-")
        XCTAssertEqual(archived, audio)
    }

    func test_episodeDeadline_stopsASlowDownloadAndKeepsWhatArrived() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, _ in
            var response = TestResponse.file(audio, for: request, etag: "\"v1\"")
            response.trickle = (chunk: 10_000, interval: 0.1)
            return response
        }
        let server = self.server!

        // The episode's deadline passes once 20,000 bytes arrived (the feed's, waiting for the same, is over first).
        let report = try await sync(
            SyncOptions(episodeTimeout: 0.6), timer: { _ in try await server.sent(20_000, of: "/big.mp3") })

        XCTAssertEqual(report.failed.map(\.failure), [.timedOut(0.6)])
        XCTAssertEqual(folder.visibleFiles(), [])
        let partials = folder.files().filter { $0.hasSuffix(".part") }
        XCTAssertEqual(partials.count, 1, "what arrived is kept for the next run")
    }

    func test_redirectLoop_failsCleanly() async throws {
        serveFeed()
        server.route("/big.mp3", .redirect(to: "/loop.mp3"))
        server.route("/loop.mp3", .redirect(to: "/big.mp3"))

        let report = try await sync(SyncOptions(retry: RetryPolicy(retries: 0)))

        XCTAssertEqual(report.failed.count, 1)
        guard case .transport = report.failed[0].failure else { return XCTFail("\(report.failed[0].failure)") }
        XCTAssertEqual(folder.visibleFiles(), [])
    }

    func test_htmlErrorPageWithStatus200_isNeverKept() async throws {
        serveFeed()
        server.route("/big.mp3", .ok("<!doctype html><title>Quota exceeded</title>", type: "audio/mpeg"))

        let report = try await sync()

        XCTAssertEqual(report.failed.map(\.failure), [.htmlPage])
        XCTAssertEqual(sleeper.delays, [], "an error page is not retried")
        XCTAssertEqual(
            folder.files().filter { !$0.hasSuffix(".json") && !$0.hasSuffix("lock") && !$0.contains("/history/") }, [])
    }
}
