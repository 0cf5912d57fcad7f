import Foundation
import TestSupport
import XCTest

// A WARC gives each companion and cover the `Content-Type` its server sent (issue 37, point 11), recorded when it
// was downloaded (the index's `contentType` of a companion, the cover's `user.mime_type`), so that a replay
// serves what the web served: the feed's declared type only where an archive of 0.1.0 recorded nothing, else the
// file's extension.
@testable import ArchiverCore
@testable import podarchive

final class CaptureTypeTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var indexFile: URL { root.appendingPathComponent("Typed/.podarchive/index.json") }
    /// A JPEG's first bytes: the cover and the artwork are kept (and named `.jpg`) for what their bytes are.
    private let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 7, count: 400)

    private func serveTypedShow() {
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                  xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Typed</title>
                <itunes:image href="/cover.jpg"/>
                <item><title>One</title><guid>1</guid><enclosure url="/one.mp3" type="audio/mpeg"/>
                <itunes:image href="/art.jpg"/>
                <podcast:transcript url="/one.srt" type="application/x-subrip" language="en"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/one.mp3", .ok(Data(repeating: 1, count: 3000), type: "audio/mpeg"))
        server.route(
            "/one.srt", .ok(Data("WEBVTT\n\n00:00.000 --> 00:01.000\nHello\n".utf8), type: "text/vtt; charset=utf-8"))
        server.route("/art.jpg", .ok(jpeg, type: "image/png"))
        server.route("/cover.jpg", .ok(jpeg, type: "image/png"))
    }

    /// The Content-Type of the WARC's record of the capture whose URI ends `suffix`.
    private func type(in warc: String, of suffix: String, file: StaticString = #filePath, line: UInt = #line)
        throws -> String?
    {
        let records = try WARCReader.records(Data(contentsOf: folder.url.appendingPathComponent(warc)))
        let capture = records.first { $0.type != "metadata" && $0["WARC-Target-URI"]?.hasSuffix(suffix) == true }
        XCTAssertNotNil(capture, "no capture of \(suffix)", file: file, line: line)
        return capture?["Content-Type"]
    }

    func test_export_eachCompanionAndTheCover_haveTheTypeTheirServerSent_notTheOneTheFeedDeclared() async throws {
        serveTypedShow()
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--metadata", "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)

        let status = await run("export", "--warc", "typed.warc", root.path)

        XCTAssertEqual(status, .success, errors.text)
        let index = try JSONDecoder().decode(ArchiveIndex.self, from: Data(contentsOf: indexFile))
        let companions = try XCTUnwrap(index.episodes.first?.companions)
        XCTAssertEqual(
            Dictionary(uniqueKeysWithValues: companions.map { ($0.kind, $0.contentType) }),
            ["transcript": "text/vtt; charset=utf-8", "artwork": "image/png"])
        XCTAssertEqual(try type(in: "typed.warc", of: "/one.srt"), "text/vtt; charset=utf-8")
        XCTAssertEqual(try type(in: "typed.warc", of: "/art.jpg"), "image/png")
        XCTAssertEqual(try type(in: "typed.warc", of: "/cover.jpg"), "image/png")
    }

    func test_export_anArchiveOf010_withoutTheRecordedTypes_isRead_theDeclaredTypeOrTheExtensionSays() async throws {
        serveTypedShow()
        let synced = await run("sync", server.url("/feed.xml").absoluteString, "--metadata", "--to", root.path)
        XCTAssertEqual(synced, .success, errors.text)
        // As 0.1.0 left it: no `contentType` in any entry or companion, no type kept on the cover.
        var older = try JSONSerialization.jsonObject(with: Data(contentsOf: indexFile)) as! [String: Any]
        var episodes = older["episodes"] as! [[String: Any]]
        episodes[0].removeValue(forKey: "contentType")
        episodes[0]["companions"] = (episodes[0]["companions"] as! [[String: Any]]).map {
            $0.filter { $0.key != "contentType" }
        }
        older["episodes"] = episodes
        try JSONSerialization.data(withJSONObject: older).write(to: indexFile)
        // The cover as a new file with its origin alone (Swift's Glibc has no removexattr).
        let cover = root.appendingPathComponent("Typed/cover.jpg")
        let bytes = try Data(contentsOf: cover)
        try FileManager.default.removeItem(at: cover)
        try bytes.write(to: cover)
        try FileManager.default.setAttributes(
            [
                FileAttributeKey("NSFileExtendedAttributes"): [
                    ArchiveNames.originAttribute: Data(
                        server.url("/cover.jpg").absoluteString.utf8)
                ]
            ], ofItemAtPath: cover.path)

        let status = await run("export", "--warc", "older.warc", root.path)

        XCTAssertEqual(status, .success, errors.text)
        XCTAssertEqual(try type(in: "older.warc", of: "/one.srt"), "application/x-subrip", "as the feed declared")
        XCTAssertEqual(try type(in: "older.warc", of: "/art.jpg"), "image/jpeg", "as its name says")
        XCTAssertEqual(try type(in: "older.warc", of: "/cover.jpg"), "image/jpeg", "as its name says")
    }
}
