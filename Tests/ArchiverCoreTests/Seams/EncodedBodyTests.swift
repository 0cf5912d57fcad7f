import ArchiverCoreTesting
import Foundation
import TestSupport
import XCTest

// Bodies a server sends compressed (`Content-Encoding`), on loopback with the live sessions: complete only at the
// compressed stream's end with a good trailer and the encoded bytes' Content-Length, whatever libcurl would have
// made of a stream cut short; episodes, companions and feeds alike. And a length announced before for the same
// version of a file: a body that contradicts it is not kept.
@testable import ArchiverCore

final class EncodedBodyTests: LoopbackArchiveTestCase {
    private let once = SyncOptions(retry: RetryPolicy(retries: 0))

    private func encodedAudio(
        _ encoding: String, body: @escaping @Sendable (Int) -> Data, etag: String? = "\"g\""
    ) {
        serveFeed()
        server.route("/big.mp3") { _, count in
            var headers = [("Content-Type", "audio/mpeg"), ("Content-Encoding", encoding)]
            if let etag { headers.append(("ETag", etag)) }
            return TestResponse(headers: headers, body: body(count))
        }
    }

    /// The hidden downloads of the show that hold any byte.
    private func writtenPartials() -> [String] {
        let state = folder.url.appendingPathComponent("Flaky/.podarchive")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: state.path)) ?? []
        return names.filter {
            $0.hasSuffix(".part")
                && (try? FileManager.default.attributesOfItem(atPath: state.appendingPathComponent($0).path))?[.size]
                    as? Int != 0
        }
    }

    /// What a sync once over threw, nil when it did not.
    private func syncError() async -> Error? {
        do {
            _ = try await sync(once)
            return nil
        } catch {
            return error
        }
    }

    private func failures(_ report: SyncReport) -> [String] {
        report.failed.map(\.failure.reason)
    }

    // MARK: - Episodes

    /// The issue's case: an `identity` request, gzipped anyway, cut at two thirds with Content-Length saying what
    /// was sent. libcurl ends such a stream as a success; podarchive kept 3,901 bytes as the episode.
    func test_episodeGzippedAndCutBeforeItsTrailer_isNeverKept_andIsFetchedAgainFromItsStart() async throws {
        let gzipped = Gzip.compress(audio)
        let cut = gzipped.prefix(gzipped.count * 2 / 3)
        encodedAudio("gzip") { $0 == 0 ? Data(cut) : gzipped }

        let first = try await sync(once)

        XCTAssertEqual(first.archived, [])
        XCTAssertEqual(
            failures(first),
            [
                "its gzip-encoded body ended before its compressed stream did (cut short); not kept, fetched again "
                    + "from its start"
            ])
        XCTAssertEqual(folder.visibleFiles(), [], "nothing of it is visible")

        let second = try await sync(once)

        XCTAssertEqual(second.archived.count, 1)
        XCTAssertEqual(archived, audio, "decoded by podarchive, whole")
        XCTAssertEqual(
            requests("/big.mp3").map { $0.headers["range"] }, [nil, nil],
            "never resumed: the partial held decoded bytes")
        let index = try IndexFormat.decode(
            Data(contentsOf: folder.url.appendingPathComponent("Flaky/.podarchive/index.json")))
        XCTAssertEqual(index.episodes.first?.sha256, SHA256.hex(audio), "the digest is of the decoded file")
        XCTAssertEqual(index.episodes.first?.size, Int64(audio.count))
    }

    func test_episodeRequest_asksForIdentity_andAGzipAnswerCutShortIsRetriedWithinTheRun() async throws {
        let gzipped = Gzip.compress(audio)
        encodedAudio("gzip") { $0 == 0 ? Data(gzipped.prefix(1_000)) : gzipped }

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(archived, audio)
        XCTAssertEqual(sleeper.delays, [1], "a cut body is retried as any failure")
        XCTAssertEqual(requests("/big.mp3").map { $0.headers["accept-encoding"] }, ["identity", "identity"])
        XCTAssertEqual(requests("/big.mp3").map { $0.headers["range"] }, [nil, nil])
    }

    func test_deflateBodies_zlibWrappedAndRaw_areKeptWhole_andRefusedCut() async throws {
        for (name, encoded) in [("zlib", Compressed.zlib(audio)), ("raw", Compressed.rawDeflate(audio))] {
            folder.remove()
            folder = try TemporaryFolder("encoded")
            encodedAudio("deflate") { $0.isMultiple(of: 2) ? Data(encoded.prefix(encoded.count - 3)) : encoded }
            let path = "/big.mp3"
            let before = requests(path).count

            let cut = try await sync(once)
            let whole = try await sync(once)

            XCTAssertEqual(cut.archived, [], name)
            XCTAssertEqual(
                failures(cut),
                [
                    "its deflate-encoded body ended before its compressed stream did (cut short); not kept, fetched "
                        + "again from its start"
                ], name)
            XCTAssertEqual(whole.archived.count, 1, name)
            XCTAssertEqual(archived, audio, name)
            XCTAssertEqual(requests(path).count - before, 2, name)
        }
    }

    func test_bytesAfterTheEndOfTheStream_orADamagedTrailer_areNeverKept() async throws {
        var damaged = Gzip.compress(audio)
        damaged[damaged.count - 5] ^= 0xFF  // the CRC-32
        let trailing = Gzip.compress(audio) + Data("<html>ad</html>".utf8)
        for (body, reason) in [
            (trailing, "its gzip-encoded body goes on past the end of its compressed stream"),
            (damaged, "its gzip-encoded body is damaged (incorrect data check)"),
        ] {
            folder.remove()
            folder = try TemporaryFolder("encoded")
            encodedAudio("gzip") { _ in body }

            let report = try await sync(once)

            XCTAssertEqual(report.archived, [])
            XCTAssertEqual(failures(report), [reason + "; not kept, fetched again from its start"])
            XCTAssertEqual(folder.visibleFiles(), [])
        }
    }

    func test_twoGzipMembers_oneAfterTheOther_areOneBody() async throws {
        let half = audio.count / 2
        let members = Gzip.compress(audio.prefix(half)) + Gzip.compress(audio.suffix(from: half))
        encodedAudio("gzip") { _ in members }

        let report = try await sync(once)

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(archived, audio)
    }

    func test_anEncodingPodarchiveDoesNotDecode_isRefusedNamingIt_andNothingIsKept() async throws {
        for encoding in ["br", "zstd", "compress", "gzip, br"] {
            folder.remove()
            folder = try TemporaryFolder("encoded")
            let audio = self.audio
            encodedAudio(encoding) { _ in audio }

            let report = try await sync()

            XCTAssertEqual(report.archived, [], encoding)
            XCTAssertEqual(
                failures(report),
                [
                    "the server sent it encoded as \(encoding) (Content-Encoding), which podarchive does not decode; "
                        + "not kept"
                ], encoding)
            XCTAssertEqual(sleeper.delays, [], "\(encoding): not retried within the run")
            XCTAssertEqual(folder.visibleFiles(), [], encoding)
            XCTAssertEqual(writtenPartials(), [], "\(encoding): no byte of it written")
        }
    }

    // MARK: - A length announced before

    /// A lying server answers a resume (`If-Range` with its own ETag) with `200` and only the rest of the file:
    /// the tail was kept as the whole file. The length it announced before for that ETag says otherwise.
    func test_200ToIfRangeWithTheSameETagAndAShorterBody_isNotKept_andTheWholeFileIs() async throws {
        serveFeed()
        let audio = self.audio
        server.route("/big.mp3") { request, count in
            let headers = [("Content-Type", "audio/mpeg"), ("ETag", "\"v1\""), ("Accept-Ranges", "bytes")]
            switch count {
            case 0: return TestResponse(headers: headers, body: audio, cutAfter: 200_000)
            case 1: return TestResponse(headers: headers, body: audio.suffix(from: 200_000))
            default: return TestResponse(headers: headers, body: audio)
            }
        }

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(archived, audio, "never the tail kept as the whole file")
        let tries = requests("/big.mp3")
        XCTAssertEqual(
            tries.map { $0.headers["if-range"] }, [nil, "\"v1\"", nil],
            "cut, the contradicting 200, then the whole file from its start")
        XCTAssertEqual(sleeper.delays.count, 2, "the contradicting answer is a failure, waited for as any other")
    }

    /// Ads inserted make a feed's `length` wrong: a body that ends with its connection, shorter than it, is taken
    /// for a cut and asked for once more; the same size again is the file. It failed on every try of every run.
    func test_aBodyEndingWithItsConnection_shorterThanTheFeedsLength_isKeptWhenItComesAgainTheSame() async throws {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Flaky</title><item><title>Big one</title><guid>big</guid>
                <enclosure url="/big.mp3" length="320000" type="audio/mpeg"/></item></channel></rss>
                """, type: "application/rss+xml"))
        server.route(
            "/big.mp3", TestResponse(headers: [("Content-Type", "audio/mpeg")], body: audio, omitContentLength: true))

        let report = try await sync()

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(archived, audio)
        XCTAssertEqual(requests("/big.mp3").count, 2, "asked for once more, then kept")
        XCTAssertEqual(sleeper.delays, [1])
    }

    /// Without retries the same size comes again in the next run, not the next try: the failure the index records
    /// remembers the size, so that run keeps it. Every run failed for ever, saying "the rest is fetched on the next
    /// attempt" of a body whose next attempt starts again from its first byte (even with an ETag: a body that ends
    /// with its connection is never resumed).
    func test_aBodyEndingWithItsConnection_shorterThanTheFeedsLength_isKeptWhenTheNextRunGetsTheSameSize()
        async throws
    {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0"><channel><title>Flaky</title><item><title>Big one</title><guid>big</guid>
                <enclosure url="/big.mp3" length="320000" type="audio/mpeg"/></item></channel></rss>
                """, type: "application/rss+xml"))
        server.route(
            "/big.mp3",
            TestResponse(
                headers: [("Content-Type", "audio/mpeg"), ("ETag", "\"v1\""), ("Accept-Ranges", "bytes")],
                body: audio, omitContentLength: true))

        let first = try await sync(once)
        let second = try await sync(once)

        XCTAssertEqual(first.archived, [])
        XCTAssertEqual(
            failures(first),
            [
                "its body ended with the connection after 300000 bytes, short of the 320000 the feed gives as its "
                    + "length; not kept: the next try asks for it again from its first byte, and the same size again "
                    + "is the file"
            ])
        XCTAssertEqual(second.archived.count, 1, "the same size again, a run later")
        XCTAssertEqual(failures(second), [])
        XCTAssertEqual(archived, audio)
        XCTAssertEqual(requests("/big.mp3").map { $0.headers["range"] }, [nil, nil], "from its first byte again")
    }

    // MARK: - Companions

    func test_transcriptGzippedAndCut_isNotKept_andIsAskedForCompressed() async throws {
        let vtt = Data(("WEBVTT\n\n" + String(repeating: "00:00.000 --> 00:01.000\nHello there\n\n", count: 400)).utf8)
        let gzipped = Gzip.compress(vtt)
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0" xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Flaky</title>
                <item><title>Big one</title><guid>big</guid><enclosure url="/big.mp3" type="audio/mpeg"/>
                <podcast:transcript url="/big.vtt" type="text/vtt" language="en"/></item></channel></rss>
                """, type: "application/rss+xml"))
        server.route("/big.mp3", .ok(audio))
        server.route("/big.vtt") { _, count in
            TestResponse(
                headers: [("Content-Type", "text/vtt"), ("Content-Encoding", "gzip")],
                body: count == 0 ? Data(gzipped.prefix(gzipped.count / 2)) : gzipped)
        }
        let events = EventLog()

        _ = try await archiver().sync(
            .remote(server.url("/feed.xml")), into: folder.url, options: once, onEvent: { events.append($0) })
        let cutKept = folder.visibleFiles()
        _ = try await archiver().sync(.remote(server.url("/feed.xml")), into: folder.url, options: once)

        XCTAssertEqual(cutKept, ["Flaky/Big one.mp3"], "the cut transcript is not kept")
        let failed = events.all.compactMap { event -> String? in
            if case .companionFailed(_, _, let failure) = event { return failure.reason }
            return nil
        }
        XCTAssertEqual(
            failed,
            [
                "its gzip-encoded body ended before its compressed stream did (cut short); not kept, fetched again "
                    + "from its start"
            ])
        XCTAssertEqual(
            FileManager.default.contents(atPath: folder.url.appendingPathComponent("Flaky/Big one.en.vtt").path), vtt)
        XCTAssertEqual(requests("/big.vtt").map { $0.headers["accept-encoding"] }, ["gzip, deflate", "gzip, deflate"])
    }

    // MARK: - Feeds

    /// A gzip feed of 300 items cut short was read as the items before the cut, and a truncated revision entered
    /// the history.
    func test_feedGzippedAndCut_failsTheFeed_andNoRevisionEntersTheHistory() async throws {
        let items = (0..<300).map {
            "<item><title>Episode \($0)</title><guid>e\($0)</guid><enclosure url=\"/e\($0).mp3\" type=\"audio/mpeg\"/>"
                + "<description>\(String(repeating: "notes \($0) ", count: 20))</description></item>"
        }
        let document = Data(
            ("<rss version=\"2.0\"><channel><title>Flaky</title>" + items.joined() + "</channel></rss>").utf8)
        let gzipped = Gzip.compress(document)
        server.route("/feed.xml") { _, _ in
            TestResponse(
                headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")],
                body: Data(gzipped.prefix(gzipped.count * 2 / 3)))
        }

        let error = await syncError()

        guard case .transport(_, let reason) = error as? FeedError else {
            return XCTFail("expected the feed to fail, got \(String(describing: error))")
        }
        XCTAssertEqual(reason, "its gzip-encoded body ended before its compressed stream did (cut short)")
        XCTAssertEqual(folder.files().filter { $0.contains("history") }, [], "no revision entered the history")
        XCTAssertEqual(requests("/big.mp3"), [])
        XCTAssertEqual(requests("/feed.xml").first?.headers["accept-encoding"], "gzip, deflate")
    }

    func test_feedGzippedWhole_isRead() async throws {
        let document = Data(
            """
            <rss version="2.0"><channel><title>Flaky</title>
            <item><title>Big one</title><guid>big</guid><enclosure url="/big.mp3" type="audio/mpeg"/></item>
            </channel></rss>
            """.utf8)
        server.route(
            "/feed.xml",
            TestResponse(
                headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "gzip")],
                body: Gzip.compress(document)))
        server.route("/big.mp3", .ok(audio))

        let report = try await sync(once)

        XCTAssertEqual(report.archived.count, 1)
        XCTAssertEqual(archived, audio)
    }

    func test_feedInAnEncodingPodarchiveDoesNotDecode_isRefusedNamingIt() async throws {
        server.route(
            "/feed.xml",
            TestResponse(
                headers: [("Content-Type", "application/rss+xml"), ("Content-Encoding", "br")],
                body: Data("not brotli at all".utf8)))

        let error = await syncError()

        XCTAssertEqual(
            error?.localizedDescription,
            "feed \(server.url("/feed.xml")) was sent encoded as br (Content-Encoding), which podarchive does not "
                + "decode; nothing read")
        XCTAssertEqual(requests("/feed.xml").count, 1, "not retried")
    }
}
