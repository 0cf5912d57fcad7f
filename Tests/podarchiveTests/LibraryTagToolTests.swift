import Foundation
import TestSupport
import XCTest

// `export --library` read back by the tools players and media servers use: real audio files made by ffmpeg,
// archived by a sync against a loopback server, exported, and each copy read by ffprobe and mutagen: titles, dates,
// the show's author as artist and the show as album and album artist, cover, and every chapter's title and start
// time against the chapters JSON it came from. The archive's files are unchanged and `verify` still passes.
@testable import ArchiverCore
@testable import podarchive

final class LibraryTagToolTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }
    private var library: URL { folder.url.appendingPathComponent("library") }
    private var show: URL { root.appendingPathComponent("Tone Show") }

    private static let chapters = #"""
        {"version":"1.2.0","chapters":[{"startTime":12,"title":"Ending"},{"startTime":0,"title":"Intro"},
        {"startTime":5.5,"title":"Middle ünïcode ♫"},{"startTime":-3,"title":"Negative"},
        {"startTime":9000,"title":"Past the end"}]}
        """#

    override func setUpWithError() throws {
        try super.setUpWithError()
        try TagTools.require()
    }

    /// Serves a feed of an MP3 (already tagged by its publisher), an M4A and an Opus file, with chapters and a
    /// JPEG cover, and syncs it with `--metadata`.
    private func syncTones() async throws {
        let media = folder.url.appendingPathComponent("media", isDirectory: true)
        try FileManager.default.createDirectory(at: media, withIntermediateDirectories: true)
        let mp3 = try TagTools.tone(
            media.appendingPathComponent("one.mp3"), seconds: 20,
            ["-c:a", "libmp3lame", "-b:a", "64k", "-metadata", "title=Publisher's title"])
        // Fast start: its moov before its mdat, so every chunk offset moves when the tags grow the moov.
        let m4a = try TagTools.tone(
            media.appendingPathComponent("two.m4a"), seconds: 20, ["-c:a", "aac", "-movflags", "+faststart"])
        let opus = try TagTools.tone(media.appendingPathComponent("three.opus"), seconds: 20, ["-c:a", "libopus"])
        let vorbis = try TagTools.tone(media.appendingPathComponent("four.ogg"), seconds: 20, ["-c:a", "libvorbis"])
        let jpeg = try TagTools.picture(media.appendingPathComponent("cover.jpg"))
        let base = server.url("").absoluteString
        server.route(
            "/feed.xml",
            .ok(
                """
                <rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"
                 xmlns:podcast="https://podcastindex.org/namespace/1.0"><channel><title>Tone Show</title>
                <itunes:author>Ada &amp; Grace</itunes:author><itunes:image href="\(base)/cover.jpg"/>
                <item><title>First: one</title><guid>one</guid><pubDate>Mon, 06 Jan 2025 08:00:00 GMT</pubDate>
                <description>Notes of one</description><itunes:episode>3</itunes:episode><itunes:season>2</itunes:season>
                <enclosure url="\(base)/one.mp3" type="audio/mpeg"/>
                <podcast:chapters url="\(base)/one.chapters.json" type="application/json+chapters"/></item>
                <item><title>Two</title><guid>two</guid><pubDate>Mon, 13 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="\(base)/two.m4a" type="audio/mp4"/>
                <podcast:chapters url="\(base)/one.chapters.json" type="application/json+chapters"/></item>
                <item><title>Three</title><guid>three</guid><pubDate>Mon, 20 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="\(base)/three.opus" type="audio/ogg"/>
                <podcast:chapters url="\(base)/one.chapters.json" type="application/json+chapters"/></item>
                <item><title>Four</title><guid>four</guid><pubDate>Mon, 27 Jan 2025 08:00:00 GMT</pubDate>
                <enclosure url="\(base)/four.ogg" type="audio/ogg"/>
                <podcast:chapters url="\(base)/one.chapters.json" type="application/json+chapters"/></item>
                </channel></rss>
                """, type: "application/rss+xml"))
        server.route("/one.mp3", .ok(mp3))
        server.route("/two.m4a", .ok(m4a))
        server.route("/three.opus", .ok(opus))
        server.route("/four.ogg", .ok(vorbis))
        server.route("/cover.jpg", .ok(jpeg, type: "image/jpeg"))
        server.route("/one.chapters.json", .ok(Self.chapters, type: "application/json"))
        let status = await run("sync", server.url("/feed.xml").absoluteString, "--to", root.path, "--metadata")
        XCTAssertEqual(status, .success, errors.text)
    }

    /// Every file under `folder` by its path inside it, with its SHA-256.
    private func hashes(_ folder: URL) throws -> [String: String] {
        var found: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        while let url = enumerator?.nextObject() as? URL {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            var hash = SHA256()
            hash.update(try Data(contentsOf: url))
            found[String(url.path.dropFirst(folder.path.count))] = hash.hexDigest()
        }
        return found
    }

    func test_library_mp3M4AOpusAndVorbis_areReadBackByFfprobeAndMutagen_withTheChaptersOfTheirJSON()
        async throws
    {
        try await syncTones()
        let before = try hashes(root)
        output.clear()

        let status = await run("export", "--library", library.path, root.path)

        XCTAssertEqual(status, .success, errors.text)
        XCTAssertEqual(output.lines.count, 2, output.text)
        XCTAssertTrue(output.lines[0].hasPrefix("library: writing 6 files ("), output.lines[0])
        XCTAssertTrue(
            output.lines[1].hasPrefix(
                "library \(library.path): 1 show, 4 episodes tagged, 0 copied untagged, 2 show art files, "
                    + "0 unchanged ("), output.text)
        XCTAssertEqual(
            errors.lines,
            ["First - one.mp3", "Two.m4a", "Three.opus", "Four.ogg"].flatMap {
                [
                    "library: Tone Show/\($0): 1 chapters without a usable start time left out",
                    "library: Tone Show/\($0): 1 chapters past the audio's end left out",
                ]
            })
        let shelf = library.appendingPathComponent("Tone Show")
        XCTAssertEqual(
            try FileManager.default.contentsOfDirectory(atPath: shelf.path).sorted(),
            [
                "2025-01-06 First - one.mp3", "2025-01-13 Two.m4a", "2025-01-20 Three.opus", "2025-01-27 Four.ogg",
                "cover.jpg", "folder.jpg",
            ])
        XCTAssertEqual(try hashes(root), before, "the archive's files are unchanged")
        let verified = await run("verify", root.path)
        XCTAssertEqual(verified, .success, errors.text)

        let copy = shelf.appendingPathComponent("2025-01-06 First - one.mp3")
        let expected: [(Double, String)] = [(0, "Intro"), (5.5, "Middle ünïcode ♫"), (12, "Ending")]
        let probed = try TagTools.probe(copy)
        XCTAssertEqual(probed.tags["title"], "First: one", "the publisher's own tag replaced")
        XCTAssertEqual(probed.tags["album"], "Tone Show")
        XCTAssertEqual(probed.tags["artist"], "Ada & Grace")
        XCTAssertEqual(probed.tags["album_artist"], "Tone Show")
        XCTAssertEqual(probed.tags["date"], "2025-01-06")
        XCTAssertEqual(probed.tags["track"], "3")
        XCTAssertEqual(probed.tags["disc"], "2")
        XCTAssertEqual(probed.tags["comment"], "Notes of one")
        XCTAssertEqual(probed.chapters.map(\.title), expected.map(\.1))
        XCTAssertEqual(probed.chapters.map(\.start), expected.map(\.0))
        let read = try TagTools.mutagen(copy)
        XCTAssertEqual(read.title, "First: one")
        XCTAssertEqual(read.album, "Tone Show")
        XCTAssertEqual(read.artist, "Ada & Grace", "the show's author")
        XCTAssertEqual(read.albumArtist, "Tone Show")
        XCTAssertEqual(read.date, "2025-01-06")
        XCTAssertTrue(read.cover)
        XCTAssertEqual(read.chapters, expected.map { [String(Int($0.0 * 1000)), $0.1] })
        // The audio is the archived file's after its own tag, byte for byte.
        let archived = try Data(contentsOf: show.appendingPathComponent("First - one.mp3"))
        let copied = try Data(contentsOf: copy)
        let skip = ID3Tag.leadingTagsLength([UInt8](archived.prefix(1 << 16)))
        XCTAssertGreaterThan(skip, 0, "ffmpeg wrote the publisher's tag")
        XCTAssertEqual(copied.suffix(archived.count - skip), archived.dropFirst(skip))
        XCTAssertEqual(
            try Data(contentsOf: shelf.appendingPathComponent("folder.jpg")),
            try Data(contentsOf: show.appendingPathComponent("cover.jpg")))
        // The M4A: its atoms read back, the chapters from its chpl, and the same audio decoded from the copy.
        let m4a = shelf.appendingPathComponent("2025-01-13 Two.m4a")
        let probedM4A = try TagTools.probe(m4a)
        XCTAssertEqual(probedM4A.tags["title"], "Two")
        XCTAssertEqual(probedM4A.tags["album"], "Tone Show")
        XCTAssertEqual(probedM4A.tags["date"], "2025-01-13")
        XCTAssertEqual(probedM4A.chapters.map(\.title), expected.map(\.1))
        XCTAssertEqual(probedM4A.chapters.map(\.start), expected.map(\.0))
        let readM4A = try TagTools.mutagen(m4a)
        XCTAssertEqual(readM4A.title, "Two")
        XCTAssertEqual(readM4A.artist, "Ada & Grace")
        XCTAssertEqual(readM4A.albumArtist, "Tone Show")
        XCTAssertTrue(readM4A.cover)
        XCTAssertEqual(readM4A.chapters, expected.map { [String(Int($0.0 * 1000)), $0.1] })
        XCTAssertEqual(
            try TagTools.decodedAudioHash(m4a), try TagTools.decodedAudioHash(show.appendingPathComponent("Two.m4a")),
            "every chunk offset still points at its audio")

        // The Opus and Vorbis files: their comments, the chapters ffmpeg reads from them, every page whole (the
        // pages after the comments renumbered, their CRCs made again), the same audio.
        for (name, archived, title) in [
            ("2025-01-20 Three.opus", "Three.opus", "Three"), ("2025-01-27 Four.ogg", "Four.ogg", "Four"),
        ] {
            let ogg = shelf.appendingPathComponent(name)
            let probedOgg = try TagTools.probe(ogg)
            XCTAssertEqual(probedOgg.tags["title"], title, name)
            XCTAssertEqual(probedOgg.tags["album"], "Tone Show", name)
            XCTAssertEqual(probedOgg.chapters.map(\.title), expected.map(\.1), name)
            XCTAssertEqual(probedOgg.chapters.map(\.start), expected.map(\.0), name)
            let readOgg = try TagTools.mutagen(ogg)
            XCTAssertEqual(readOgg.title, title, name)
            XCTAssertEqual(readOgg.artist, "Ada & Grace", name)
            XCTAssertEqual(readOgg.albumArtist, "Tone Show", name)
            XCTAssertEqual(readOgg.date, title == "Three" ? "2025-01-20" : "2025-01-27", name)
            XCTAssertTrue(readOgg.cover, name)
            XCTAssertEqual(try TagTools.oggPages(ogg), "whole", name)
            XCTAssertEqual(
                try TagTools.decodedAudioHash(ogg),
                try TagTools.decodedAudioHash(show.appendingPathComponent(archived)),
                name)
        }
    }
}
