import XCTest

@testable import ArchiverCore

final class SearchWordsTests: XCTestCase {
    func test_words_areFoldedOnceEach_inTheOrderFirstSaid() {
        XCTAssertEqual(SearchWords.of("The cat, the CAT and 42 cats."), "the cat and 42 cats")
    }

    func test_words_ofGermanAndJapanese_foldAsTheBrowserFoldsAQuery() {
        // "Eichhörnchen" with a combining diaeresis (NFD) reads as the precomposed one a query is folded to.
        XCTAssertEqual(SearchWords.of("Das EICHHO\u{308}RNCHEN sammelt Nüsse"), "das eichhörnchen sammelt nüsse")
        XCTAssertEqual(SearchWords.of("今日は東京で、会議がありました。"), "今日は東京で 会議がありました")
    }

    func test_textOfHTML_dropsTags_andTurnsBackWhatTheSanitiserEscaped() {
        XCTAssertEqual(
            SearchWords.text(ofHTML: "<p>Fish &amp; chips &lt;b&gt; &#39;x&#39; &nbsp; &</p>"),
            " Fish & chips <b> 'x' &nbsp; & ")
    }

    func test_transcripts_ofEachForm_giveWhatWasSaid_notTimingsOrMarkup() {
        let vtt = "WEBVTT\n\n1\n00:00.000 --> 00:01.000\n<v Anna>Hello there\n"
        XCTAssertEqual(SearchWords.of(SearchWords.transcript(Data(vtt.utf8), file: "a.en.vtt")), "hello there")
        let srt = "1\n00:00:00,000 --> 00:00:01,000\nGuten Tag\n"
        XCTAssertEqual(SearchWords.of(SearchWords.transcript(Data(srt.utf8), file: "a.de.srt")), "guten tag")
        let json = #"{"segments":[{"startTime":0,"body":"Bonjour"},{"body":"à tous"}]}"#
        XCTAssertEqual(SearchWords.of(SearchWords.transcript(Data(json.utf8), file: "a.fr.json")), "bonjour à tous")
        XCTAssertEqual(SearchWords.transcript(Data("[[[[".utf8), file: "a.json"), "", "damaged JSON: nothing")
    }
}
