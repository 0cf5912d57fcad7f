// The tools players and media servers read tags with, for the library's round-trip tests: ffmpeg makes real audio
// files (`-f lavfi` sine tones), ffprobe and mutagen (PyPI) read the copies back. A test skips without them, and
// fails when PODARCHIVE_REQUIRE_TAG_TOOLS is set (as `.ci/run` sets it).
import Foundation
import TestSupport
import XCTest

enum TagTools {
    static let ffmpeg = find("ffmpeg")
    static let ffprobe = find("ffprobe")
    /// The `python3` first on PATH (mutagen may be installed for that one only: a pyenv, a venv).
    static let python = find("python3")

    /// `name` in the first folder of PATH that has it, else as if in /usr/bin (then missing).
    private static func find(_ name: String) -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        for folder in path.split(separator: ":") {
            let url = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: url.path) { return url }
        }
        return URL(fileURLWithPath: "/usr/bin/" + name)
    }

    /// Skips the test when a tool is missing, or fails it when they are required.
    static func require() throws {
        var missing = [ffmpeg, ffprobe, python].filter { !FileManager.default.isExecutableFile(atPath: $0.path) }
            .map(\.lastPathComponent)
        if missing.isEmpty, (try? run(python, ["-c", "import mutagen"]))?.status != 0 { missing.append("mutagen") }
        guard !missing.isEmpty else { return }
        if ProcessInfo.processInfo.environment["PODARCHIVE_REQUIRE_TAG_TOOLS"] != nil {
            XCTFail("missing \(missing); .ci/run installs Debian's ffmpeg and mutagen from PyPI")
        }
        throw XCTSkip("missing \(missing) (apt-get install ffmpeg; python3 -m pip install mutagen)")
    }

    /// A tone of `seconds` made by ffmpeg into `file` (its extension chooses the format), with `arguments` added.
    static func tone(_ file: URL, seconds: Int, _ arguments: [String] = []) throws -> Data {
        let result = try run(
            ffmpeg,
            ["-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "sine=frequency=440:duration=\(seconds)"]
                + arguments + [file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try Data(contentsOf: file)
    }

    /// A picture of noise made by ffmpeg (`jpg` or `png`): about 100 kB at 400 pixels, more than one Ogg page holds.
    static func picture(_ file: URL) throws -> Data {
        let result = try run(
            ffmpeg,
            [
                "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "color=red:size=400x400", "-vf",
                "noise=alls=100:allf=t", "-frames:v", "1",
                file.path,
            ])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try Data(contentsOf: file)
    }

    /// The MD5 of the audio ffmpeg decodes from `file` (what a player plays).
    static func decodedAudioHash(_ file: URL) throws -> String {
        let result = try run(ffmpeg, ["-nostdin", "-v", "error", "-i", file.path, "-map", "0:a", "-f", "md5", "-"])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout
    }

    /// Whether every page of the Ogg file is whole, as a reader checks it: its CRC right and the sequence numbers
    /// of its stream counting up from 0 without a gap. One line naming the first fault, or "whole".
    static func oggPages(_ file: URL) throws -> String {
        let result = try run(python, ["-c", oggCheck, file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private static let oggCheck = #"""
        import sys
        data = open(sys.argv[1], "rb").read()
        table = []
        for i in range(256):
            v = i << 24
            for _ in range(8):
                v = ((v << 1) ^ 0x04C11DB7) & 0xFFFFFFFF if v & 0x80000000 else (v << 1) & 0xFFFFFFFF
            table.append(v)
        def crc(b):
            c = 0
            for x in b:
                c = ((c << 8) & 0xFFFFFFFF) ^ table[(c >> 24) ^ x]
            return c
        pos, expected = 0, 0
        while pos < len(data):
            if data[pos:pos + 4] != b"OggS":
                print("no page at", pos); sys.exit(0)
            n = data[pos + 26]
            length = 27 + n + sum(data[pos + 27:pos + 27 + n])
            page = bytearray(data[pos:pos + length])
            stored = int.from_bytes(page[22:26], "little")
            page[22:26] = b"\0\0\0\0"
            if crc(page) != stored:
                print("bad CRC at page", expected); sys.exit(0)
            sequence = int.from_bytes(page[18:22], "little")
            if sequence != expected:
                print("page", sequence, "where", expected, "was due"); sys.exit(0)
            expected += 1
            pos += length
        print("whole")
        """#

    /// What ffprobe reads: the format's tags, and each chapter's start (seconds) and title.
    static func probe(_ file: URL) throws -> (tags: [String: String], chapters: [(start: Double, title: String)]) {
        let result = try run(
            ffprobe, ["-v", "error", "-show_chapters", "-show_format", "-show_streams", "-of", "json", file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let format = json["format"] as? [String: Any]
        // An Ogg file's comments are its stream's tags.
        let streams = (json["streams"] as? [[String: Any]]) ?? []
        let tags = ((format?["tags"] as? [String: String]) ?? [:]).merging(
            (streams.first?["tags"] as? [String: String]) ?? [:]
        ) { format, _ in format }
        let chapters = ((json["chapters"] as? [[String: Any]]) ?? []).map { chapter in
            (
                Double(chapter["start_time"] as? String ?? "") ?? -1,
                ((chapter["tags"] as? [String: String]) ?? [:])["title"] ?? ""
            )
        }
        return (tags.reduce(into: [:]) { $0[$1.key.lowercased()] = $1.value }, chapters)
    }

    /// What mutagen reads: title, album, artist, album artist, date, whether a cover is there, chapters (start ms,
    /// title), and every text it holds (ID3 frames decoded whatever their encoding: UTF-16 too).
    struct Read: Decodable {
        var title: String?
        var album: String?
        var artist: String?
        var albumArtist: String?
        var date: String?
        var cover: Bool
        var chapters: [[String]]
        var texts: [String]
    }

    static func mutagen(_ file: URL) throws -> Read {
        let result = try run(python, ["-c", script, file.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        return try JSONDecoder().decode(Read.self, from: Data(result.stdout.utf8))
    }

    private static let script = #"""
        import json, sys, mutagen
        from mutagen.id3 import ID3
        from mutagen.mp4 import MP4
        path = sys.argv[1]
        out = {"title": None, "album": None, "artist": None, "albumArtist": None, "date": None, "cover": False, "chapters": [], "texts": []}
        f = mutagen.File(path)
        if isinstance(f.tags, ID3):
            t = f.tags
            first = lambda k: str(t[k].text[0]) if k in t else None
            out.update(title=first("TIT2"), album=first("TALB"), artist=first("TPE1"), date=first("TDRC"))
            out["albumArtist"] = first("TPE2")
            out["cover"] = any(k.startswith("APIC") for k in t.keys())
            for k, frame in t.items():
                if hasattr(frame, "text"): out["texts"] += [str(x) for x in frame.text]
                if k.startswith("CHAP"):
                    title = frame.sub_frames.get("TIT2")
                    out["chapters"].append([str(frame.start_time), str(title.text[0]) if title else ""])
            out["chapters"].sort(key=lambda c: int(c[0]))
        elif isinstance(f, MP4):
            t = f.tags or {}
            first = lambda k: str(t[k][0]) if k in t else None
            out.update(title=first("\xa9nam"), album=first("\xa9alb"), artist=first("\xa9ART"), date=first("\xa9day"))
            out["albumArtist"] = first("aART")
            out["cover"] = "covr" in t
            out["texts"] = [str(v) for vs in t.values() for v in vs if isinstance(v, str)]
            for c in (f.chapters or []):
                out["chapters"].append([str(int(round(c.start * 1000))), c.title])
        elif f is not None and f.tags is not None:
            t = f.tags
            first = lambda k: t[k][0] if k in t else None
            out.update(title=first("title"), album=first("album"), artist=first("artist"), date=first("date"))
            out["albumArtist"] = first("albumartist")
            out["cover"] = "metadata_block_picture" in t
            out["texts"] = [v for k, vs in t.items() for v in vs if k != "metadata_block_picture"]
        print(json.dumps(out))
        """#

    static func run(_ tool: URL, _ arguments: [String]) throws -> ProcessResult {
        try ProcessRunner.run(tool, arguments, environment: ProcessInfo.processInfo.environment, timeout: 60)
    }
}
