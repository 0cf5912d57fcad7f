import Foundation
import XCTest

// The `--prefer` rule on its own: the first preference any file matches wins, by media type or codec; the enclosure
// is a candidate; an alternate with no http(s) source cannot be chosen; the identity stays the episode's.
@testable import ArchiverCore

final class PreferredFileTests: XCTestCase {
    private let episode: Episode = {
        var episode = Episode(title: "E", guid: "g1", url: "https://h.example/e.mp3", mimeType: "audio/mpeg")
        episode.alternates = [
            AlternateEnclosure(type: "audio/mpeg", isDefault: true, sources: ["https://h.example/e.mp3"]),
            AlternateEnclosure(
                type: "audio/ogg; codecs=opus", length: 600, codecs: "opus",
                sources: ["ipfs://Qm", "https://h.example/e.opus", "https://mirror.example/e.opus"]),
            AlternateEnclosure(type: "video/mp4", codecs: "avc1.64001F,mp4a.40.2", sources: ["ipfs://only"]),
        ]
        return episode
    }()

    func test_theFirstPreferenceAvailableWins() {
        XCTAssertEqual(PreferredFile.choice(["audio/ogg"], for: episode)?.codecs, "opus", "parameters aside")
        XCTAssertEqual(PreferredFile.choice(["opus"], for: episode)?.codecs, "opus", "by codec")
        XCTAssertEqual(
            PreferredFile.choice(["audio/flac", "opus"], for: episode)?.codecs, "opus", "the first available")
        XCTAssertNil(PreferredFile.choice(["audio/mpeg", "opus"], for: episode), "the enclosure matches first")
        XCTAssertNil(PreferredFile.choice(["audio/flac"], for: episode), "none matches: the enclosure")
        XCTAssertNil(PreferredFile.choice([], for: episode))
    }

    /// The README's "by codec too": a bare token is a codec, or the subtype of the type (`opus` is `audio/opus`).
    func test_aBareToken_matchesTheCodecsOrTheSubtype() {
        var bare = Episode(title: "E", guid: "g1", url: "https://h.example/e.mp3", mimeType: "audio/mpeg")
        bare.alternates = [
            AlternateEnclosure(type: "audio/opus", sources: ["https://h.example/e.opus"]),
            AlternateEnclosure(type: "audio/x-flac", sources: ["https://h.example/e.flac"]),
        ]
        XCTAssertEqual(PreferredFile.choice(["opus"], for: bare)?.type, "audio/opus")
        XCTAssertEqual(PreferredFile.choice(["flac", "opus"], for: bare)?.type, "audio/x-flac", "x- aside")
        XCTAssertNil(PreferredFile.choice(["mpeg", "opus"], for: bare), "the enclosure's subtype matches first")
        XCTAssertNil(PreferredFile.choice(["audio"], for: bare), "a token is no type's first half")
    }

    /// An enclosure that is a playlist or a torrent by its type or its name gives way to an alternate that is a file
    /// of the episode, preferences or none; with none there, it stays the episode's (what answers then decides).
    func test_anEnclosureThatIsNotAFile_givesWayToAnAlternateThatIs() {
        var stream = Episode(title: "E", guid: "g1", url: "https://h.example/master.m3u8", mimeType: "audio/mpeg")
        XCTAssertNil(PreferredFile.choice([], for: stream))
        var trailer = AlternateEnclosure(type: "audio/mpeg", sources: ["https://h.example/trailer.mp3"])
        trailer.rel = "Trailer"
        stream.alternates = [trailer, AlternateEnclosure(type: "audio/aac", sources: ["https://h.example/e.aac"])]
        XCTAssertEqual(PreferredFile.choice([], for: stream)?.type, "audio/aac", "never a rel alternate")
        XCTAssertEqual(PreferredFile.choice(["audio/mpeg"], for: stream)?.type, "audio/aac")
        var torrent = Episode(title: "E", guid: "g1", url: "https://h.example/e", mimeType: "application/x-bittorrent")
        torrent.alternates = stream.alternates
        XCTAssertEqual(PreferredFile.choice([], for: torrent)?.type, "audio/aac")
    }

    func test_anAlternateWithoutAnHTTPSource_isNotChosen() {
        XCTAssertNil(PreferredFile.choice(["video/mp4"], for: episode))
        XCTAssertNil(PreferredFile.choice(["mp4a"], for: episode), "mp4a.40.2 is mp4a, but it cannot be fetched")
    }

    func test_theChosenFileKeepsTheEpisodesIdentity() throws {
        let alternate = try XCTUnwrap(PreferredFile.choice(["opus"], for: episode))
        let chosen = PreferredFile.episode(episode, as: alternate)
        XCTAssertEqual(chosen.url, "https://h.example/e.opus", "the first http(s) source")
        XCTAssertEqual(chosen.mimeType, "audio/ogg; codecs=opus")
        XCTAssertEqual(chosen.length, 600)
        XCTAssertEqual(chosen.identity, episode.identity)
        var noGUID = episode
        noGUID.guid = nil
        XCTAssertEqual(PreferredFile.episode(noGUID, as: alternate).identity, "https://h.example/e.mp3")
        XCTAssertEqual(PreferredFile.skippedSources(alternate), ["ipfs://Qm"])
    }

    func test_preferencesAreChecked() throws {
        XCTAssertEqual(try ShowSettings.checkPrefer("Audio/Opus, opus"), "audio/opus,opus")
        for bad in ["", "audio/", "a/b/c", "audio opus", "opus,,mp3"] {
            XCTAssertThrowsError(try ShowSettings.checkPrefer(bad), bad)
        }
        var settings = ShowSettings()
        settings.prefer = "audio/opus,audio/mpeg"
        XCTAssertEqual(try SyncOptions().applying(settings).prefer, ["audio/opus", "audio/mpeg"])
        settings.prefer = "audio/"
        XCTAssertThrowsError(try SyncOptions().applying(settings)) { error in
            XCTAssertEqual((error as? SettingsError)?.key, .prefer)
        }
    }
}
