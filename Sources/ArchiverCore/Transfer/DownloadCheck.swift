// What a finished download must pass before it is renamed into place, and the size it is expected to reach.
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The checks a finished download must pass before it is renamed into place.
enum DownloadCheck {
    /// Whether a download's body is what it should be: a 2xx, of the size announced for it, the media rather than
    /// the way to it (a torrent, a streaming playlist), not an HTML page in place of media, not empty. (That it is
    /// complete by its own framing, its `Content-Length` and any `Content-Encoding`, the downloader already made
    /// sure: see `BodyFraming`.)
    /// - Parameters:
    ///   - feedLength: the `length` the feed gives the enclosure. Only a hint (ad insertion makes it wrong), used
    ///     for a body that ends when the connection closes (no `Content-Length`, not chunked): one shorter than it
    ///     may be a cut, so it is asked for again. The same size again (`shortBefore`: the size such a body had on
    ///     an earlier try, or in the failure an earlier run recorded) is the file.
    ///   - declaredType: the type the feed gives the file. A body of a text type is what was promised whatever it
    ///     starts as (a transcript, chapters: an HTML one when the type is `text/html`); any other (media, artwork,
    ///     none) is never a torrent or a playlist, nor an HTML page.
    static func failure(
        of result: DownloadResult, expectedSize: Int64? = nil, feedLength: Int64? = nil, shortBefore: Int64? = nil,
        declaredType: String? = nil
    ) -> EpisodeFailure? {
        let htmlAllowed = declaredType.map { MediaTypes.bare($0) == "text/html" } ?? false
        let mediaExpected = !MediaTypes.isText(declaredType) || declaredType.flatMap(NotMedia.init(type:)) != nil
        let http = result.response as? HTTPURLResponse
        if let http {
            guard (200..<300).contains(http.statusCode) else { return .httpStatus(http.statusCode) }
        }
        if mediaExpected,
            let kind = NotMedia(
                type: http?.value(forHTTPHeaderField: "Content-Type"), leadingBytes: result.leadingBytes)
        {
            return .notMedia(kind)
        }
        if let http {
            let delimitedByClose =
                http.value(forHTTPHeaderField: "Content-Length") == nil
                && http.value(forHTTPHeaderField: "Content-Range") == nil
                && !(http.value(forHTTPHeaderField: "Transfer-Encoding")?.lowercased().contains("chunked") ?? false)
            if delimitedByClose, expectedSize == nil, let feedLength, feedLength > result.fileSize,
                result.fileSize != shortBefore
            {
                return .shortOfFeedLength(feedLength: feedLength, received: result.fileSize)
            }
            if !htmlAllowed, let type = http.value(forHTTPHeaderField: "Content-Type")?.lowercased(),
                type.hasPrefix("text/html") || type.hasPrefix("application/xhtml")
            {
                return .htmlPage
            }
        }
        if let expectedSize, expectedSize != result.fileSize {
            return .lengthMismatch(expected: expectedSize, received: result.fileSize)
        }
        if result.fileSize == 0 { return .emptyBody }
        return !htmlAllowed && looksLikeHTML(result.leadingBytes) ? .htmlPage : nil
    }

    /// The failure a download that is not complete by its framing is (`DownloadError.lengthMismatch`,
    /// `.incomplete`, `.unsupportedEncoding`), and whether what arrived may be resumed: only a body sent as it is,
    /// cut short.
    static func framingFailure(_ error: DownloadError) -> (failure: EpisodeFailure, resumable: Bool) {
        switch error {
        case .lengthMismatch(let expected, let received):
            return (.lengthMismatch(expected: expected, received: received), received < expected)
        case .unsupportedEncoding(let encoding): return (.unsupportedEncoding(encoding), false)
        case .incomplete(let reason), .contradicted(let reason): return (.incompleteBody(reason), false)
        default: return (.transport("\(error)"), false)
        }
    }

    /// True when the body starts (after a BOM and white space) like an HTML document.
    static func looksLikeHTML(_ bytes: Data) -> Bool {
        // Most bodies are media: the first byte past a BOM and ASCII white space already tells (decoding 512 bytes
        // of binary as text cost as much as the rest of judging the download).
        var start = bytes.startIndex
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start += 3 }
        guard let lead = bytes[start...].firstIndex(where: { !(0x09...0x0D).contains($0) && $0 != 0x20 }) else {
            return false
        }
        if bytes[lead] != UInt8(ascii: "<") {
            guard bytes[lead] >= 0x80 else { return false }
            // A character is white space when its first scalar is: only then can the text go on to a tag.
            var decoder = Unicode.UTF8()
            var iterator = bytes[lead...].prefix(4).makeIterator()
            guard case .scalarValue(let scalar) = decoder.decode(&iterator), scalar.properties.isWhitespace else {
                return false
            }
        }
        var text = String(decoding: bytes.prefix(512), as: UTF8.self)
        if text.hasPrefix("\u{FEFF}") { text.removeFirst() }
        let head = text.drop(while: { $0.isWhitespace }).prefix(15).lowercased()
        return ["<!doctype html", "<html", "<head", "<body", "<title"].contains { head.hasPrefix($0) }
    }
}

/// The size a download is expected to reach: the feed's declared length until the response says better. Read by
/// progress reports on the transfer's thread, written by the admission hook.
final class ExpectedSize: Sendable {
    private let size: Locked<Int64?>

    init(_ size: Int64?) { self.size = Locked(size) }

    var value: Int64? {
        get { size.current }
        set { size.set(newValue) }
    }
}

/// The download record an attempt's admission wrote, read back by the attempt without reading the file again.
final class AnnouncedRecord: Sendable {
    private let value = Locked<PartialRecord?>(nil)

    var record: PartialRecord? {
        get { value.current }
        set { value.set(newValue) }
    }
}
