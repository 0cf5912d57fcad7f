// How a body is framed, and when it is complete: its coding named as sent (or refused), its Content-Length, and
// for a compressed body its stream's end. Both live sessions judge every 2xx body through it.
import Foundation
import XCTest

@testable import ArchiverCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

final class BodyFramingTests: XCTestCase {
    private func response(
        _ status: Int = 200, encoding: String? = nil, length: Int? = nil
    ) -> HTTPURLResponse {
        var headers: [String: String] = [:]
        if let encoding { headers["Content-Encoding"] = encoding }
        if let length { headers["Content-Length"] = String(length) }
        return HTTPURLResponse(
            url: URL(string: "http://x/y")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
    }

    private func framing(_ response: HTTPURLResponse, method: String = "GET") throws -> BodyFraming? {
        try BodyFraming(response, method: method, decoding: true)
    }

    func test_theCodingsPodarchiveDecodes_andThoseItRefuses_namedAsSent() throws {
        for (header, coding) in [
            ("", BodyFraming.Coding.identity), ("identity", .identity), ("none", .identity), ("None", .identity),
            ("GZIP", .gzip), ("x-gzip", .gzip),
            (" deflate ", .deflate), ("gzip, identity", .gzip),
        ] {
            XCTAssertEqual(try BodyFraming.coding(of: header), coding, header)
        }
        for header in ["br", "zstd", "compress", "gzip, br", "gzip, gzip", "exotic"] {
            XCTAssertThrowsError(try BodyFraming.coding(of: header)) {
                XCTAssertEqual($0 as? FramingFailure, .unsupportedEncoding(header))
            }
        }
    }

    func test_noBodyToJudge_forHEADAnd204_andAPartOfAnEncodedBodyIsRefused() throws {
        XCTAssertNil(try framing(response(length: 100), method: "HEAD"))
        XCTAssertNil(try framing(response(204)))
        XCTAssertNotNil(try framing(response(206, length: 10)))
        XCTAssertThrowsError(try framing(response(206, encoding: "gzip", length: 10))) {
            XCTAssertEqual($0 as? FramingFailure, .encodedPart("gzip"))
        }
    }

    func test_aBodySentAsItIs_isCompleteAtItsLength() throws {
        let framing = try XCTUnwrap(framing(response(length: 10)))
        var kept = Data()
        try framing.take(Data("12345".utf8)) { kept.append(contentsOf: $0) }
        XCTAssertThrowsError(try framing.end()) {
            XCTAssertEqual($0 as? FramingFailure, .length(expected: 10, received: 5))
        }
        try framing.take(Data("67890".utf8)) { kept.append(contentsOf: $0) }
        XCTAssertNoThrow(try framing.end())
        XCTAssertEqual(kept, Data("1234567890".utf8))
    }

    func test_anEncodedBody_isCompleteAtItsStreamsEnd_withTheBytesSentAnnounced() throws {
        let text = Data(String(repeating: "an episode's transcript ", count: 500).utf8)
        let gzip = Gzip.compress(text)
        let whole = try XCTUnwrap(framing(response(encoding: "gzip", length: gzip.count)))
        var kept = Data()
        try whole.take(gzip) { kept.append(contentsOf: $0) }
        XCTAssertNoThrow(try whole.end())
        XCTAssertEqual(kept, text)

        let cut = try XCTUnwrap(framing(response(encoding: "gzip", length: gzip.count - 8)))
        try cut.take(gzip.dropLast(8)) { _ in }
        XCTAssertThrowsError(try cut.end()) {
            XCTAssertEqual(
                $0 as? FramingFailure,
                .encoded("its gzip-encoded body ended before its compressed stream did (cut short)"))
        }
        let unannounced = try XCTUnwrap(framing(response(encoding: "gzip")))
        try unannounced.take(gzip) { _ in }
        XCTAssertNoThrow(try unannounced.end(), "no Content-Length: the stream's end is the framing")
    }

    func test_whereTheTransportDecodes_onlyABodySentAsItIsIsHeldToItsLength() throws {
        let decoded = try XCTUnwrap(
            BodyFraming(response(encoding: "gzip", length: 3), method: "GET", decoding: false))
        var kept = Data()
        try decoded.take(Data("already decoded".utf8)) { kept.append(contentsOf: $0) }
        XCTAssertNoThrow(try decoded.end())
        XCTAssertEqual(kept, Data("already decoded".utf8))
        XCTAssertTrue(decoded.isEncoded, "never resumed all the same")
    }
}
