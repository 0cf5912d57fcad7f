// When a body is complete: what its response's headers frame it with (`Content-Length`, `Content-Encoding`),
// checked against the bytes that came. The one place every body podarchive keeps goes through, in both live
// sessions: feeds and their pages (`FeedSession`), episodes, companions and artwork (`URLSessionDownloader`).
//
// On Linux libcurl's own decoding is off (see Sources/CCurlSockets): a body arrives as it was sent and is inflated
// here, chunk by chunk, so a gzip or deflate body is complete only at its compressed stream's end, its check good
// (gzip's CRC-32 and length, zlib's Adler-32, raw deflate's final block), and only when the bytes sent are the
// `Content-Length` announced. Where the transport decodes by itself (macOS's URLSession; a program that did not
// export the shim's `curl_easy_setopt`), the stream's end cannot be seen: identity bodies are still held to their
// length, encoded ones are taken as the transport hands them over.
import CCurlSockets
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a body is not complete by its framing, or cannot be read at all.
enum FramingFailure: Error, Equatable {
    /// Sent in a `Content-Encoding` podarchive does not decode (`br`, `zstd`, `compress`, several at once...),
    /// named as the server did: refused before any byte is kept.
    case unsupportedEncoding(String)
    /// A body sent as it is that ended short of (or past) its `Content-Length`.
    case length(expected: Int64, received: Int64)
    /// A compressed body cut before its stream's end, damaged, going on past its end, or not of its length.
    case encoded(String)
    /// A part (206) of a compressed body (its coding named): the range is of the compressed bytes, which cannot
    /// be decoded on their own nor continue decoded bytes kept.
    case encodedPart(String)

    /// The words for it, as a failure's reason says them.
    var reason: String {
        switch self {
        case .unsupportedEncoding(let encoding):
            return "it was sent encoded as \(encoding) (Content-Encoding), which podarchive does not decode"
        case .length(let expected, let received):
            return "its body ended after \(received) of the \(expected) bytes announced"
        case .encoded(let reason): return reason
        case .encodedPart(let coding):
            return "a part (206) of its \(coding)-encoded body came, which cannot be decoded on its own"
        }
    }
}

/// One 2xx response's body, as it arrives: each piece handed on decoded, and at the end, whether it is complete.
final class BodyFraming {
    /// How the body was sent.
    enum Coding: String {
        case identity, gzip, deflate
    }

    let coding: Coding
    /// `Content-Length`: the bytes as sent (compressed, for an encoded body); nil when not said.
    let announced: Int64?
    /// Bytes as sent so far.
    private(set) var received: Int64 = 0
    /// Nil for a body sent as it is, and where the transport decodes by itself.
    private let inflater: Inflater?

    /// The framing of `response`'s body; nil when it has none to judge (a `HEAD` request, a 204, a 205).
    /// `decoding`: whether its bytes arrive as sent, for podarchive to decode (see `decodesItself`).
    /// - Throws: `FramingFailure.unsupportedEncoding` for an encoding podarchive does not decode, `encodedPart`
    ///   for a part (206) of an encoded body.
    init?(_ response: HTTPURLResponse, method: String?, decoding: Bool = decodesItself) throws(FramingFailure) {
        guard method?.uppercased() != "HEAD", response.statusCode != 204, response.statusCode != 205 else {
            return nil
        }
        let header = response.value(forHTTPHeaderField: "Content-Encoding") ?? ""
        coding = try Self.coding(of: header)
        if coding != .identity, response.statusCode == 206 {
            throw .encodedPart(coding.rawValue)
        }
        announced = response.value(forHTTPHeaderField: "Content-Length").flatMap(Self.number)
        inflater = coding == .identity || !decoding ? nil : Inflater(coding == .gzip ? .gzip : .deflate)
    }

    /// True where libcurl hands bodies over as they were sent (see Sources/CCurlSockets): podarchive decodes them.
    static var decodesItself: Bool { podarchive_curl_hands_over_encoded_bodies() != 0 }

    /// True when the body was sent compressed: its bytes kept are decoded ones, never resumed with `Range`.
    var isEncoded: Bool { coding != .identity }

    /// Takes a piece of the body as it arrived and hands `body` what it holds, decoded (at most 64 KB at a time,
    /// so a cap checked in `body` stops a stream that inflates without end before it is held).
    /// - Throws: `FramingFailure.encoded` when the stream is damaged or goes on past its end; `body`'s errors.
    func take(_ data: Data, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        received += Int64(data.count)
        try data.withUnsafeBytes { bytes in
            guard let inflater else { return try body(bytes) }
            do {
                try inflater.read(bytes, body)
            } catch let damaged as Inflater.Damaged {
                throw FramingFailure.encoded(
                    damaged.pastTheEnd
                        ? "its \(coding)-encoded body goes on past the end of its compressed stream"
                        : "its \(coding)-encoded body is damaged (\(damaged.reason))")
            }
        }
    }

    /// Says whether the body that ended (without a transport error) is complete: its compressed stream ended,
    /// and the bytes sent are those announced.
    /// - Throws: `FramingFailure` saying what is missing.
    func end() throws(FramingFailure) {
        if let inflater, !inflater.ended {
            throw .encoded("its \(coding)-encoded body ended before its compressed stream did (cut short)")
        }
        guard let announced, announced != received else { return }
        if coding == .identity { throw .length(expected: announced, received: received) }
        // Decoded by the transport, the bytes counted here are not those the length announced.
        if inflater != nil {
            throw .encoded("its \(coding)-encoded body was \(received) bytes, not the \(announced) announced")
        }
    }

    /// The coding `header` names: identity when it names none (or only `identity`, or `none`, which libcurl and
    /// misconfigured servers take for it).
    static func coding(of header: String) throws(FramingFailure) -> Coding {
        let named = header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            .filter { !$0.isEmpty && $0 != "identity" && $0 != "none" }
        switch named {
        case []: return .identity
        case ["gzip"], ["x-gzip"]: return .gzip
        case ["deflate"]: return .deflate
        default: throw .unsupportedEncoding(header.trimmingCharacters(in: .whitespaces))
        }
    }

    /// A header's decimal value, spaces and tabs around it allowed.
    private static func number(_ text: String) -> Int64? {
        Int64(text.trimmingCharacters(in: .whitespaces))
    }

    /// What a request says it takes: `gzip, deflate` where a compressed body saves bytes and can be decoded and
    /// checked whole (feeds, pages, transcripts and chapters), `identity` for media, which is compressed already
    /// and is resumed with `Range` (a range of an encoded body could not continue the decoded bytes kept).
    static func acceptEncoding(compressible: Bool) -> String {
        compressible ? "gzip, deflate" : "identity"
    }
}
