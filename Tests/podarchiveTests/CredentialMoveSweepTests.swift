import Foundation
import TestSupport
import XCTest

// `credentials --move` after a move killed part way: the record's secret already moved or not, the index already
// clean, but a sidecar in a `--name` subfolder, an episode's origin attribute and a leftover temporary file still
// hold the token. A second `--move` must take them out, not stop because the index looks clean.
@testable import ArchiverCore
@testable import podarchive

final class CredentialMoveSweepTests: CommandLineTestCase {
    private var root: URL { folder.url.appendingPathComponent("archive") }

    func test_move_afterAnInterruptedOne_cleansSidecarsAtAnyDepth_originAttributes_andLeftoverTemporaries() async throws
    {
        let secret = "TOKENVALUE77"
        let feed = "http://127.0.0.1:9/feed.xml?token=\(secret)"
        let redactedFeed = "http://127.0.0.1:9/feed.xml?token=REDACTED"
        let episodeURL = "http://127.0.0.1:9/one.mp3?token=\(secret)"
        let show = root.appendingPathComponent("Members Only")
        let sub = show.appendingPathComponent("Season 1")
        let records = root.appendingPathComponent(".podarchive/feeds")
        for made in [records, sub, show.appendingPathComponent(".podarchive")] {
            try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true)
        }
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: records.path)
        try Data(#"{"feed": "\#(feed)", "folder": "Members Only", "added": "2026-01-01T00:00:00Z"}"#.utf8)
            .write(to: records.appendingPathComponent("\(StableName.of(feed)).json"))
        let episode = sub.appendingPathComponent("One.mp3")
        try Data(repeating: 1, count: 2000).write(to: episode)
        let digest = try StreamingFileHasher().sha256(ofFileAtPath: episode.path).digest
        // The index a killed move saved first: already clean.
        try Data(
            #"""
            {"version": 2, "feed": "\#(redactedFeed)", "title": "Members Only", "episodes": [{"key": "1",
            "guid": "1", "title": "One", "url": "http://127.0.0.1:9/one.mp3?token=REDACTED",
            "file": "Season 1/One.mp3", "size": 2000, "sha256": "\#(digest)", "archived": "2026-01-01T00:00:00Z"}],
            "failures": []}
            """#.utf8
        ).write(to: show.appendingPathComponent(".podarchive/index.json"))
        try FileManager.default.setAttributes(
            [FileAttributeKey("NSFileExtendedAttributes"): ["user.xdg.origin.url": Data(episodeURL.utf8)]],
            ofItemAtPath: episode.path)
        let sidecar = Data(#"{"url": "\#(episodeURL)", "feed": {"title": "Members Only", "url": "\#(feed)"}}"#.utf8)
        try sidecar.write(to: sub.appendingPathComponent("One.info.json"))
        try sidecar.write(to: sub.appendingPathComponent(".One.info.json.tmp-999999"))
        try sidecar.write(to: show.appendingPathComponent(".Two.info.json.tmp-999998"))

        let code = await run("credentials", "--move", "--to", root.path)

        XCTAssertEqual(code, .success, errors.text)
        XCTAssertEqual(try SecretSearch.files(under: root, holding: [secret]), [], "files in the archive hold it")
        XCTAssertFalse(
            try SecretSearch.files(under: configurationFolder, holding: [secret]).isEmpty,
            "the configuration folder keeps it")
        XCTAssertEqual(
            try TemporaryFolder.visibleFiles(in: root),
            ["Members Only/Season 1/One.info.json", "Members Only/Season 1/One.mp3"])
        XCTAssertEqual(try Data(contentsOf: episode), Data(repeating: 1, count: 2000), "the episode is untouched")
    }
}
