import Foundation
import TestSupport
import XCTest

// What a feed publishes with an episode, as the readers see it, and the names it is kept under.
@testable import ArchiverCore

final class CompanionTests: XCTestCase {
    private func feed() throws -> Feed {
        try FeedParser.parse(Fixtures.data("feeds/companions.xml"), url: URL(string: "https://example.com/feed.xml"))
    }

    func test_transcriptsAndChapters_byURL_withTypeLanguageAndRel_eachOnce() throws {
        let episode = try XCTUnwrap(try feed().episodes.first)

        XCTAssertEqual(
            episode.companions,
            [
                Companion(
                    kind: .transcript, url: "https://example.com/e1.srt", type: "application/srt", language: "en"),
                Companion(
                    kind: .transcript, url: "https://example.com/e1.de.vtt", type: "text/vtt", language: "de",
                    rel: "captions"),
                Companion(
                    kind: .transcript, url: "https://example.com/transcripts/e1.json", type: "application/json",
                    language: "en-US"),
                Companion(kind: .transcript, url: "https://example.com/e1.html", type: "text/html"),
                Companion(
                    kind: .chapters, url: "https://example.com/e1.chapters.json", type: "application/json+chapters"),
            ], "relative URLs resolved; the repeated SRT listed once")
    }

    func test_podloveSimpleChapters_becomeJSONChapters() throws {
        let episode = try feed().episodes[1]
        let chapters = try XCTUnwrap(episode.companions.first { $0.kind == .chapters })
        let json = try XCTUnwrap(
            JSONSerialization.jsonObject(with: XCTUnwrap(chapters.content)) as? [String: Any])
        let list = try XCTUnwrap(json["chapters"] as? [[String: Any]])

        XCTAssertNil(chapters.url)
        XCTAssertEqual(json["version"] as? String, "1.2.0")
        XCTAssertEqual(list.map { $0["startTime"] as? Double }, [0, 90.5, 3723])
        XCTAssertEqual(list.map { $0["title"] as? String }, ["Intro", "The \"news\"", "Outro"])
        XCTAssertEqual(list[1]["url"] as? String, "https://example.com/news")
        XCTAssertEqual(list[2]["img"] as? String, "https://example.com/art/outro.png")
    }

    func test_episodeArtwork_onlyWhenItIsNotTheShowsCover_aThumbnailWhenNothingElse() throws {
        let parsed = try feed()
        let artwork = parsed.episodes.map { $0.companions(besides: parsed.imageURL).filter { $0.kind == .artwork } }

        XCTAssertEqual(artwork[0].map(\.url), ["https://example.com/e1-art.png"])
        XCTAssertEqual(artwork[1], [], "the show's own cover is not kept again")
        XCTAssertEqual(artwork[2].map(\.url), ["https://example.com/e3-thumb.webp"])
        XCTAssertEqual(artwork[3].map(\.url), ["https://example.com/e4-1500.jpg"], "podcast:images over a thumbnail")
    }

    func test_names_followTheEpisodesFile_inItsSubfolder() throws {
        let parsed = try feed()
        let names = parsed.episodes.map { episode in
            episode.companions(besides: parsed.imageURL).map { $0.fileName(beside: "Season 1/Pilot.mp3") }
        }

        XCTAssertEqual(
            names[0],
            [
                "Season 1/Pilot.en.srt", "Season 1/Pilot.captions.de.vtt", "Season 1/Pilot.en-US.json",
                "Season 1/Pilot.transcript.html.txt", "Season 1/Pilot.chapters.json", "Season 1/Pilot.png",
            ])
        XCTAssertEqual(names[1], ["Season 1/Pilot.transcript.txt", "Season 1/Pilot.chapters.json"])
        XCTAssertEqual(names[2], ["Season 1/Pilot.webp"])
    }

    func test_aHostileLanguage_staysInTheName_safely() {
        let companion = Companion(
            kind: .transcript, url: "https://e.x/t.srt", type: "application/srt", language: "../../etc")

        XCTAssertEqual(companion.fileName(beside: "Pilot.mp3"), "Pilot.etc.srt")
    }
}
