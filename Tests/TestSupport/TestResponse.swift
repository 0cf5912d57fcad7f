// What the loopback test server answers, with the faults a test can ask for, and what it was asked.
import Foundation

/// What the server sends for one path.
public struct TestResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: Data
    /// Close the connection after this many body bytes, whatever Content-Length said.
    public var cutAfter: Int?
    /// Leave out the Content-Length header (the body then ends when the connection closes).
    public var omitContentLength: Bool
    /// Send the body `chunk` bytes at a time, waiting `interval` seconds between chunks (a slow network).
    public var trickle: (chunk: Int, interval: TimeInterval)?
    /// Wait this long before sending anything at all.
    public var delayBeforeHeaders: TimeInterval
    /// End a cut connection with a TCP reset instead of a clean close.
    public var reset: Bool
    /// Hold the response until the server has answered this many requests at once (its peak): proof, without timing, that
    /// they run side by side (given up after 20 s, which the test then sees as fewer at once).
    public var holdUntilActive: Int?
    /// Hold the response until `path` has been requested: fixes the order in which responses finish.
    public var holdUntilRequested: String?
    /// Makes the body as it is sent, in place of `body`: called with 0, 1, 2... for each next piece, nil ends the
    /// body. An endless body is sent until the client hangs up or the server stops.
    public var pieces: (@Sendable (Int) -> Data?)?
    /// Send the body with `Transfer-Encoding: chunked` (each piece one chunk) and no Content-Length.
    public var chunked = false
    /// Once `holdUntilActive` is reached, hold on this long more, unless one request more joins (which releases
    /// it at once): the time a test gives a cap of that many at once to be broken, not a synchronisation.
    public var holdForMore: TimeInterval?

    public init(
        status: Int = 200, headers: [(String, String)] = [], body: Data = Data(), cutAfter: Int? = nil,
        omitContentLength: Bool = false, trickle: (chunk: Int, interval: TimeInterval)? = nil,
        delayBeforeHeaders: TimeInterval = 0, reset: Bool = false, holdUntilActive: Int? = nil,
        holdUntilRequested: String? = nil, holdForMore: TimeInterval? = nil
    ) {
        self.status = status
        self.headers = headers
        self.body = body
        self.cutAfter = cutAfter
        self.omitContentLength = omitContentLength
        self.trickle = trickle
        self.delayBeforeHeaders = delayBeforeHeaders
        self.reset = reset
        self.holdUntilActive = holdUntilActive
        self.holdUntilRequested = holdUntilRequested
        self.holdForMore = holdForMore
    }

    /// A file as a static server sends it: with its validators, and, when `ranges` is true, a `206` for a
    /// `Range: bytes=N-` request whose `If-Range` (if any) still matches; otherwise the whole file.
    public static func file(
        _ body: Data, for request: RecordedRequest, etag: String? = nil, lastModified: String? = nil,
        ranges: Bool = true,
        type: String = "audio/mpeg"
    ) -> TestResponse {
        var headers: [(String, String)] = [("Content-Type", type), ("Accept-Ranges", ranges ? "bytes" : "none")]
        if let etag { headers.append(("ETag", etag)) }
        if let lastModified { headers.append(("Last-Modified", lastModified)) }
        guard ranges, let range = request.headers["range"], range.hasPrefix("bytes="),
            let start = Int(range.dropFirst(6).prefix(while: \.isNumber))
        else { return TestResponse(headers: headers, body: body) }
        if let ifRange = request.headers["if-range"], ifRange != etag, ifRange != lastModified {
            return TestResponse(headers: headers, body: body)  // Changed since: the whole new file.
        }
        guard start < body.count else {
            return TestResponse(status: 416, headers: [("Content-Range", "bytes */\(body.count)")])
        }
        headers.append(("Content-Range", "bytes \(start)-\(body.count - 1)/\(body.count)"))
        return TestResponse(status: 206, headers: headers, body: body.subdata(in: start..<body.count))
    }

    /// A body without end: `piece(n)` for the n-th piece, one every `interval` seconds (0: as fast as the socket
    /// takes them), sent chunked until the client hangs up or the server stops.
    public static func endless(
        type: String, headers: [(String, String)] = [], every interval: TimeInterval = 0,
        piece: @escaping @Sendable (Int) -> Data
    ) -> TestResponse {
        var response = TestResponse(headers: [("Content-Type", type)] + headers)
        response.pieces = piece
        response.chunked = true
        if interval > 0 { response.trickle = (chunk: 0, interval: interval) }
        return response
    }

    /// The `number`th piece of the body as sent (`trickle`'s size, else the whole body), nil past the last.
    func piece(_ number: Int) -> Data? {
        if let pieces { return pieces(number) }
        let body = cutAfter.map { self.body.prefix($0) } ?? self.body
        let size = trickle?.chunk ?? max(body.count, 1)
        let start = body.startIndex + number * size
        return start < body.endIndex ? Data(body[start..<min(start + size, body.endIndex)]) : nil
    }

    public static func ok(_ body: Data, type: String = "audio/mpeg") -> TestResponse {
        TestResponse(headers: [("Content-Type", type)], body: body)
    }

    public static func ok(_ text: String, type: String) -> TestResponse {
        ok(Data(text.utf8), type: type)
    }

    public static func status(_ status: Int, _ text: String = "") -> TestResponse {
        TestResponse(status: status, headers: [("Content-Type", "text/plain")], body: Data(text.utf8))
    }

    public static func redirect(to location: String, status: Int = 302) -> TestResponse {
        TestResponse(status: status, headers: [("Location", location)])
    }
}

/// A request the server received.
public struct RecordedRequest: Sendable, Equatable {
    public var method: String
    public var path: String
    /// Header names lowercased.
    public var headers: [String: String]
    /// The request's body (by its Content-Length).
    public var body: Data

    public init(method: String = "GET", path: String, headers: [String: String] = [:], body: Data = Data()) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }
}

extension TestResponse {
    /// The reason phrase sent with `status`.
    static func reason(_ status: Int) -> String {
        switch status {
        case 200: return "OK"
        case 206: return "Partial Content"
        case 416: return "Range Not Satisfiable"
        case 429: return "Too Many Requests"
        case 503: return "Service Unavailable"
        case 301: return "Moved Permanently"
        case 302: return "Found"
        case 304: return "Not Modified"
        case 404: return "Not Found"
        case 500: return "Internal Server Error"
        default: return "Status"
        }
    }
}
